import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oneCopyOfArguments } from '../../../src/model/toolArguments';

test('equal JSON objects sent more than once are one copy (white space between them allowed)', () => {
  assert.equal(oneCopyOfArguments('{"a":1}{"a":1}'), '{"a":1}');
  assert.equal(oneCopyOfArguments('{"a":"}{"}\n{"a":"}{"}'), '{"a":"}{"}');
  assert.equal(oneCopyOfArguments('{"a": 1}{"a":1}'), '{"a": 1}');
});

test('anything else stays as it came: one value, different values, broken JSON, empty', () => {
  for (const args of ['{"a":1}', '{"a":1}{"a":2}', '{"a":1', '{"a":1}x', '', '[1][1]']) assert.equal(oneCopyOfArguments(args), args);
});
