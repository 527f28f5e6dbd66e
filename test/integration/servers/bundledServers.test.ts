// The bundled servers as they ship: each bundle starts standalone and lists its tools; --help prints
// its usage and exits 0; an unknown option or a flag without a value exits 2 naming it, with the usage.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT, startServer, type ServerProcess } from './serverProcess';

// The same esbuild settings as esbuild.mjs, built into a temp folder so this test checks the bytes
// that ship without racing other parts' builds of dist/.
describe('bundled servers (esbuild output, run as `node <bundle>`)', () => {
  let base: string;
  const servers: ServerProcess[] = [];

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'sprout-bundle-'));
    await esbuild.build({
      entryPoints: ['workspace', 'todo', 'tests'].map((name) => ({ in: resolve(REPO_ROOT, 'src/servers', name, 'main.ts'), out: name })),
      outdir: join(base, 'servers'),
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      logLevel: 'silent',
      banner: { js: '#!/usr/bin/env node' },
    });
  });
  after(async () => {
    for (const server of servers) await server.close().catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  });

  for (const [name, expected] of [
    ['workspace', ['edit_file', 'list_files', 'read_file', 'run_command', 'search_text', 'write_file']],
    ['todo', ['_PostCompact', '_SessionStart', '_Stop', 'todo']],
    ['tests', ['_PostToolUse', '_Stop', 'run_tests']],
  ] as const) {
    it(`${name}: the bundle starts standalone, lists its tools, and does not claim its fixed list can change`, async () => {
      const script = join(base, 'servers', `${name}.js`);
      assert.ok(statSync(script).size > 0);
      const server = await startServer(name, ['--root', base, '--state-dir', join(base, `${name}-state`)], script);
      servers.push(server);
      const { tools } = await server.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...expected]);
      assert.notEqual(server.client.getServerCapabilities()?.tools?.listChanged, true);
    });

    it(`${name}: --help prints the usage (exit 0); unknown options and missing values exit 2 with it`, () => {
      const script = join(base, 'servers', `${name}.js`);
      const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: base, encoding: 'utf8', input: '', timeout: 20_000 });
      for (const flag of ['--help', '-h']) {
        const help = run(flag);
        assert.equal(help.status, 0, help.stderr);
        assert.match(help.stdout, new RegExp(`^Usage: sprout-mcp-${name} \\[--root DIR\\] \\[--state-dir DIR\\]`));
        assert.equal(help.stderr, '');
      }
      const cases: Array<[string[], RegExp]> = [
        [['--frobnicate', 'x'], /unknown option --frobnicate/],
        [['--rot=/tmp'], /unknown option --rot/],
        [['--root'], /option --root needs a value/],
        [['stray'], /unexpected argument "stray"/],
      ];
      for (const [args, pattern] of cases) {
        const result = run(...args);
        assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, new RegExp(`^sprout-mcp-${name}: `));
        assert.match(result.stderr, pattern);
        assert.match(result.stderr, /Usage: sprout-mcp-/);
        assert.equal(result.stdout, '', 'stdout belongs to the protocol');
      }
    });
  }

  it('tests: its own options are accepted, and checked', () => {
    const script = join(base, 'servers', 'tests.js');
    const bad = spawnSync(process.execPath, [script, '--root', base, '--timeout-ms', 'soon'], { encoding: 'utf8', input: '', timeout: 20_000 });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--timeout-ms must be a positive integer, got "soon"/);
  });
});
