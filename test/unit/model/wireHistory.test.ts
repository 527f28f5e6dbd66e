/**
 * WireHistory must answer exactly as `toWireMessages` does for any sequence of requests: growing
 * histories, compactions that replace a prefix, shorter summary calls, a fresh system message each
 * round, and two sessions sharing one client.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '../../../src/agent/messages';
import { DEFAULT_WIRE_RULES, toStreamingParams, toWireMessages } from '../../../src/model/wire';
import { WireHistory } from '../../../src/model/wireHistory';

function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

function randomMessage(rand: () => number, n: number): ChatMessage {
  const r = rand();
  if (r < 0.3) return { role: 'user', content: `u${n}` };
  if (r < 0.45) return { role: 'assistant', content: rand() < 0.5 ? null : '' };
  if (r < 0.7) return { role: 'assistant', content: rand() < 0.3 ? null : `a${n}`, toolCalls: [{ id: `c${n}`, name: 's__t', arguments: `{"n":${n}}` }] };
  return { role: 'tool', toolCallId: `c${n}`, content: `t${n}` };
}

test('WireHistory maps like toWireMessages over growing, compacted, shortened and interleaved requests', () => {
  const rand = random(7);
  let n = 0;
  for (let run = 0; run < 200; run++) {
    const cache = new WireHistory();
    const sessions: ChatMessage[][] = [[], []];
    for (let step = 0; step < 30; step++) {
      const which = rand() < 0.8 ? 0 : 1;
      let history = sessions[which] as ChatMessage[];
      const r = rand();
      if (r < 0.1) history = Array.from({ length: Math.floor(rand() * 4) }, () => randomMessage(rand, n++));
      else if (r < 0.2) history = [...history.slice(0, Math.floor(history.length / 2)), randomMessage(rand, n++)];
      else history = [...history, ...Array.from({ length: 1 + Math.floor(rand() * 3) }, () => randomMessage(rand, n++))];
      sessions[which] = history;
      const request: ChatMessage[] = [{ role: 'system', content: `sys${which}` }, ...history];
      const sent = rand() < 0.1 ? request.slice(0, 2) : request;
      const got = cache.map(sent);
      assert.deepEqual(got, toWireMessages(sent));
      // The caller owns the array: changing it must not leak into the next answer.
      got.length = 0;
      assert.deepEqual(cache.map(sent), toWireMessages(sent), 'asking twice gives the same answer');
    }
  }
});

test('toStreamingParams with a WireHistory serialises byte-identically to the plain mapping', () => {
  const cache = new WireHistory();
  const history: ChatMessage[] = [{ role: 'user', content: 'hi' }];
  for (let round = 0; round < 5; round++) {
    history.push({ role: 'assistant', content: `answer ${round}` }, { role: 'user', content: `next ${round}` });
    const request = { model: 'm', messages: [{ role: 'system' as const, content: 'be brief' }, ...history], tools: [] };
    assert.equal(JSON.stringify(toStreamingParams(request, (m) => cache.map(m))), JSON.stringify(toStreamingParams(request)));
  }
});

test('new wire rules drop the cache; the call ids of the last request are counted', () => {
  const cache = new WireHistory();
  const call: ChatMessage = { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 's__t', arguments: '{}' }] };
  const history: ChatMessage[] = [{ role: 'user', content: 'u' }, call, { role: 'tool', toolCallId: 'call_0', content: 't' }];
  const plain = cache.map(history);
  assert.equal(cache.hasCallId('call_0'), true);
  const mistral = { ...DEFAULT_WIRE_RULES, idPolicy: 'mistral' as const };
  const mapped = cache.map(history, mistral);
  assert.deepEqual(mapped, toWireMessages(history, mistral));
  assert.notDeepEqual(mapped, plain);
  cache.map([{ role: 'user', content: 'summary' }], mistral);
  assert.equal(cache.hasCallId('call_0'), false, 'a shorter request forgets the ids it no longer carries');
  cache.map([{ role: 'user', content: 'u' }, call, { role: 'tool', toolCallId: 'call_0', content: 't' }], mistral);
  assert.equal(cache.hasCallId('call_0'), true);
});
