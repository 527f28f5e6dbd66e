/**
 * Bench: the `tests` server's `_Stop` answer after a one-package edit in a 10-package npm workspace
 * (the root script fans out with `npm test --workspaces`), side by side with running that whole root
 * script, interleaved, each measured from an idle machine. The server is the real bundle
 * (dist/servers/tests.js) over stdio; the edit is announced by `_PostToolUse` as the agent does, and
 * `_Stop` (with a budget long enough to wait) answers once the affected package's fresh result is in.
 * Target: the affected-package answer at least 3x sooner.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, tempDir } from './benchHarness';

const PACKAGES = 10;
const ITERATIONS = 5;

function workspace(root: string): void {
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bench-mono', private: true, workspaces: ['packages/*'], scripts: { test: 'npm test --workspaces' } }));
  for (let i = 0; i < PACKAGES; i++) {
    const dir = join(root, 'packages', `p${i}`);
    mkdirSync(join(dir, 'test'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `p${i}`, version: '1.0.0', scripts: { test: 'node --test' } }));
    writeFileSync(join(dir, 'value.js'), 'module.exports = 1;\n');
    const tests = Array.from({ length: 5 }, (_, t) => `test('case ${t}', () => assert.equal(require('../value.js') + ${t}, ${t + 1}));`).join('\n');
    writeFileSync(join(dir, 'test', 'value.test.js'), `const test = require('node:test');\nconst assert = require('node:assert/strict');\n${tests}\n`);
  }
}

function lastRun(stateDir: string): { checked?: string[]; fingerprint: string } | undefined {
  const file = join(stateDir, 'last-test-run.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { checked?: string[]; fingerprint: string }) : undefined;
}

/** Waits until the whole suite has run for the current state (the server idle again). */
async function idle(client: Client, stateDir: string): Promise<void> {
  for (;;) {
    const stop = await client.callTool({ name: '_Stop', arguments: {} });
    const s = stop.structuredContent as { running?: boolean; stale?: boolean } | undefined;
    if (s && !s.running && !s.stale && !lastRun(stateDir)?.checked) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function runTestsBench(): Promise<string[]> {
  const tmp = tempDir('sprout-bench-tests-');
  const root = join(tmp.dir, 'repo');
  const stateDir = join(tmp.dir, 'state');
  mkdirSync(root);
  workspace(root);
  const bundle = resolve(__dirname, '..', '..', 'dist', 'servers', 'tests.js');
  const transport = new StdioClientTransport({ command: process.execPath, args: [bundle, '--root', root, '--state-dir', stateDir, '--watch', 'off', '--hook-budget-ms', '600000'], stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const affected: number[] = [];
  const whole: number[] = [];
  let checked: string[] | undefined;
  try {
    await client.callTool({ name: 'run_tests', arguments: {} }, undefined, { timeout: 600_000 });
    for (let i = 0; i < ITERATIONS; i++) {
      await idle(client, stateDir);
      const start = performance.now();
      writeFileSync(join(root, 'packages', 'p3', 'value.js'), `module.exports = 1; // edit ${i}\n`);
      await client.callTool({ name: '_PostToolUse', arguments: {}, _meta: { 'sprout/hook': { event: '_PostToolUse', toolName: 'edit_file' } } });
      await client.callTool({ name: '_Stop', arguments: {} }, undefined, { timeout: 600_000 });
      affected.push(performance.now() - start);
      checked = lastRun(stateDir)?.checked ?? checked;
      await idle(client, stateDir);
      const wholeStart = performance.now();
      execFileSync('npm', ['test'], { cwd: root, stdio: 'ignore' });
      whole.push(performance.now() - wholeStart);
    }
  } finally {
    await client.close();
    tmp.remove();
  }
  const a = median(affected);
  const w = median(whole);
  return [
    `tests server, ${PACKAGES}-package npm workspace, one package edited (${ITERATIONS} runs each, interleaved, medians)`,
    `  _Stop answer after the edit (checked: ${checked?.join(', ') ?? 'all'}): ${(a / 1000).toFixed(2)} s`,
    `  the whole root script (npm test --workspaces): ${(w / 1000).toFixed(2)} s`,
    `  the affected-package answer is ${(w / a).toFixed(1)}x sooner (target: at least 3x)`,
  ];
}

if (require.main === module) {
  runTestsBench()
    .then((lines) => process.stdout.write(`${lines.join('\n')}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
