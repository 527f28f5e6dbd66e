// The hook bridge end to end with real MCP hook servers (child processes), the built CLI and an agent
// process that runs the installed command hooks the way agents do: install writes what the servers'
// hooks need and nothing of the user's is lost; the _Stop budget stops an always-objecting server; the
// hook host keeps a server (and its in-memory state) between events and goes with the last agent;
// without a host every event starts the servers afresh; a hung server fails open and is killed; what
// reaches the agent is inert, whatever the hook or the host answered.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { HOOK_OUTPUT_PREAMBLE } from '../../../src/agentHooks/agentFormat';
import { ensureBuilt, runCli } from '../cli/cliHarness';
import { alive, claudePayload, openBridgeRig, until, type BridgeRig } from './bridgeHarness';

let rig: BridgeRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const block = (stdout: string): { decision?: string; reason?: string; systemMessage?: string } => (stdout.trim() === '' ? {} : JSON.parse(stdout));

describe('sprout-agent hooks install / uninstall', () => {
  it('writes the events the servers\' hooks need beside the user\'s own, is idempotent, and uninstall takes them back out', async () => {
    rig = await openBridgeRig([{ name: 'gate', config: { hooks: { _Stop: { kind: 'empty' } } } }]);
    const settings = join(rig.workspace, '.claude', 'settings.json');
    const own = { hooks: { Stop: [{ hooks: [{ type: 'command', command: './lint.sh' }] }] }, model: 'x' };
    await import('node:fs').then((fs) => fs.mkdirSync(join(rig?.workspace ?? '', '.claude')));
    writeFileSync(settings, JSON.stringify(own, null, 2));
    const first = await rig.install('claude');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /\+ Stop: .*hooks run --agent claude Stop/);
    assert.match(first.stdout, /Claude Code gets: PostToolUse -> _PostToolUse, Stop -> _Stop, SessionEnd -> _SessionEnd/);
    const json = JSON.parse(readFileSync(settings, 'utf8'));
    assert.deepEqual(json.hooks.Stop[0], own.hooks.Stop[0], 'the user\'s hook is kept, first');
    assert.equal(json.model, 'x');
    assert.match(rig.commandFor('claude', 'Stop'), /^\/\S+ \/\S+\/dist\/cli\.js hooks run --agent claude Stop --cwd \S+ --mcp-config \S+ --hook-servers gate$/, 'absolute paths: it works from any folder');
    const again = await rig.install('claude');
    assert.match(again.stdout, /already says this; nothing to change/);
    const { runCli } = await import('../cli/cliHarness');
    const check = await runCli(['hooks', 'check', '--agent', 'claude', '--cwd', rig.workspace, '--mcp-config', rig.mcpConfig], { env: { ...rig.env, MCP_HOOK_SERVERS: 'gate' }, timeoutMs: 120_000 });
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /Claude Code: hooks install would give it PostToolUse -> _PostToolUse, Stop -> _Stop, SessionEnd -> _SessionEnd\n {2}\S+\/\.claude\/settings\.json: Stop, PostToolUse, SessionEnd\n/);
    const removed = await runCli(['hooks', 'uninstall', '--agent', 'claude', '--yes', '--cwd', rig.workspace], { env: rig.env, timeoutMs: 60_000 });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(JSON.parse(readFileSync(settings, 'utf8')), own);
  });

  it('says what the agent needs before it runs the hook, and refuses to write without --yes when it cannot ask', async () => {
    rig = await openBridgeRig([{ name: 'gate', config: { hooks: { _Stop: { kind: 'empty' } } } }]);
    const codex = await rig.install('codex');
    assert.match(codex.stdout, /--dangerously-bypass-hook-trust/);
    assert.match(codex.stdout, /`hooks = true` under `\[features\]`/);
    const { runCli } = await import('../cli/cliHarness');
    const asked = await runCli(['hooks', 'install', '--agent', 'gemini', '--cwd', rig.workspace, '--mcp-config', rig.mcpConfig, '--hook-servers', 'gate'], { env: rig.env, timeoutMs: 120_000 });
    assert.equal(asked.code, 2);
    assert.match(asked.stderr, /not writing without --yes/);
    assert.equal(existsSync(join(rig.workspace, '.gemini', 'settings.json')), false);
  });
});

