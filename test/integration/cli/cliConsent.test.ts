// A repository is attacker-written: running the CLI in a freshly cloned folder must not run the
// folder's own `.vscode/mcp.json` servers. They start only with --trust-workspace,
// SPROUT_AGENT_TRUST_WORKSPACE=1 or an explicit --mcp-config; otherwise the CLI names them and says how
// to enable them, and exits 2 when the hook allowlist needed one. A `.vscode/mcp.json` the agent itself
// wrote during a run is not started by the next run either. The bundled servers stay on beside the
// user's servers, and a name both use is an error naming both.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, objectTimes, readHookServerLog } from '../../fakes/hookServer';
import { baseEnv, outcomeOf, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-consent-');

let repos = 0;
/** A "cloned repository" whose .vscode/mcp.json defines a hook server that logs every start. */
function clonedRepo(serverName = 'repo-hook'): { repo: string; log: string } {
  const repo = join(cli.dir, `repo-${++repos}`);
  const log = join(cli.dir, `repo-${repos}.log`);
  mkdirSync(join(repo, '.vscode'), { recursive: true });
  const config = hookServerConfig({ logFile: log, hooks: { _Stop: objectTimes('planted objection', 1) } });
  writeMcpConfig(join(repo, '.vscode', 'mcp.json'), [hookServerMcpConfig(serverName, config)]);
  return { repo, log };
}

const starts = (log: string): number => readHookServerLog(log).filter((e) => e.type === 'started').length;

describe('CLI consent for a workspace\'s own .vscode/mcp.json', () => {
  it('without an opt-in the repository\'s server does not start; the CLI names it and how to enable it', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('hello')] });
    const { repo, log } = clonedRepo();
    const result = await runCli(['--json', 'hi'], { env: baseEnv(fake.url), cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(starts(log), 0, 'the repository\'s server never ran');
    assert.match(result.stderr, /\.vscode\/mcp\.json defines servers repo-hook, which did not start/);
    assert.match(result.stderr, /--trust-workspace/);
    assert.match(result.stderr, /SPROUT_AGENT_TRUST_WORKSPACE=1/);
    assert.match(result.stderr, /--mcp-config .*\.vscode\/mcp\.json/);
    assert.equal(outcomeOf(parseEvents(result.stdout))?.reason, 'end_turn');
  });

  it('hooks check starts the repository\'s server only with --trust-workspace, and says so without it', async () => {
    const { repo, log } = clonedRepo();
    const env = { ...baseEnv('http://127.0.0.1:9/v1'), MCP_HOOK_SERVERS: 'repo-hook' };
    const refused = await runCli(['hooks', 'check', '--builtin-servers', ''], { env, cwd: repo });
    assert.equal(starts(log), 0, `the repository's server never ran: ${refused.stderr}`);
    assert.match(refused.stderr, /\.vscode\/mcp\.json defines servers repo-hook, which did not start/);
    assert.equal(refused.code, 1, 'nothing was checked, and the allowlist names a server that is not there');
    const trusted = await runCli(['hooks', 'check', '--builtin-servers', '', '--trust-workspace', '--event', 'Stop'], { env, cwd: repo });
    assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
    assert.ok(starts(log) >= 1, 'with the opt-in it started');
    assert.match(trusted.stdout, /repo-hook: allowlisted/);
    assert.doesNotMatch(trusted.stderr, /did not start/);
  });

  it('exits 2 without starting it when the hook allowlist needs that server', async () => {
    const { repo, log } = clonedRepo();
    const result = await runCli(['hi'], { env: { ...baseEnv('http://127.0.0.1:9/v1'), MCP_HOOK_SERVERS: 'repo-hook' }, cwd: repo });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(starts(log), 0);
    assert.match(result.stderr, /MCP_HOOK_SERVERS names repo-hook, defined in .*\.vscode\/mcp\.json, which does not start unless you opt in/);
    assert.match(result.stderr, /--trust-workspace/);
  });

  for (const [label, args, env] of [
    ['--trust-workspace', ['--trust-workspace'], {}],
    ['SPROUT_AGENT_TRUST_WORKSPACE=1', [], { SPROUT_AGENT_TRUST_WORKSPACE: '1' }],
    ['--mcp-config .vscode/mcp.json', ['--mcp-config', '.vscode/mcp.json'], {}],
  ] as const) {
    it(`starts it with ${label}, hooks included`, async () => {
      const fake = await cli.startFake({ responses: [fakeReply.text('done'), fakeReply.text('done, really')] });
      const { repo, log } = clonedRepo();
      const result = await runCli(['--json', ...args, 'hi'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'repo-hook', ...env }, cwd: repo });
      assert.ok(starts(log) >= 1, `the server started: ${result.stderr}`);
      assert.ok(parseEvents(result.stdout).some((e) => e.type === 'hook_objected' && e.server === 'repo-hook'));
      assert.doesNotMatch(result.stderr, /did not start/);
    });
  }

  it('--trust-workspace adds the workspace\'s servers to those of --mcp-config; a name both define is an error naming both files', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('done'), fakeReply.text('done, really')] });
    const { repo, log } = clonedRepo();
    const extra = writeMcpConfig(join(cli.dir, 'extra.mcp.json'), [hookServerMcpConfig('extra', hookServerConfig({}))]);
    const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'repo-hook' };
    const both = await runCli(['--json', '--mcp-config', extra, '--trust-workspace', 'hi'], { env, cwd: repo });
    assert.ok(starts(log) >= 1, both.stderr);
    const tools = (fake.chatRequests()[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools?.map((t) => t.function.name) ?? [];
    assert.ok(tools.includes('extra__echo') && tools.includes('repo-hook__echo'), tools.join(', '));
    const same = writeMcpConfig(join(cli.dir, 'same.mcp.json'), [hookServerMcpConfig('repo-hook', hookServerConfig({}))]);
    const clash = await runCli(['--mcp-config', same, '--trust-workspace', 'hi'], { env, cwd: repo });
    assert.equal(clash.code, 2);
    assert.match(clash.stderr, /MCP server "repo-hook" is defined in both .*same\.mcp\.json and .*\.vscode\/mcp\.json/);
  });

  it('SPROUT_AGENT_TRUST_WORKSPACE with a bad value exits 2 naming it', async () => {
    const { repo, log } = clonedRepo();
    const result = await runCli(['hi'], { env: { ...baseEnv('http://127.0.0.1:9/v1'), SPROUT_AGENT_TRUST_WORKSPACE: 'perhaps' }, cwd: repo });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /SPROUT_AGENT_TRUST_WORKSPACE/);
    assert.equal(starts(log), 0);
  });

  it('a .vscode/mcp.json the agent wrote during a run is not started by the next run', async () => {
    const repo = join(cli.dir, 'agent-writes');
    mkdirSync(repo, { recursive: true });
    const marker = join(cli.dir, 'planted-server-ran');
    const planted = join(cli.dir, 'planted.js');
    writeFileSync(planted, `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    const plantedConfig = JSON.stringify({ servers: { planted: { command: process.execPath, args: [planted] } } });
    const command = `mkdir -p .vscode && printf '%s' '${plantedConfig}' > .vscode/mcp.json`;
    const fake = await cli.startFake({
      responses: [fakeReply.toolCalls([{ name: 'workspace__run_command', arguments: { command } }]), fakeReply.text('planted'), fakeReply.text('second run')],
    });
    const env = { ...baseEnv(fake.url), SPROUT_AGENT_BUILTIN_SERVERS: 'workspace' };
    const first = await runCli(['--json', 'set things up'], { env, cwd: repo });
    assert.equal(first.code, 0, first.stderr);
    assert.ok(existsSync(join(repo, '.vscode', 'mcp.json')), 'the agent wrote .vscode/mcp.json');
    const second = await runCli(['--json', 'carry on'], { env, cwd: repo });
    assert.equal(second.code, 0, second.stderr);
    assert.ok(!existsSync(marker), 'the planted server never ran');
    assert.match(second.stderr, /defines servers planted, which did not start/);
  });
});

describe('bundled servers beside the user\'s servers', () => {
  it('stay on when an MCP config is in use: the README\'s MCP_HOOK_SERVERS=todo works next to --mcp-config', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('done')] });
    const folder = join(cli.dir, 'beside');
    mkdirSync(folder, { recursive: true });
    const config = writeMcpConfig(join(folder, 'mcp.json'), [hookServerMcpConfig('mine', hookServerConfig({}))]);
    const env = { ...baseEnv(fake.url), SPROUT_AGENT_BUILTIN_SERVERS: undefined, MCP_HOOK_SERVERS: 'todo' };
    const result = await runCli(['--json', '--mcp-config', config, 'hi'], { env, cwd: folder });
    assert.equal(result.code, 0, result.stderr);
    const tools = (fake.chatRequests()[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools?.map((t) => t.function.name) ?? [];
    assert.ok(tools.includes('mine__echo'), tools.join(', '));
    assert.ok(tools.some((t) => t.startsWith('workspace__')), tools.join(', '));
    assert.ok(tools.some((t) => t.startsWith('todo__')), tools.join(', '));
  });

  it('a configured server with a bundled server\'s name is an error naming both', async () => {
    const folder = join(cli.dir, 'clash');
    mkdirSync(folder, { recursive: true });
    const config = writeMcpConfig(join(folder, 'mcp.json'), [hookServerMcpConfig('todo', hookServerConfig({}))]);
    const env = { ...baseEnv('http://127.0.0.1:9/v1'), SPROUT_AGENT_BUILTIN_SERVERS: undefined };
    const result = await runCli(['--mcp-config', config, 'hi'], { env, cwd: folder });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /MCP server "todo" in .*mcp\.json has the same name as the bundled server "todo"/);
    assert.match(result.stderr, /--builtin-servers "workspace"/);
    const fake = await cli.startFake({ responses: [fakeReply.text('done')] });
    const without = await runCli(['--mcp-config', config, '--builtin-servers', 'workspace', 'hi'], { env: { ...env, OPENAI_BASE_URL: fake.url }, cwd: folder });
    assert.equal(without.code, 0, `with the bundled todo off there is no clash: ${without.stderr}`);
  });
});
