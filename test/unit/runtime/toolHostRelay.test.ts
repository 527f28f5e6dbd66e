// ToolHostRelay: one subscription that outlives the hubs behind it. Events of the current hub reach
// subscribers made before it existed; events of a replaced hub stop; calls go to the current hub,
// and with none the relay offers no tools and answers calls with a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOT_STARTED_RESULT, ToolHostRelay } from '../../../src/runtime/toolHostRelay';
import { InMemoryToolHost } from '../../fakes/InMemoryToolHost';

const hubWithRead = (): InMemoryToolHost => new InMemoryToolHost([{ name: 'ws', tools: { read: () => 'ws__read ran' } }]);
const signal = new AbortController().signal;

test('a subscriber made before any hub gets the events of each hub in turn, and none of a replaced one', () => {
  const relay = new ToolHostRelay<InMemoryToolHost>();
  const seen: string[] = [];
  relay.subscribe((event) => seen.push(`${event.type}:${'server' in event ? event.server : ''}`));
  const first = hubWithRead();
  relay.use(first);
  first.fire({ type: 'server_error', server: 'one', message: 'failed to start' });
  const second = new InMemoryToolHost([]);
  relay.use(second);
  first.fire({ type: 'tools_changed', server: 'one' });
  second.fire({ type: 'server_restarted', server: 'two', attempt: 1 });
  relay.use(undefined);
  second.fire({ type: 'tools_changed', server: 'two' });
  assert.deepEqual(seen, ['server_error:one', 'server_restarted:two']);
  assert.equal(first.listenerCount, 0);
  assert.equal(second.listenerCount, 0);
});

test('a throwing subscriber does not keep the event from the others', () => {
  const relay = new ToolHostRelay<InMemoryToolHost>();
  const hub = new InMemoryToolHost([]);
  relay.use(hub);
  const seen: string[] = [];
  relay.subscribe(() => {
    throw new Error('broken view');
  });
  relay.subscribe((event) => seen.push(event.type));
  hub.fire({ type: 'tools_changed', server: 'x' });
  assert.deepEqual(seen, ['tools_changed']);
});

test('calls and listings go to the current hub; without one there are no tools and calls say why', async () => {
  const relay = new ToolHostRelay<InMemoryToolHost>();
  assert.deepEqual(await relay.listTools(), []);
  assert.deepEqual(relay.cachedTools(), []);
  assert.deepEqual(relay.serverNames(), []);
  assert.deepEqual(await relay.callTool('ws', 'read', {}, { signal }), NOT_STARTED_RESULT);
  const hub = hubWithRead();
  relay.use(hub);
  assert.deepEqual((await relay.listTools()).map((t) => t.qualifiedName), ['ws__read']);
  assert.equal(relay.cachedTools(), undefined, 'a hub without a cache: the caller lists');
  assert.deepEqual(relay.serverNames(), ['ws']);
  assert.deepEqual(await relay.callTool('ws', 'read', {}, { signal }), { isError: false, text: 'ws__read ran' });
});
