/**
 * Tool search (src/agent/toolSearch.ts): what a round offers when the servers list more tools than
 * one request may carry, the ranking, and the answers to the search and to a tool not loaded yet.
 * The shape follows what users of many-tool setups meet: https://github.com/anomalyco/opencode/issues/4909.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolInfo } from '../../../src/agent/messages';
import { answerSearchCall, offeredTools, rankTools, SEARCH_TOOL_NAME, usesSearch } from '../../../src/agent/toolSearch';

function info(server: string, bareName: string, description = ''): ToolInfo {
  return { server, bareName, qualifiedName: `${server}__${bareName}`, description, inputSchema: {}, annotations: {}, isHook: bareName.startsWith('_') };
}

const many = (server: string, n: number): ToolInfo[] => Array.from({ length: n }, (_, i) => info(server, `tool_${i}`, `tool number ${i}`));
const all = [info('files', 'read_file', 'Reads a file'), info('files', '_Stop'), ...many('github', 200), info('github', 'create.pull_request', 'Opens a pull request on GitHub')];

describe('tool search', () => {
  it('is not used while every tool fits', () => {
    assert.equal(usesSearch(many('a', 128)), false);
    assert.deepEqual(offeredTools(many('a', 128), []).search, undefined);
  });

  it('offers the search and the small servers whole, never a hook, and a loaded tool once loaded', () => {
    const before = offeredTools(all, []);
    assert.deepEqual(before.tools.map((t) => t.qualifiedName), ['files__read_file']);
    assert.equal(before.search?.name, SEARCH_TOOL_NAME);
    assert.match(before.search?.description ?? '', /201 tools of the MCP servers github/);
    const after = offeredTools(all, ['github__create.pull_request']);
    assert.deepEqual(after.tools.map((t) => t.qualifiedName), ['files__read_file', 'github__create.pull_request']);
    assert.deepEqual(after.limited?.servers, [{ server: 'github', listed: 201, offered: 1 }]);
  });

  it('ranks names over servers over descriptions, hooks never', () => {
    assert.deepEqual(rankTools('pull request', all).map((t) => t.qualifiedName)[0], 'github__create.pull_request');
    assert.deepEqual(rankTools('stop', all), []);
    assert.deepEqual(rankTools('  ', all), []);
  });

  it('answers the search (loading what it found) and a call of a tool not loaded yet (not run, not an error)', () => {
    const loads: Array<[string, string[]]> = [];
    const load = (query: string, names: string[]): number => loads.push([query, names]);
    const search = answerSearchCall({ name: SEARCH_TOOL_NAME, arguments: '{"query":"open a pull request"}' }, all, [], load);
    assert.equal(search?.isError, false);
    assert.match(search?.text ?? '', /^Loaded \d+ tools?; call/);
    assert.equal(loads[0]?.[1][0], 'github__create.pull_request');
    const early = answerSearchCall({ name: 'github__tool_7', arguments: '{}' }, all, [], load);
    assert.deepEqual(early, { isError: false, text: `The tool github__tool_7 is not loaded yet. Call ${SEARCH_TOOL_NAME} with words for what it does (or its name) to load it, then call it.` });
    assert.equal(answerSearchCall({ name: 'github__tool_7', arguments: '{}' }, all, ['github__tool_7'], load), undefined, 'a loaded tool runs');
    assert.equal(answerSearchCall({ name: 'files__read_file', arguments: '{}' }, all, [], load), undefined, 'a tool offered whole runs');
    assert.equal(answerSearchCall({ name: 'nobody__x', arguments: '{}' }, all, [], load), undefined, 'an unknown name is the usual unknown tool');
    assert.equal(answerSearchCall({ name: SEARCH_TOOL_NAME, arguments: '{}' }, all, [], load)?.isError, true);
  });
});
