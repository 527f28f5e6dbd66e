import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ProtocolError, SdkError, SdkErrorCode, type DiscoverResult } from '@modelcontextprotocol/client';
import { ConfigError } from '../../../src/agent/settings';
import type { McpServerConfig } from '../../../src/mcp/config';
import { eraKey, eraMismatch, eraPlan, eraText, LEGACY_ANSWER_TTL_MS, learnedEra, parseProtocolSetting } from '../../../src/mcp/protocolEra';
import { fileEraStore } from '../../../src/runtime/eraFileStore';

const discover = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } as unknown as DiscoverResult;
const dir = mkdtempSync(join(tmpdir(), 'sprout-era-unit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('protocol eras', () => {
  it('auto asks when nothing is known, and starts from a remembered answer without asking', () => {
    assert.deepEqual(eraPlan('auto', undefined, 0, 5000), { negotiation: { mode: 'auto', probe: { timeoutMs: 5000 } }, prior: undefined, asks: true, sse: false });
    assert.deepEqual(eraPlan('auto', { era: 'modern', discover, at: 0 }, 10, 5000).prior, { kind: 'modern', discover });
    assert.deepEqual(eraPlan('auto', { era: 'legacy', at: 0 }, 10, 5000).prior, { kind: 'legacy' });
    assert.equal(eraPlan('auto', { era: 'legacy', at: 0 }, 10, 5000).asks, false);
  });

  it('a server remembered as HTTP+SSE only starts on that transport, unless the setting pins 2026-07-28', () => {
    assert.equal(eraPlan('auto', { era: 'legacy', at: 0, sse: true }, 10, 5000).sse, true);
    assert.equal(eraPlan('2026-07-28', { era: 'legacy', at: 0, sse: true }, 10, 5000).sse, false);
  });

  it('a legacy answer older than a day is asked again (an upgraded server would never say so)', () => {
    const plan = eraPlan('auto', { era: 'legacy', at: 0 }, LEGACY_ANSWER_TTL_MS, 5000);
    assert.equal(plan.prior, undefined);
    assert.equal(plan.asks, true);
  });

  it('legacy never asks; 2026-07-28 pins, using a remembered modern answer but never a legacy one', () => {
    assert.deepEqual(eraPlan('legacy', { era: 'modern', discover, at: 0 }, 0, 5000), { negotiation: undefined, prior: undefined, asks: false, sse: false });
    assert.deepEqual(eraPlan('2026-07-28', undefined, 0, 5000).negotiation, { mode: { pin: '2026-07-28' }, probe: { timeoutMs: 5000 } });
    assert.equal(eraPlan('2026-07-28', { era: 'legacy', at: 0 }, 0, 5000).prior, undefined);
    assert.deepEqual(eraPlan('2026-07-28', { era: 'modern', discover, at: 0 }, 0, 5000).prior, { kind: 'modern', discover });
  });

  it('keeps what a connection learned: a modern answer always, a legacy one only when it was asked', () => {
    const asked = eraPlan('auto', undefined, 0, 1);
    assert.deepEqual(learnedEra(asked, 'modern', discover, 7), { era: 'modern', discover, at: 7 });
    assert.deepEqual(learnedEra(asked, 'legacy', undefined, 7), { era: 'legacy', at: 7 });
    assert.equal(learnedEra(eraPlan('auto', { era: 'legacy', at: 3 }, 4, 1), 'legacy', undefined, 9), undefined, 'a remembered answer keeps its date');
    assert.equal(learnedEra(eraPlan('legacy', undefined, 0, 1), 'legacy', undefined, 7), undefined, 'a pinned legacy connection learned nothing');
  });

  it('the key is a digest of the configuration: no header value in it, and a changed URL is another key', () => {
    const http = (url: string, token: string): McpServerConfig => ({ name: 'remote', transport: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } });
    const key = eraKey(http('https://a.example/mcp', 'sk-secret-123'));
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.ok(!key.includes('secret'));
    assert.notEqual(key, eraKey(http('https://b.example/mcp', 'sk-secret-123')));
  });

  it('the setting: the three values, anything else an error naming the setting', () => {
    for (const v of ['auto', 'legacy', '2026-07-28'] as const) assert.equal(parseProtocolSetting(` ${v} `, 'X'), v);
    assert.throws(() => parseProtocolSetting('2025-06-18', 'SPROUT_AGENT_MCP_PROTOCOL'), (e: Error) => e instanceof ConfigError && /SPROUT_AGENT_MCP_PROTOCOL: unknown MCP protocol "2025-06-18"\. Use auto/.test(e.message));
  });

  it('says in words why a server and the setting disagree, with the fix', () => {
    const refused = new ProtocolError(-32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: '2025-11-25' });
    assert.match(eraMismatch(refused) ?? '', /^the server speaks only MCP 2026-07-28 and refused 2025-11-25: set sprout\.mcp\.protocol .* to auto$/);
    const pinned = new SdkError(SdkErrorCode.EraNegotiationFailed, 'Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via server/discover (no fallback in pin mode)');
    assert.match(eraMismatch(pinned) ?? '', /does not speak MCP 2026-07-28/);
    const closed = new SdkError(
      SdkErrorCode.EraNegotiationFailed,
      'Version negotiation failed: the connection closed during the server/discover probe before the server offered pinned protocol version 2026-07-28 (no fallback in pin mode)',
    );
    assert.equal(
      eraMismatch(closed),
      'the server stopped when asked for MCP 2026-07-28 (server/discover), which the setting requires; if it speaks only the older initialize handshake, set sprout.mcp.protocol (in the CLI: SPROUT_AGENT_MCP_PROTOCOL) to auto',
    );
    assert.equal(eraMismatch(new Error('ECONNREFUSED')), undefined);
    assert.equal(eraText('modern', '2026-07-28'), 'MCP 2026-07-28 (modern era)');
  });
});

describe('the era file', () => {
  it('keeps answers across stores in a private file, and forgets', () => {
    const path = join(dir, 'state', 'mcp-eras.json');
    const store = fileEraStore(path);
    store.set('a', { era: 'legacy', at: 1 });
    store.set('b', { era: 'modern', discover, at: 2 });
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const again = fileEraStore(path);
    assert.deepEqual(again.get('a'), { era: 'legacy', at: 1 });
    assert.deepEqual(again.get('b'), { era: 'modern', discover, at: 2 });
    again.set('a', undefined);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(path, 'utf8'))), ['b']);
  });

  it('a damaged file, or entries of another shape, are an empty memory, not an error', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{not json');
    assert.equal(fileEraStore(path).get('a'), undefined);
    writeFileSync(path, JSON.stringify({ a: { era: 'modern', at: 1 }, b: { era: 'legacy' }, c: { era: 'legacy', at: 5 } }));
    const store = fileEraStore(path);
    assert.equal(store.get('a'), undefined, 'modern without its discover result');
    assert.equal(store.get('b'), undefined, 'no date');
    assert.deepEqual(store.get('c'), { era: 'legacy', at: 5 });
  });
});
