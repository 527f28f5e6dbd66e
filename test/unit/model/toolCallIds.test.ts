/** Tool-call ids at the wire boundary: the id policies, stable and distinct digests, and unique reply ids. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uniqueCallIds, wireCallId } from '../../../src/model/toolCallIds';

test('Mistral: an id of 9 letters and digits goes as it is; any other becomes 9 letters and digits, the same every time', () => {
  assert.equal(wireCallId('aB3xK9mP2', 'mistral'), 'aB3xK9mP2');
  for (const id of ['call_0', 'sprout_hook__Stop_tests_1', 'call_PTLP8xhu3uwZk4l3nlnrrJha', '', 'aB3xK9mP2x']) {
    const wire = wireCallId(id, 'mistral');
    assert.match(wire, /^[A-Za-z0-9]{9}$/, id);
    assert.equal(wireCallId(id, 'mistral'), wire, 'stable across requests');
  }
});

test('digests of distinct ids stay distinct (10 000 hook and call ids)', () => {
  const ids = Array.from({ length: 5000 }, (_, i) => [`sprout_hook__Stop_server_${i}`, `call_${i}_x`]).flat();
  assert.equal(new Set(ids.map((id) => wireCallId(id, 'mistral'))).size, ids.length);
  assert.equal(new Set(ids.map((id) => wireCallId(`${id}${'-'.repeat(40)}`, 'openai'))).size, ids.length);
});

test('OpenAI: ids up to 40 characters go as they are; longer ones become call_ and 9 characters', () => {
  const long = `sprout_hook__Stop_${'s'.repeat(37)}_12`;
  assert.equal(wireCallId('call_abc', 'openai'), 'call_abc');
  assert.equal(wireCallId('x'.repeat(40), 'openai'), 'x'.repeat(40));
  assert.match(wireCallId(long, 'openai'), /^call_[A-Za-z0-9]{9}$/);
});

test('reply ids: a missing, empty, taken or repeated id is replaced by a new one; the rest keep the server id', () => {
  const taken = new Set(['call_0']);
  const calls = [{ id: 'call_0' }, { id: '' }, { id: 'fresh' }, { id: 'fresh' }, { id: 'other' }];
  const out = uniqueCallIds(calls, (id) => taken.has(id)).map((c) => c.id);
  assert.equal(out[2], 'fresh');
  assert.equal(out[4], 'other');
  assert.equal(new Set(out).size, 5);
  assert.ok(out.every((id) => id !== '' && !taken.has(id)));
  assert.equal(uniqueCallIds(calls, () => false)[4], calls[4], 'an unchanged call is the same object');
});
