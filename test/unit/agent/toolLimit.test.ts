/**
 * Which tools fit one request (src/agent/toolLimit.ts). The counts are those users meet: one server
 * with thousands of tools next to small ones, and 150 tools over a few servers, which OpenAI refuses
 * with "array too long" (https://github.com/0x4m4/hexstrike-ai/issues/29).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolInfo } from '../../../src/agent/messages';
import { fairShares, fitToolLimit, limitedServersText, MAX_TOOLS_PER_REQUEST } from '../../../src/agent/toolLimit';
import { roundRequest } from '../../../src/agent/roundRequest';

function tools(server: string, n: number, hooks = 0): ToolInfo[] {
  const plain = Array.from({ length: n }, (_, i) => ({ server, bareName: `t${i}`, qualifiedName: `${server}__t${i}`, description: '', inputSchema: {}, annotations: {}, isHook: false }));
  const hookTools = Array.from({ length: hooks }, (_, i) => ({ server, bareName: `_H${i}`, qualifiedName: `${server}___H${i}`, description: '', inputSchema: {}, annotations: {}, isHook: true }));
  return [...plain, ...hookTools];
}

describe('fitToolLimit', () => {
  it('offers everything when it fits', () => {
    const all = [...tools('a', 100), ...tools('b', 28)];
    const fit = fitToolLimit(all);
    assert.equal(fit.tools.length, 128);
    assert.equal(fit.limited, undefined);
  });

  it('cuts a server with 10,000 tools to what the others leave, and says so with its name', () => {
    const all = [...tools('small', 5), ...tools('huge', 10_000), ...tools('mid', 40)];
    const fit = fitToolLimit(all);
    assert.equal(fit.tools.length, MAX_TOOLS_PER_REQUEST);
    assert.equal(fit.tools.filter((t) => t.server === 'small').length, 5, 'a small server is never cut for a big one');
    assert.equal(fit.tools.filter((t) => t.server === 'mid').length, 40);
    assert.deepEqual(fit.limited, { limit: 128, listed: 10_045, servers: [{ server: 'huge', listed: 10_000, offered: 83 }] });
    assert.deepEqual(fit.tools.filter((t) => t.server === 'huge').map((t) => t.bareName).slice(0, 3), ['t0', 't1', 't2'], 'a server\'s first tools are kept');
    assert.equal(limitedServersText(fit.limited?.servers ?? []), 'huge (10000 tools, 83 loaded)');
  });

  it('shares the room equally between servers that are all too big', () => {
    assert.deepEqual(fairShares([100, 100, 100], 128), [43, 43, 42]);
    assert.deepEqual(fairShares([0, 300, 3], 128), [0, 125, 3]);
  });

  it('roundRequest never offers a hook; a server that does not fit goes behind the tool search, the others stay whole', () => {
    const request = roundRequest({ settings: () => ({ systemPrompt: 'x' }) as never }, [...tools('a', 150, 2), ...tools('b', 10)]);
    assert.deepEqual(request.specs.map((s) => s.name), ['sprout__search_tools', ...Array.from({ length: 10 }, (_, i) => `b__t${i}`)]);
    assert.deepEqual(request.limited?.servers, [{ server: 'a', listed: 150, offered: 0 }]);
    assert.equal(limitedServersText(request.limited?.servers ?? []), 'a (150 tools)');
  });
});
