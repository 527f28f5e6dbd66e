/**
 * McpHub against real FakeHookServer child processes: listing (pagination, order, hooks, bad names),
 * calls (_meta, flattening), list_changed, minimal env, and start failures.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, afterEach, before, describe, it } from 'node:test';
import type { ToolHostEvent } from '../../../src/agent/ports';
import { McpHub } from '../../../src/mcp/mcpHub';
import { HOSTILE_TEXT, hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../../fakes/hookServer';
import { isAlive, makeTempDir, signal, waitFor } from './mcpHarness';

const tmp = makeTempDir();
after(() => tmp.remove());

let hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  hubs = [];
});

function newHub(...args: ConstructorParameters<typeof McpHub>): { hub: McpHub; events: ToolHostEvent[] } {
  const hub = new McpHub(...args);
  hubs.push(hub);
  const events: ToolHostEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { hub, events };
}

describe('McpHub listing and calls', () => {
  const log = tmp.file('tools.jsonl');
  let hub: McpHub;
  let events: ToolHostEvent[];

  before(() => {
    events = [];
    hub = new McpHub(
      [
        hookServerMcpConfig(
          'alpha',
          hookServerConfig({
            logFile: log,
            hooks: { _Stop: { kind: 'object', text: 'finish the tests' }, _PostCompact: { kind: 'image', bytes: 4321 } },
            extraTools: [
              { name: 'big', behaviour: { kind: 'bigText' }, annotations: { readOnlyHint: true, title: 'Big' } },
              { name: 'fails', behaviour: { kind: 'isError', text: 'boom' } },
              { name: 'hostile', behaviour: { kind: 'hostile' } },
              { name: 'blank', behaviour: { kind: 'whitespace' } },
              { name: 'late', behaviour: { kind: 'delay', ms: 50, text: 'late' } },
              { name: 'nothing', behaviour: { kind: 'empty' } },
            ],
            // Names a provider would refuse are kept (the model layer sends an alias); only a control character is refused.
            invalidToolNames: ['has space', 'a__b', 'bell\u0007'],
            manyTools: 25,
            pageSize: 4,
          }),
        ),
        hookServerMcpConfig('beta', hookServerConfig({ echo: true })),
      ],
      { clientName: 'sprout-test' },
    );
    hub.subscribe((event) => events.push(event));
  });
  after(() => hub.close());

  it('lists every page in configuration order, flags hooks, keeps names a provider would refuse and reports unusable ones', async () => {
    const tools = await hub.listTools();
    const names = tools.map((t) => t.qualifiedName);
    assert.deepEqual(names.slice(0, 9), [
      'alpha__echo',
      'alpha___Stop',
      'alpha___PostCompact',
      'alpha__big',
      'alpha__fails',
      'alpha__hostile',
      'alpha__blank',
      'alpha__late',
      'alpha__nothing',
    ]);
    assert.equal(names.filter((n) => n.startsWith('alpha__tool_')).length, 25, 'all 25 paginated tools arrive');
    assert.equal(names.at(-1), 'beta__echo');
    assert.deepEqual(
      tools.filter((t) => t.isHook).map((t) => t.bareName),
      ['_Stop', '_PostCompact'],
    );
    assert.deepEqual(tools.find((t) => t.bareName === 'big')?.annotations, { readOnlyHint: true, title: 'Big' });
    const errors = events.filter((e) => e.type === 'server_error').map((e) => (e as { message: string }).message);
    assert.ok(names.includes('alpha__has space') && names.includes('alpha__a__b'), names.join(', '));
    assert.ok(errors.some((m) => m.includes('"alpha"') && m.includes('"bell\\u0007"')), errors.join('\n'));
    assert.equal(errors.length, 1, errors.join('\n'));
    const status = hub.status();
    assert.deepEqual(status.map((s) => [s.name, s.state, s.toolCount]), [
      ['alpha', 'ready', 36],
      ['beta', 'ready', 1],
    ]);
    assert.deepEqual(status[0]?.hooks, ['_Stop', '_PostCompact']);
  });

  it('passes _meta as the request _meta (plus a progress token) and arguments unchanged', async () => {
    const meta = { 'sprout/hook': { event: '_Stop', sessionId: 's1', rejectionsUsed: 0, rejectionBudget: 3, afterObjection: false } };
    const result = await hub.callTool('alpha', '_Stop', {}, { signal: signal(), meta });
    assert.deepEqual(result, { isError: false, text: 'finish the tests' });
    const call = readHookServerLog(log).find((e) => e.type === 'call' && e.tool === '_Stop');
    assert.deepEqual(call?.arguments, {});
    const { progressToken, ...rest } = (call?.meta ?? {}) as Record<string, unknown>;
    assert.deepEqual(rest, meta);
    assert.ok(typeof progressToken === 'number' || typeof progressToken === 'string', 'every tools/call carries a progress token');
  });

  it('flattens images, 100 KB text, isError and hostile text', async () => {
    const call = (tool: string) => hub.callTool('alpha', tool, {}, { signal: signal() });
    const image = await call('_PostCompact');
    assert.equal(image.text, '[image: image/png, 4321 bytes]');
    assert.deepEqual(
      image.images?.map((i) => [i.mimeType, Buffer.from(i.data, 'base64').length]),
      [['image/png', 4321]],
      'the image block travels beside its description, for the core to check',
    );
    const big = await call('big');
    assert.equal(big.text.length, 100 * 1024);
    assert.deepEqual(await call('fails'), { isError: true, text: 'boom' });
    assert.deepEqual(await call('hostile'), { isError: false, text: HOSTILE_TEXT });
    assert.deepEqual(await call('blank'), { isError: false, text: '  \n\t  \n' });
    assert.deepEqual(await call('late'), { isError: false, text: 'late' });
    assert.deepEqual(await call('nothing'), { isError: false, text: '' });
    assert.deepEqual(await hub.callTool('beta', 'echo', { text: 'hi "there"\n' }, { signal: signal() }), { isError: false, text: 'hi "there"\n' });
  });

  it('turns a protocol error into an error result and an unknown server into a rejection', async () => {
    const result = await hub.callTool('alpha', 'no_such_tool', {}, { signal: signal() });
    assert.equal(result.isError, true);
    await assert.rejects(hub.callTool('gamma', 'echo', {}, { signal: signal() }), /unknown MCP server "gamma"/);
  });
});

describe('McpHub environment, list changes and failures', () => {
  it('gives stdio servers a minimal env: parent secrets never arrive, configured env does', async () => {
    const config = hookServerMcpConfig('envy', hookServerConfig({ extraTools: [{ name: 'env', behaviour: { kind: 'env' } }] }), {
      env: { CONFIGURED: 'yes' },
    });
    const { hub } = newHub([config], {
      parentEnv: { ...process.env, OPENAI_API_KEY: 'sk-parent-secret', SPROUT_SECRET_THING: 'hush' },
    });
    const env = JSON.parse((await hub.callTool('envy', 'env', {}, { signal: signal() })).text) as Record<string, string>;
    assert.equal(env.CONFIGURED, 'yes');
    assert.equal(env.PATH, process.env.PATH);
    assert.equal(env.OPENAI_API_KEY, undefined);
    assert.equal(env.SPROUT_SECRET_THING, undefined);
    const allowed = /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_.*|TERM|TZ|TMPDIR|TMP|TEMP|CONFIGURED|HOOK_SERVER_CONFIG|SPROUT_AGENT_TAG_[0-9a-f]+)$/;
    // Node itself may add a few variables of its own to its env (e.g. NODE_* set by tsx); none of the parent's.
    // A process-tree tag (processTree.ts) is passed on on purpose: it finds a server's orphans; it holds no secret.
    const leaked = Object.keys(env).filter((k) => !allowed.test(k) && process.env[k] !== undefined && !k.startsWith('TSX'));
    assert.deepEqual(leaked, []);
  });

  it('refetches the tool list on tools/list_changed and emits tools_changed', async () => {
    const { hub, events } = newHub([hookServerMcpConfig('shifty', hookServerConfig({ listChangedAfterCall: true }))]);
    assert.deepEqual((await hub.listTools()).map((t) => t.bareName), ['echo']);
    await hub.callTool('shifty', 'echo', { text: 'x' }, { signal: signal() });
    await waitFor(() => events.some((e) => e.type === 'tools_changed' && e.server === 'shifty'), 'tools_changed');
    assert.deepEqual((await hub.listTools()).map((t) => t.bareName), ['echo', 'added_0']);
  });

  it('answers cachedTools only while every list is at hand: not before a start, not across a change, not after a kill', async () => {
    const { hub, events } = newHub([
      hookServerMcpConfig('steady', hookServerConfig({})),
      hookServerMcpConfig('shifty', hookServerConfig({ listChangedAfterCall: true })),
    ]);
    assert.equal(hub.cachedTools(), undefined, 'nothing started yet: listing must start the servers');
    const listed = await hub.listTools();
    assert.deepEqual(hub.cachedTools(), listed);
    await hub.callTool('shifty', 'echo', { text: 'x' }, { signal: signal() });
    await waitFor(() => events.some((e) => e.type === 'tools_changed'), 'tools_changed');
    assert.deepEqual(hub.cachedTools()?.map((t) => t.qualifiedName), ['steady__echo', 'shifty__echo', 'shifty__added_0']);
    await hub.killServer('steady', 'test');
    assert.equal(hub.cachedTools(), undefined, 'a killed server restarts through listTools');
    assert.deepEqual((await hub.listTools()).map((t) => t.qualifiedName), ['steady__echo', 'shifty__echo', 'shifty__added_0']);
  });

  it('reports a missing command clearly and lists the other servers anyway', async () => {
    const { hub, events } = newHub([
      { name: 'ghost', transport: { type: 'stdio', command: 'sprout-no-such-command-xyz', args: [], env: {} } },
      hookServerMcpConfig('real', hookServerConfig()),
    ]);
    const tools = await hub.listTools();
    assert.deepEqual(tools.map((t) => t.qualifiedName), ['real__echo']);
    const error = events.find((e) => e.type === 'server_error' && e.server === 'ghost') as { message: string } | undefined;
    assert.match(error?.message ?? '', /MCP server "ghost".*"sprout-no-such-command-xyz".*command not found/);
    assert.equal(hub.status()[0]?.state, 'failed');
    await assert.rejects(hub.callTool('ghost', 'x', {}, { signal: signal() }), /ghost/);
  });

  it('reports a command that is not executable as permission denied', async () => {
    const script = tmp.file('not-executable.sh');
    writeFileSync(script, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const { hub, events } = newHub([{ name: 'noexec', transport: { type: 'stdio', command: script, args: [], env: {} } }]);
    assert.deepEqual(await hub.listTools(), []);
    const error = events.find((e) => e.type === 'server_error') as { message: string } | undefined;
    assert.match(error?.message ?? '', /"noexec".*not-executable\.sh.*permission denied/);
  });

  it('reports a server that exits during startup with its exit and stderr', async () => {
    const stderr: string[] = [];
    const { hub, events } = newHub(
      [{ name: 'dies', transport: { type: 'stdio', command: process.execPath, args: ['-e', 'console.error("bad config here"); process.exit(7)'], env: {} } }],
      { onStderr: (server, line) => stderr.push(`${server}: ${line}`) },
    );
    assert.deepEqual(await hub.listTools(), []);
    // With no era remembered it exits on the 2026-07-28 probe and again when started with initialize,
    // saying the same both times: its stderr is forwarded once.
    assert.deepEqual(stderr, ['dies: bad config here']);
    const error = events.find((e) => e.type === 'server_error') as { message: string } | undefined;
    assert.match(error?.message ?? '', /"dies".*exited with code 7.*bad config here/);
  });

  it('the fake also takes its configuration from --config <file>', async () => {
    const file = tmp.file('fake-config.json');
    writeFileSync(file, JSON.stringify(hookServerConfig({ echo: false, hooks: { _Stop: { kind: 'text', text: 'from file' } } })));
    const base = hookServerMcpConfig('filecfg', {});
    assert.equal(base.transport.type, 'stdio');
    const args = base.transport.type === 'stdio' ? base.transport.args : [];
    const { hub } = newHub([{ name: 'filecfg', transport: { type: 'stdio', command: process.execPath, args: [...args, '--config', file], env: {} } }]);
    assert.deepEqual((await hub.listTools()).map((t) => t.bareName), ['_Stop']);
    assert.equal((await hub.callTool('filecfg', '_Stop', {}, { signal: signal() })).text, 'from file');
  });

  it('close() leaves no server process behind', async () => {
    const { hub } = newHub([hookServerMcpConfig('a', hookServerConfig()), hookServerMcpConfig('b', hookServerConfig())]);
    await hub.listTools();
    const pids = hub.status().map((s) => s.pid);
    assert.equal(pids.filter((p) => p !== undefined && isAlive(p)).length, 2);
    await hub.close();
    for (const pid of pids) assert.equal(isAlive(pid as number), false, `pid ${pid} still alive`);
    await assert.rejects(hub.listTools().then(() => hub.callTool('a', 'echo', {}, { signal: signal() })), /closed/);
  });
});