describe('sprout-agent hooks install: configuration errors and warnings', () => {
  it('a malformed settings file exits 2 naming it and what to do, before any server starts, and is left as it was', async () => {
    rig = await openBridgeRig([{ name: 'gate', config: { hooks: { _Stop: { kind: 'empty' } } } }]);
    const settings = join(rig.workspace, '.claude', 'settings.json');
    mkdirSync(join(rig.workspace, '.claude'));
    const broken = '{ "hooks": { "Stop": [ }\n';
    writeFileSync(settings, broken);
    const result = await rig.install('claude');
    assert.equal(result.code, 2, result.stderr);
    assert.ok(result.stderr.includes(`${settings} is not valid JSON`), result.stderr);
    assert.match(result.stderr, /Fix it, or add the entries by hand/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'one message, no stack trace');
    assert.equal(readFileSync(settings, 'utf8'), broken);
    assert.equal(rig.serverPids('gate').length, 0, 'no server started for a file that cannot be changed');
    const notObject = await (writeFileSync(settings, '[1, 2]'), rig.install('claude'));
    assert.equal(notObject.code, 2, notObject.stderr);
    assert.ok(notObject.stderr.includes(`${settings} is not a JSON object`), notObject.stderr);
  });

  it('--user with --trust-workspace warns that the hook trusts every folder, and says what to do instead', async () => {
    rig = await openBridgeRig([{ name: 'gate', config: { hooks: { _Stop: { kind: 'empty' } } } }]);
    const trusting = await rig.install('claude', ['--user', '--trust-workspace', '--dry-run']);
    assert.equal(trusting.code, 0, trusting.stderr);
    assert.match(trusting.stderr, /warning: with --user and --trust-workspace the installed hook trusts every folder/);
    assert.match(trusting.stderr, /Install it per workspace instead \(without --user\)/);
    const workspaceOnly = await rig.install('claude', ['--trust-workspace', '--dry-run']);
    assert.equal(workspaceOnly.code, 0, workspaceOnly.stderr);
    assert.doesNotMatch(workspaceOnly.stderr, /trusts every folder/, 'one workspace trusted on purpose: no warning');
  });
});

