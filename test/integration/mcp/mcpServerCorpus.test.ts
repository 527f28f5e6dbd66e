/**
 * The MCP corpus (corpus/mcpServers.ts) against the real hub: each case's server runs for real (a
 * stdio child process or a Streamable HTTP server on 127.0.0.1) and the call ends as the case says,
 * answered or failed with words. A call that should end is awaited as it is, with no timing assert:
 * the hub's 5-minute tool timeout is never reached in a passing run, and a hang guard (scaled to the
 * machine's load) only turns a hang into a readable failure.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import type { McpServerConfig } from '../../../src/mcp/config';
import { McpHub } from '../../../src/mcp/mcpHub';
import { eraKey, memoryEraStore } from '../../../src/mcp/protocolEra';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { startScriptedMcpHttpServer, type ScriptedMcpHttpServer } from '../../fakes/scriptedMcpHttpServer';
import { scaledMs } from '../../loadScale';
import { waitFor } from '../../waitFor';
import { InMemoryOAuthStore, signal } from './mcpHarness';
import { MCP_CASES, type McpCase } from './corpus/mcpServers';

const hubs: McpHub[] = [];
const servers: ScriptedMcpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Turns a hang into a failure that says so (not a timing assert: a passing call never comes near it). */
function guarded<T>(promise: Promise<T>, what: string): Promise<T> {
  const ms = scaledMs(60_000);
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms: ${what}`)), ms)));
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

async function hubFor(c: McpCase): Promise<{ hub: McpHub; tool: string }> {
  if ('stdio' in c.server) {
    const config = hookServerMcpConfig('corpus', hookServerConfig(c.server.stdio));
    const hub = new McpHub([config], { restart: { initialDelayMs: 50 } });
    hubs.push(hub);
    return { hub, tool: c.server.tool ?? 'echo' };
  }
  const options = c.server.http;
  const target = await startScriptedMcpHttpServer(options);
  servers.push(target);
  const config: McpServerConfig = { name: 'corpus', transport: { type: 'http', url: target.url, headers: {} } };
  const eras = memoryEraStore({ [eraKey(config)]: { era: 'legacy', at: Date.now() } });
  const hub = new McpHub([config], {
    eraStore: eras,
    restart: { initialDelayMs: 50 },
    ...(options.authMetadata ? { oauth: { store: new InMemoryOAuthStore(), openSignIn: async () => undefined } } : {}),
  });
  hubs.push(hub);
  return { hub, tool: 'echo' };
}

async function play(c: McpCase): Promise<void> {
  const { hub, tool } = await hubFor(c);
  const notes: string[] = [];
  hub.subscribe((event) => void (event.type === 'server_error' && notes.push(event.message)));
  const expect = c.expect;
  if ('listingFails' in expect) {
    const outcome = await guarded(hub.listTools().then(() => undefined, (error: unknown) => error), 'the listing');
    const words = outcome instanceof Error ? outcome.message : hub.status().map((s) => s.error ?? '').join(' ');
    assert.match(words, expect.listingFails);
    assert.doesNotMatch(words, /ZodError|"code":\s*"invalid_type"|\[\s*\{\s*"expected"/, 'words, not a schema dump');
    return;
  }
  const tools = await guarded(hub.listTools(), 'the listing');
  const names = tools.map((t) => t.bareName);
  for (const absent of c.notListed ?? []) assert.ok(!names.includes(absent), `${absent} is not offered: ${names.join(', ')}`);
  assert.ok(names.includes(tool), `listed: ${names.join(', ')}`);
  assert.equal(new Set(names).size, names.length, `each tool once: ${names.join(', ')}`);
  const outcome = await guarded(
    hub.callTool('corpus', tool, { text: 'ping' }, { signal: signal() }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
    ),
    `the call of ${tool}`,
  );
  if ('answersLength' in expect) {
    assert.ok('result' in outcome, `expected an answer, got: ${'error' in outcome ? outcome.error : ''}`);
    assert.equal(outcome.result.isError, false);
    assert.equal(outcome.result.text.length, expect.answersLength);
  } else if ('answers' in expect) {
    assert.ok('result' in outcome, `expected an answer, got: ${'error' in outcome ? outcome.error : ''}`);
    assert.equal(outcome.result.isError, false, outcome.result.text);
    assert.equal(outcome.result.text, expect.answers);
    if (c.notes !== undefined) assert.match(notes.join('\n'), c.notes, 'what Sprout said about the server');
    const added = expect.thenLists;
    if (added !== undefined) await waitFor(async () => (await hub.listTools()).some((t) => t.bareName === added), `${added} to be listed`);
  } else {
    const words = 'error' in outcome ? outcome.error : outcome.result.isError ? outcome.result.text : `answered ${outcome.result.text}`;
    assert.ok('error' in outcome || outcome.result.isError, words);
    assert.match(words, expect.fails);
  }
}

for (const c of MCP_CASES) test(`${c.id} (${c.source})`, () => play(c));
