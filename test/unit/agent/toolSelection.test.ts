// The tool selection as pure rules (src/agent/toolSelection.ts), applied in roundRequest.ts and the loop's tool calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandToolNames, parseToolSets, selectedTools, selectionAllows, selectionRefusal, unmatchedEntries } from '../../../src/agent/toolSelection';
import { roundRequest } from '../../../src/agent/roundRequest';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import { SEARCH_TOOL_NAME } from '../../../src/agent/toolSearch';
import type { ToolInfo } from '../../../src/agent/messages';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

const tool = (server: string, bareName: string): ToolInfo => ({
  server, bareName, qualifiedName: `${server}__${bareName}`, description: '', inputSchema: {}, annotations: {}, isHook: bareName.startsWith('_'),
});
const TOOLS = [tool('workspace', 'read_file'), tool('workspace', 'write_file'), tool('todo', 'todo'), tool('todo', '_Stop'), tool('github', 'get_issue')];
const names = (tools: readonly ToolInfo[]): string[] => tools.map((t) => t.qualifiedName);

test('no selection keeps every tool; "only" keeps what its entries name (server, server__tool, server/tool); hooks always stay', () => {
  assert.deepEqual(names(selectedTools(undefined, TOOLS)), names(TOOLS));
  assert.deepEqual(names(selectedTools({ only: ['workspace'] }, TOOLS)), ['workspace__read_file', 'workspace__write_file', 'todo___Stop']);
  assert.deepEqual(names(selectedTools({ only: ['todo__todo', 'github/get_issue'] }, TOOLS)), ['todo__todo', 'todo___Stop', 'github__get_issue']);
  assert.deepEqual(names(selectedTools({ only: [] }, TOOLS)), ['todo___Stop'], 'an empty "only" leaves the hooks alone');
});

test('"off" turns servers and tools off; it cannot turn a hook off, and both lists together narrow twice', () => {
  assert.deepEqual(names(selectedTools({ off: ['github', 'workspace__write_file'] }, TOOLS)), ['workspace__read_file', 'todo__todo', 'todo___Stop']);
  assert.equal(selectionAllows({ off: ['todo', 'todo___Stop', 'todo/_Stop'] }, tool('todo', '_Stop')), true);
  assert.deepEqual(names(selectedTools({ only: ['workspace'], off: ['workspace/write_file'] }, TOOLS)), ['workspace__read_file', 'todo___Stop']);
});

test('only the "only" names no server lists are unmatched (a hook does not count as a match)', () => {
  assert.deepEqual(unmatchedEntries({ only: ['workspace', 'search/codebase', 'todo/_Stop', 'gitlab'] }, TOOLS), ['search/codebase', 'todo/_Stop', 'gitlab']);
  assert.deepEqual(unmatchedEntries({ off: ['gone'] }, TOOLS), [], 'a tool turned off that went away says nothing');
  assert.deepEqual(unmatchedEntries(undefined, TOOLS), []);
});

test('roundRequest offers what the mode and the selection both allow; the refusal says it is turned off', () => {
  const ctx = { settings: () => DEFAULT_SETTINGS };
  assert.deepEqual(roundRequest(ctx, TOOLS, 'agent', { selection: { off: ['workspace'] } }).specs.map((s) => s.name), ['todo__todo', 'github__get_issue']);
  assert.deepEqual(roundRequest(ctx, TOOLS, 'agent', { selection: { only: ['github'] } }).specs.map((s) => s.name), ['github__get_issue']);
  assert.match(selectionRefusal('workspace__write_file'), /^Error: "workspace__write_file" was not run: it is turned off for this chat/);
});

test('the tool-search threshold is a setting: above it a round offers the search, counted after the selection', () => {
  const many = Array.from({ length: 6 }, (_, i) => tool('big', `t${i}`));
  const ctx = { settings: () => ({ ...DEFAULT_SETTINGS, toolSearchThreshold: 4 }) };
  const searched = roundRequest(ctx, [...many, tool('small', 'one')]);
  assert.equal(searched.specs[0]?.name, SEARCH_TOOL_NAME);
  assert.ok(searched.specs.length <= 4, `at most the threshold: ${searched.specs.length}`);
  assert.deepEqual(searched.limited?.servers.map((s) => s.server), ['big']);
  const narrowed = roundRequest(ctx, [...many, tool('small', 'one')], 'agent', { selection: { only: ['big/t0', 'big/t1', 'small'] } });
  assert.deepEqual(narrowed.specs.map((s) => s.name), ['big__t0', 'big__t1', 'small__one'], 'three selected tools fit: no search');
  assert.equal(roundRequest({ settings: () => DEFAULT_SETTINGS }, [...many, tool('small', 'one')]).limited, undefined, 'the default 128 is unchanged');
});

test('tool sets in VS Code\'s format: sets and notes; a set name stands for its tools, other names pass as they are', () => {
  const { sets, notes } = parseToolSets({ reader: { tools: ['workspace/read_file', 'github'], description: 'Read', icon: 'book' }, broken: { tools: 'x' }, odd: 3 }, '.vscode/a.toolsets.jsonc');
  assert.deepEqual(sets, [{ name: 'reader', tools: ['workspace/read_file', 'github'], description: 'Read', file: '.vscode/a.toolsets.jsonc' }]);
  assert.equal(notes.length, 2);
  assert.match(notes[0] ?? '', /\.vscode\/a\.toolsets\.jsonc: tool set "broken" needs "tools"/);
  assert.match(parseToolSets([], 'f.jsonc').notes[0] ?? '', /^f\.jsonc:1: expected an object of tool sets/);
  assert.deepEqual(expandToolNames(['reader', ' todo ', '', 'github'], sets), ['workspace/read_file', 'github', 'todo']);
});

test('the loop: a turned-off tool is not offered, and a call to it is refused before any hook and never reaches its server', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: () => 'contents', write: () => 'written', _PreToolUse: () => '' } }],
    settings: settings({}, { allowlist: { kind: 'names', names: ['fs'] } }),
    script: [reply.tools(call('fs__write', { path: 'a.ts' }, 'w'), call('fs__read', { path: 'a.ts' }, 'r')), reply.text('done')],
  });
  const outcome = await h.session.run('change a.ts', undefined, { tools: { off: ['fs/write'] } });
  assert.equal(outcome.reason, 'end_turn');
  assert.deepEqual(h.model.requests[0]?.tools.map((t) => t.name), ['fs__read']);
  const results = Object.fromEntries(h.session.state.history.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content]] : [])));
  assert.equal(results.w, selectionRefusal('fs__write'));
  assert.equal(results.r, 'contents');
  assert.deepEqual(h.tools.calls.map((c) => c.tool), ['_PreToolUse', 'read'], 'the write reached no server, not even its _PreToolUse');
  assert.deepEqual(h.of('tools_unmatched'), []);
});

test('the loop: names of "only" that no server lists are said once for the prompt; the rest apply', async () => {
  const h = await harness({ servers: [{ name: 'fs', tools: { read: () => 'contents', write: () => 'written' } }], script: [reply.tools(call('fs__read', {}, 'r')), reply.text('done')] });
  await h.session.run('read', undefined, { tools: { only: ['fs/read', 'nope', 'fs/missing'] } });
  assert.deepEqual(h.model.requests.map((r) => r.tools.map((t) => t.name)), [['fs__read'], ['fs__read']]);
  assert.deepEqual(h.of('tools_unmatched'), [{ type: 'tools_unmatched', names: ['nope', 'fs/missing'] }]);
});