describe('sprout-agent hooks run', () => {
  it('an always-objecting server is stopped by the budget; the host keeps it warm and goes with the agent', async () => {
    // No state file: the objection count lives only in the server's memory.
    rig = await openBridgeRig([{ name: 'nag', config: { hooks: { _Stop: { kind: 'object', text: 'not done {n}' } } } }]);
    assert.equal((await rig.install('claude')).code, 0);
    const installed = rig.serverPids('nag').length;
    const ws = rig.workspace;
    const stop = (active: boolean) => ({ event: 'Stop', payload: claudePayload('Stop', 's1', ws, { stop_hook_active: active }) });
    const work = { event: 'PostToolUse', payload: claudePayload('PostToolUse', 's1', ws) };
    const answers = await rig.runAgent([stop(false), work, stop(true), work, stop(true), work, stop(true), { event: 'SessionEnd', payload: claudePayload('SessionEnd', 's1', ws) }]);
    assert.deepEqual(answers.map((a) => a.exitCode), [0, 0, 0, 0, 0, 0, 0, 0], answers.map((a) => a.stderr).join('\n'));
    const stops = [0, 2, 4].map((i) => block(answers[i]?.stdout ?? ''));
    assert.deepEqual(stops.map((s) => s.decision), ['block', 'block', 'block']);
    assert.deepEqual(stops.map((s) => JSON.parse(s.reason?.split('\n')[1] ?? '{}').text), ['not done 1', 'not done 2', 'not done 3'], 'one server, warm in the host, counting in memory');
    assert.ok(stops.every((s) => s.reason?.startsWith(HOOK_OUTPUT_PREAMBLE)), 'the model is told this is hook output, not the user');
    const verdict = block(answers[6]?.stdout ?? '');
    assert.equal(verdict.decision, undefined, 'the budget is spent: the agent may stop');
    assert.match(verdict.systemMessage ?? '', /unresolved \(the objection budget is spent\)[\s\S]*nag: not done 4/);
    assert.equal(rig.serverPids('nag').length - installed, 1, 'started once for the whole session');
    const pid = rig.serverPids('nag').at(-1) ?? 0;
    await until(() => !alive(pid), 'the hook host to close the server once the agent is gone');
    await until(() => !existsSync(join(rig?.env.XDG_STATE_HOME ?? '', 'sprout-agent', 'hook-host', 'host.sock')), 'the host to remove its socket');
  });

  // Claude Code's SubagentStop (code.claude.com/docs/en/hooks#subagentstop: the Stop fields plus
  // agent_id and agent_type) is _SubagentStop: the same gate, that subagent's own budget and decline.
  it('Claude Code\'s SubagentStop: installed, objected once, then a decline ends with the verdict; the session\'s Stop is untouched', async () => {
    rig = await openBridgeRig([{ name: 'sub', config: { hooks: { _SubagentStop: { kind: 'object', text: 'subagent not done {n}' }, _Stop: { kind: 'empty' } } } }]);
    assert.equal((await rig.install('claude')).code, 0);
    assert.match(rig.commandFor('claude', 'SubagentStop'), /hooks run --agent claude SubagentStop/);
    const ws = rig.workspace;
    const subStop = (active: boolean) => ({ event: 'SubagentStop', payload: claudePayload('Stop', 's9', ws, { hook_event_name: 'SubagentStop', stop_hook_active: active, agent_id: 'a1', agent_type: 'reviewer', last_assistant_message: 'found nothing' }) });
    const answers = await rig.runAgent([subStop(false), subStop(true), { event: 'Stop', payload: claudePayload('Stop', 's9', ws) }]);
    assert.deepEqual(answers.map((a) => a.exitCode), [0, 0, 0], answers.map((a) => a.stderr).join('\n'));
    const [objected, verdict, stop] = answers.map((a) => block(a.stdout));
    assert.equal(objected?.decision, 'block');
    assert.deepEqual(JSON.parse(objected?.reason?.split('\n')[1] ?? '{}'), { hook: '_SubagentStop', server: 'sub', text: 'subagent not done 1' });
    assert.equal(verdict?.decision, undefined, 'the subagent ended again right after the objection: declined, the verdict never continues');
    assert.match(verdict?.systemMessage ?? '', /unresolved \(the agent finished without acting on it\)[\s\S]*sub: subagent not done 2/);
    assert.equal(stop?.decision, undefined, 'the session\'s own Stop has its own gate');
    assert.equal(rig.calls('sub', '_SubagentStop'), 2);
    assert.equal(rig.calls('sub', '_Stop'), 1);
  });

  it('without a host every event starts the servers afresh: in-memory state is lost', async () => {
    rig = await openBridgeRig([{ name: 'nag', config: { hooks: { _Stop: { kind: 'object', text: 'not done {n}' } } } }]);
    assert.equal((await rig.install('claude')).code, 0);
    const installed = rig.serverPids('nag').length;
    const ws = rig.workspace;
    const answers = await rig.runAgent(
      [
        { event: 'Stop', payload: claudePayload('Stop', 's2', ws) },
        { event: 'PostToolUse', payload: claudePayload('PostToolUse', 's2', ws) },
        { event: 'Stop', payload: claudePayload('Stop', 's2', ws, { stop_hook_active: true }) },
      ],
      { SPROUT_AGENT_HOOK_HOST: 'off' },
    );
    assert.deepEqual([0, 2].map((i) => JSON.parse(block(answers[i]?.stdout ?? '').reason?.split('\n')[1] ?? '{}').text), ['not done 1', 'not done 1']);
    assert.equal(rig.serverPids('nag').length - installed, 3, 'one start per event');
    assert.equal(existsSync(join(rig.env.XDG_STATE_HOME ?? '', 'sprout-agent', 'hook-host', 'host.sock')), false, 'no host was started');
  });

  it('a hung server fails open within the hook timeout, and its second timeout in a row kills it', async () => {
    rig = await openBridgeRig([{ name: 'stuck', config: { hooks: { _Stop: { kind: 'hang' } } } }]);
    assert.equal((await rig.install('claude')).code, 0);
    const ws = rig.workspace;
    const stop = { event: 'Stop', payload: claudePayload('Stop', 's3', ws), after: rig.newestServerAlive('stuck') };
    const answers = await rig.runAgent([stop, stop], { SPROUT_AGENT_HOOK_TIMEOUT_MS: '400' });
    assert.deepEqual(answers.map((a) => [a.exitCode, a.stdout]), [[0, ''], [0, '']], 'no objection: a timeout has no effect');
    assert.deepEqual(answers.map((a) => a.after), ['alive', 'dead'], 'the first timeout leaves the server up; the second in a row kills it before the agent hears back');
    assert.equal(rig.calls('stuck', '_Stop'), 2);
  });

  it('a hook\'s text reaches the agent inert: no escape sequence, in the JSON or decoded from it', async () => {
    // OSC 52 (write the clipboard), a screen clear, an 8-bit CSI and a direction override.
    const attack = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007\u001b[2J\u009b1A\u202e';
    rig = await openBridgeRig([{ name: 'nag', config: { hooks: { _Stop: { kind: 'object', text: `not ${attack}done {n}` } } } }]);
    assert.equal((await rig.install('claude')).code, 0);
    const ws = rig.workspace;
    const stop = (active: boolean) => ({ event: 'Stop', payload: claudePayload('Stop', 's5', ws, { stop_hook_active: active }) });
    const work = { event: 'PostToolUse', payload: claudePayload('PostToolUse', 's5', ws) };
    // Three objections, then the verdict once the budget is spent, which quotes the hook in plain text.
    const answers = await rig.runAgent([stop(false), work, stop(true), work, stop(true), work, stop(true)]);
    // eslint-disable-next-line no-control-regex
    const obeyed = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    for (const answer of answers) assert.doesNotMatch(`${answer.stdout}${answer.stderr}`, obeyed, 'nothing raw on the agent\'s streams');
    const shown = [0, 2, 4, 6].map((i) => block(answers[i]?.stdout ?? ''));
    for (const text of shown.flatMap((s) => [s.reason ?? '', s.systemMessage ?? ''])) assert.doesNotMatch(text, obeyed, 'nor in the text the agent decodes and shows');
    assert.match(shown[3]?.systemMessage ?? '', /nag: not .*done 4/, 'the hook\'s words are kept');
  });

  it('what a hook host answers reaches the agent inert even from a host that did not neutralise it (of another version)', async () => {
    await ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'sprout-foreign-host-'));
    const hostDir = join(dir, 'state', 'sprout-agent', 'hook-host');
    mkdirSync(hostDir, { recursive: true, mode: 0o700 });
    const attack = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007\u001b[2J\u009b1A\u202e';
    const answer = { stdout: JSON.stringify({ decision: 'block', reason: `not ${attack}done` }), stderr: `host says ${attack}\n`, exitCode: 0 };
    const host = createServer((socket) => socket.once('data', () => socket.end(`${JSON.stringify(answer)}\n`)));
    await new Promise<void>((resolve) => host.listen(join(hostDir, 'host.sock'), resolve));
    try {
      const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_STATE_HOME: join(dir, 'state') };
      const result = await runCli(['hooks', 'run', '--agent', 'claude', 'Stop'], { env, cwd: dir, input: JSON.stringify(claudePayload('Stop', 'f1', dir)), timeoutMs: 60_000 });
      assert.equal(result.code, 0, result.stderr);
      // eslint-disable-next-line no-control-regex
      const obeyed = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
      assert.doesNotMatch(`${result.stdout}${result.stderr}`, obeyed, 'nothing raw on the agent\'s streams');
      const shown = block(result.stdout).reason ?? '';
      assert.doesNotMatch(shown, obeyed, 'nor in the text the agent decodes and shows');
      assert.match(shown, /^not .*done$/);
      assert.match(result.stderr, /^host says /);
    } finally {
      await new Promise((resolve) => host.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad input fails the hook, never blocks the agent: exit 1 with what to fix', async () => {
    rig = await openBridgeRig([{ name: 'gate', config: { hooks: { _Stop: { kind: 'empty' } } } }]);
    assert.equal((await rig.install('claude')).code, 0);
    const answers = await rig.runAgent([{ event: 'Stop', payload: { cwd: rig.workspace, hook_event_name: 'Stop' } }]);
    assert.equal(answers[0]?.exitCode, 1);
    assert.match(answers[0]?.stderr ?? '', /claude Stop payload: session_id/);
  });
});
