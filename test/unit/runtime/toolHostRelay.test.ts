// ToolHostRelay: one subscription that outlives the hubs behind it. Events of the current hub reach
// subscribers made before it existed; events of a replaced hub stop; calls go to the current hub,
// and with none the relay offers no tools and answers calls with a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolHost, ToolHostEvent } from '../../../src/agent/ports';
import type { ToolInfo } from '../../../src/agent/messages';
import { NOT_STARTED_RESULT, ToolHostRelay } from '../../../src/runtime/toolHostRelay';

class InMemoryHub implements ToolHost {
  readonly listeners = new Set<(event: ToolHostEvent) => void>();
  constructor(private readonly tools: ToolInfo[]) {}
  serverNames() { return [...new Set(this.tools.map((t) => t.server))]; }
  async listTools() { return this.tools; }
  cachedTools() { return this.tools; }
  async callTool(server: string, bareName: string) { return { isError: false, text: `${server}__${bareName} ran` }; }
  async killServer() {}
  subscribe(listener: (event: ToolHostEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event: ToolHostEvent) { for (const listener of this.listeners) listener(event); }
}

const tool: ToolInfo = { server: 'ws', bareName: 'read', qualifiedName: 'ws__read', description: '', inputSchema: {}, annotations: {}, isHook: false };
const signal = new AbortController().signal;

test('a subscriber made before any hub gets the events of each hub in turn, and none of a replaced one', () => {
  const relay = new ToolHostRelay<InMemoryHub>();
  const seen: string[] = [];
  relay.subscribe((event) => seen.push(`${event.type}:${'server' in event ? event.server : ''}`));
  const first = new InMemoryHub([tool]);
  relay.use(first);
  first.emit({ type: 'server_error', server: 'one', message: 'failed to start' });
  const second = new InMemoryHub([]);
  relay.use(second);
  first.emit({ type: 'tools_changed', server: 'one' });
  second.emit({ type: 'server_restarted', server: 'two', attempt: 1 });
  relay.use(undefined);
  second.emit({ type: 'tools_changed', server: 'two' });
  assert.deepEqual(seen, ['server_error:one', 'server_restarted:two']);
  assert.equal(first.listeners.size, 0);
  assert.equal(second.listeners.size, 0);
});

test('a throwing subscriber does not keep the event from the others', () => {
  const relay = new ToolHostRelay<InMemoryHub>();
  const hub = new InMemoryHub([]);
  relay.use(hub);
  const seen: string[] = [];
  relay.subscribe(() => {
    throw new Error('broken view');
  });
  relay.subscribe((event) => seen.push(event.type));
  hub.emit({ type: 'tools_changed', server: 'x' });
  assert.deepEqual(seen, ['tools_changed']);
});

test('calls and listings go to the current hub; without one there are no tools and calls say why', async () => {
  const relay = new ToolHostRelay<InMemoryHub>();
  assert.deepEqual(await relay.listTools(), []);
  assert.deepEqual(relay.cachedTools(), []);
  assert.deepEqual(relay.serverNames(), []);
  assert.deepEqual(await relay.callTool('ws', 'read', {}, { signal }), NOT_STARTED_RESULT);
  relay.use(new InMemoryHub([tool]));
  assert.deepEqual(await relay.listTools(), [tool]);
  assert.deepEqual(relay.cachedTools(), [tool]);
  assert.deepEqual(relay.serverNames(), ['ws']);
  assert.deepEqual(await relay.callTool('ws', 'read', {}, { signal }), { isError: false, text: 'ws__read ran' });
});
