// The stdio read path's line splitting: lines across chunks, many lines in one chunk, a line of many
// chunks joined once, and a line past the hard limit refused with the limit named.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonLineReader, MessageTooLargeError } from '../../../src/mcp/jsonLineReader';

const text = (lines: Buffer[]): string[] => lines.map((l) => l.toString('utf8'));

describe('JsonLineReader', () => {
  it('splits lines however the chunks fall', () => {
    const reader = new JsonLineReader();
    assert.deepEqual(text(reader.push(Buffer.from('{"a":1}\n{"b"'))), ['{"a":1}']);
    assert.deepEqual(text(reader.push(Buffer.from(':2}\n\n{"c":3}\n'))), ['{"b":2}', '', '{"c":3}']);
    assert.deepEqual(reader.push(Buffer.from('{"d"')), []);
    assert.deepEqual(text(reader.push(Buffer.from(':4}\n'))), ['{"d":4}']);
  });

  it('a long line in many chunks comes out whole', () => {
    const reader = new JsonLineReader(1024 * 1024);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 15; i++) assert.deepEqual(reader.push(chunk), []);
    const [line] = reader.push(Buffer.from('y\n'));
    assert.equal(line?.length, 15 * 64 * 1024 + 1);
    assert.equal(line?.at(-1), 'y'.charCodeAt(0));
  });

  it('a line past the limit is refused, naming the limit, and the reader starts afresh', () => {
    const reader = new JsonLineReader(2 * 1024 * 1024);
    reader.push(Buffer.alloc(1024 * 1024, 'x'));
    assert.throws(() => reader.push(Buffer.alloc(1024 * 1024 + 1, 'x')), (error: unknown) => error instanceof MessageTooLargeError && /more than 2 MiB/.test(error.message));
    assert.deepEqual(text(reader.push(Buffer.from('{}\n'))), ['{}']);
  });
});
