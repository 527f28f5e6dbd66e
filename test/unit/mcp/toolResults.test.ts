import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64DecodedBytes, flattenToolResult } from '../../../src/mcp/toolResults';
import { toToolInfos } from '../../../src/mcp/toolInfos';

describe('flattenToolResult', () => {
  it('joins text blocks with newlines and keeps isError', () => {
    assert.deepEqual(
      flattenToolResult({
        isError: true,
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
      { isError: true, text: 'a\nb' },
    );
  });

  it('describes non-text blocks with their decoded size', () => {
    const data = Buffer.alloc(1001).toString('base64');
    const result = flattenToolResult({
      content: [
        { type: 'image', data, mimeType: 'image/png' },
        { type: 'audio', data: Buffer.alloc(5).toString('base64'), mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
        { type: 'resource_link', uri: 'demo://resource/2', name: 'Resource 2', mimeType: 'application/octet-stream' },
        { type: 'resource_link', uri: 'demo://bare' },
      ],
    });
    assert.equal(
      result.text,
      '[image: image/png, 1001 bytes]\n[audio: audio/wav, 5 bytes]\ninline text\n[resource: file:///b.bin, application/octet-stream]\n[resource link: file:///c (c)]' +
        '\n[resource link: demo://resource/2 (Resource 2, application/octet-stream)]\n[resource link: demo://bare]',
    );
    assert.equal(result.isError, false);
    assert.deepEqual(result.images, [{ mimeType: 'image/png', data, name: '' }], 'the image travels as it came, for the core to check');
  });

  it('falls back to structuredContent as JSON, then to empty text', () => {
    assert.deepEqual(flattenToolResult({ content: [], structuredContent: { ok: 1 } }), { isError: false, text: '{"ok":1}', structured: { ok: 1 } });
    assert.deepEqual(flattenToolResult({}), { isError: false, text: '' });
  });

  it('keeps structuredContent beside the text, and only when it is an object', () => {
    const result = flattenToolResult({ content: [{ type: 'text', text: '' }], structuredContent: { status: 'passed', failures: [] } });
    assert.deepEqual(result, { isError: false, text: '', structured: { status: 'passed', failures: [] } });
    assert.deepEqual(flattenToolResult({ content: [{ type: 'text', text: 'x' }], structuredContent: 'not an object' }), { isError: false, text: 'x' });
  });

  it('computes base64 sizes for every padding', () => {
    for (let n = 0; n < 8; n++) assert.equal(base64DecodedBytes(Buffer.alloc(n).toString('base64')), n);
  });
});

describe('toToolInfos', () => {
  it('namespaces, flags hooks, keeps order, keeps names a provider refuses and reports unusable or duplicate names', () => {
    const reports: string[] = [];
    const infos = toToolInfos(
      'srv',
      [
        { name: 'read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, title: 'Read', junk: 1 } },
        { name: '_Stop', inputSchema: { type: 'object' } },
        { name: 'files.read', inputSchema: { type: 'object' } },
        { name: 'bad\nname', inputSchema: { type: 'object' } },
        { name: 'read', inputSchema: { type: 'object' } },
      ],
      (m) => reports.push(m),
    );
    assert.deepEqual(
      infos.map((t) => [t.qualifiedName, t.isHook]),
      [
        ['srv__read', false],
        ['srv___Stop', true],
        ['srv__files.read', false],
      ],
    );
    assert.deepEqual(infos[0]?.annotations, { readOnlyHint: true, title: 'Read' });
    assert.equal(reports.length, 2);
    assert.match(reports[0] ?? '', /"srv".*"bad\\u000aname"/, 'the control character shown escaped');
    assert.match(reports[1] ?? '', /twice/);
  });
});
