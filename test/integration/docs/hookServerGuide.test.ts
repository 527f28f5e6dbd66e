// docs/hook-server-guide.md is checked by running it: the TypeScript and the Python hook servers are
// extracted from the guide exactly as printed (its ```<lang> file=NAME blocks) and driven through the
// real CLI against the fake model. With an open checklist item `_Stop` objects (exit 4 when the model
// declines), with every item ticked the turn ends normally (exit 0), the hook never reaches the
// model's tool list, the server sees `_meta["sprout/hook"]`, the TypeScript one type-checks, and the
// guide's config file is valid.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, afterEach, before, describe, it } from 'node:test';
import { loadMcpConfigFile } from '../../../src/mcp/config';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, ensureBuilt, outcomeOf, parseEvents, REPO_ROOT, runCli, writeMcpConfig } from '../cli/cliHarness';

const GUIDE = join(REPO_ROOT, 'docs', 'hook-server-guide.md');

/** The guide's file blocks: ```<lang> file=<name> ... ``` */
export function guideFiles(markdown: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const match of markdown.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)) files.set(match[1] ?? '', match[2] ?? '');
  return files;
}

let fake: FakeOpenAi | undefined;
let files: Map<string, string>;
let code: string;
let workspace: string;
before(async () => {
  await ensureBuilt();
  files = guideFiles(readFileSync(GUIDE, 'utf8'));
  // Inside the checkout, so the TypeScript server resolves @modelcontextprotocol/sdk like a user's project would.
  mkdirSync(join(REPO_ROOT, 'test-results'), { recursive: true });
  code = mkdtempSync(join(REPO_ROOT, 'test-results', 'hook-guide-'));
  workspace = mkdtempSync(join(tmpdir(), 'sprout-hook-guide-ws-'));
  for (const name of ['checklist-hook.ts', 'checklist_hook.py']) writeFileSync(join(code, name), files.get(name) ?? '');
});
after(() => {
  rmSync(code, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function serverConfig(name: string): { command: string; args: string[] } {
  if (name === 'checklist') return { command: process.execPath, args: ['--import', pathToFileURL(require.resolve('tsx')).href, join(code, 'checklist-hook.ts'), workspace] };
  return { command: 'python3', args: [join(code, 'checklist_hook.py'), workspace] };
}

describe('docs/hook-server-guide.md', () => {
  it('has both servers, the checklist and the config as file blocks; the config is valid and names the servers\' files', () => {
    for (const name of ['CHECKLIST.md', 'checklist-hook.ts', 'checklist_hook.py', 'hooks.json']) assert.ok((files.get(name) ?? '').trim().length > 0, name);
    const config = join(code, 'hooks.json');
    writeFileSync(config, files.get('hooks.json') ?? '');
    const servers = loadMcpConfigFile(config, { workspaceFolder: workspace, env: {} });
    assert.deepEqual(
      servers.map((s) => [s.name, s.transport.type === 'stdio' ? s.transport.args : []]),
      [
        ['checklist', ['tsx', 'checklist-hook.ts', workspace]],
        ['checklist-py', ['checklist_hook.py', workspace]],
      ],
    );
    assert.equal(spawnSync('python3', ['--version']).status, 0, 'python3 runs the guide\'s Python server');
  });

  it('the TypeScript server type-checks under strict settings against the SDK\'s types', () => {
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'preserve', '--moduleResolution', 'bundler', '--skipLibCheck', '--types', 'node'];
    const result = spawnSync(process.execPath, [tsc, ...args, join(code, 'checklist-hook.ts')], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });

  it('hooks check, as the guide shows it: the checklist server\'s _Stop objects while an item is open, within the timeout (exit 0)', async () => {
    writeFileSync(join(workspace, 'CHECKLIST.md'), files.get('CHECKLIST.md') ?? '');
    const config = writeMcpConfig(join(code, 'check.mcp.json'), [{ name: 'checklist', transport: { type: 'stdio', ...serverConfig('checklist'), env: {} } }]);
    const result = await runCli(['hooks', 'check', '--cwd', workspace, '--mcp-config', config, '--event', 'Stop'], { env: { ...baseEnv('http://127.0.0.1:9/v1'), MCP_HOOK_SERVERS: 'checklist' } });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /checklist: allowlisted\n {2}hooks: _Stop\n {2}_Stop {2}\d+ ms {2}answered within 2500 ms: an objection: the agent would keep working: "CHECKLIST\.md still has open items/);
    assert.match(readFileSync(GUIDE, 'utf8'), /sprout-agent hooks check --mcp-config hooks\.json --event Stop/, 'the guide shows the command this test runs');
  });

  it('the same gate in Claude Code: hooks install as the guide shows it, and the installed Stop hook blocks with the checklist', async () => {
    writeFileSync(join(workspace, 'CHECKLIST.md'), files.get('CHECKLIST.md') ?? '');
    const project = mkdtempSync(join(tmpdir(), 'sprout-hook-guide-agent-'));
    try {
      mkdirSync(join(project, '.vscode'));
      writeFileSync(join(project, '.vscode', 'mcp.json'), JSON.stringify({ servers: { checklist: { type: 'stdio', ...serverConfig('checklist') } } }));
      const env = { PATH: process.env.PATH ?? '', HOME: join(project, 'home'), XDG_STATE_HOME: join(project, 'state'), SPROUT_AGENT_HOOK_HOST: 'off' };
      const shown = /^sprout-agent (hooks install --agent claude [^\n]+)$/m.exec(readFileSync(GUIDE, 'utf8'))?.[1]?.split(' ') ?? [];
      assert.deepEqual(shown, ['hooks', 'install', '--agent', 'claude', '--trust-workspace', '--hook-servers', 'checklist']);
      const installed = await runCli([...shown, '--yes', '--cwd', project], { env, timeoutMs: 120_000 });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /Claude Code gets: PostToolUse -> _PostToolUse, Stop -> _Stop, SessionEnd -> _SessionEnd/);
      const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
      const command = settings.hooks.Stop?.[0]?.hooks[0]?.command ?? '';
      // As Claude Code runs it: through a shell, the Stop payload on stdin.
      const payload = { session_id: 'guide', cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'All done.' };
      const hook = spawnSync('sh', ['-c', command], { cwd: project, env, input: JSON.stringify(payload), encoding: 'utf8', timeout: 120_000 });
      assert.equal(hook.status, 0, hook.stderr);
      const answer = JSON.parse(hook.stdout) as { decision: string; reason: string };
      assert.equal(answer.decision, 'block');
      assert.match(answer.reason, /^Sprout hook output \(from MCP hook servers the operator configured[^\n]*\n\{"hook":"_Stop","server":"checklist","text":"CHECKLIST\.md still has open items/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  for (const name of ['checklist', 'checklist-py']) {
    it(`${name}: objects while an item is open (the model declines: exit 4), and lets the turn end once all are ticked (exit 0)`, async () => {
      writeFileSync(join(workspace, 'CHECKLIST.md'), files.get('CHECKLIST.md') ?? '');
      const config = writeMcpConfig(join(code, `${name}.mcp.json`), [{ name, transport: { type: 'stdio', ...serverConfig(name), env: {} } }]);
      const env = { ...baseEnv(''), MCP_HOOK_SERVERS: name, SPROUT_AGENT_LOG_LEVEL: 'debug' };
      fake = await startFakeOpenAi({ responses: [fakeReply.text('All done.'), fakeReply.text('I am done, really.')] });
      const open = await runCli(['--json', '--cwd', workspace, '--mcp-config', config, 'Add a --verbose flag'], { env: { ...env, OPENAI_BASE_URL: fake.url } });
      assert.equal(open.code, 4, open.stderr);
      const objection = parseEvents(open.stdout).find((e) => e.type === 'hook_objected');
      assert.ok(objection?.type === 'hook_objected', open.stderr);
      assert.equal(objection.server, name);
      assert.equal(objection.text, 'CHECKLIST.md still has open items. Do them, then tick them ([x]):\n- [ ] update CHANGELOG.md');
      assert.equal(outcomeOf(parseEvents(open.stdout))?.unresolved?.cause, 'declined');
      assert.match(open.stderr, /_Stop for session cli-[0-9a-f-]+: 1 open item\(s\)/, 'the server read _meta["sprout/hook"].sessionId');
      const tools = fake.chatRequests().flatMap((r) => ((r.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name));
      assert.ok(!tools.some((t) => t.includes('_Stop')), `the hook is not offered to the model: ${tools.join(', ')}`);
      assertAllRequestsValid(fake.requests);
      await fake.close();

      writeFileSync(join(workspace, 'CHECKLIST.md'), (files.get('CHECKLIST.md') ?? '').replace('- [ ]', '- [x]'));
      fake = await startFakeOpenAi({ responses: [fakeReply.text('All done.')] });
      const ticked = await runCli(['--json', '--cwd', workspace, '--mcp-config', config, 'Add a --verbose flag'], { env: { ...env, OPENAI_BASE_URL: fake.url } });
      assert.equal(ticked.code, 0, ticked.stderr);
      const events = parseEvents(ticked.stdout);
      assert.ok(events.some((e) => e.type === 'hook_finished' && e.server === name && e.result === 'no_objection'), ticked.stderr);
      assert.ok(!events.some((e) => e.type === 'hook_objected'));
    });
  }
});
