import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropOldestTurns, estimatePromptTokens, renderForSummary, shouldCompact, splitTurns } from '../../../src/agent/compactionRules';
import { isValidHistory } from '../../../src/agent/historyValidity';
import { planRound } from '../../../src/agent/promptRunner';
import { budgetAtPromptStart, collectObjections, decideGate, ignoredHookServers, serversWithHook } from '../../../src/agent/stopGateRules';
import { truncateToolResult } from '../../../src/agent/toolRunner';
import { parseToolArguments } from '../../../src/agent/toolArguments';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import type { ChatMessage, ToolInfo } from '../../../src/agent/messages';
import type { HookSettings } from '../../../src/agent/settings';

const hooks = (o: Partial<HookSettings> = {}): HookSettings => ({ ...DEFAULT_SETTINGS.hooks, ...o });
const tool = (server: string, bareName: string): ToolInfo => ({
  server, bareName, qualifiedName: `${server}__${bareName}`, description: '', inputSchema: {}, annotations: {}, isHook: bareName.startsWith('_'),
});

test('gate decision: a decline or a spent budget gets a final verdict, budget arithmetic, 0 disables', () => {
  assert.deepEqual(decideGate({ rejectionsUsed: 0, afterObjection: true }, hooks()), { kind: 'verdict', cause: 'declined' });
  assert.deepEqual(decideGate({ rejectionsUsed: 0, afterObjection: true }, hooks({ repeatedEndTurnStops: false })), { kind: 'call_hooks' });
  assert.deepEqual(decideGate({ rejectionsUsed: 3, afterObjection: false }, hooks()), { kind: 'verdict', cause: 'budget_exhausted' });
  assert.deepEqual(decideGate({ rejectionsUsed: 3, afterObjection: true }, hooks()), { kind: 'verdict', cause: 'declined' }, 'a decline gets its verdict too');
  assert.deepEqual(decideGate({ rejectionsUsed: 2, afterObjection: false }, hooks()), { kind: 'call_hooks' });
  assert.deepEqual(decideGate({ rejectionsUsed: 0, afterObjection: false }, hooks({ stopMaxRejections: 0 })), { kind: 'finish', cause: 'budget_exhausted' });
  assert.equal(budgetAtPromptStart(2, hooks()), 2);
  assert.equal(budgetAtPromptStart(2, hooks({ stopBudgetScope: 'prompt' })), 0);
});

test('allowlist use and objection ordering follow server configuration order', () => {
  const tools = [tool('b', '_Stop'), tool('a', '_Stop'), tool('a', 'read'), tool('c', '_Stop'), tool('c', '_PostCompact')];
  const order = ['a', 'b', 'c'];
  assert.deepEqual(serversWithHook(tools, { kind: 'all' }, '_Stop', order), ['a', 'b', 'c']);
  assert.deepEqual(serversWithHook(tools, { kind: 'names', names: ['c', 'b'] }, '_Stop', order), ['b', 'c']);
  assert.deepEqual(serversWithHook(tools, { kind: 'names', names: ['C'] }, '_Stop', order), [], 'names are case-sensitive');
  assert.deepEqual(serversWithHook(tools, { kind: 'all' }, '_PostCompact', order), ['c']);
  assert.deepEqual([...ignoredHookServers(tools, { kind: 'names', names: ['a'] })], [['b', ['_Stop']], ['c', ['_Stop', '_PostCompact']]]);
  const objections = collectObjections(
    [
      { server: 'c', hook: '_Stop', result: 'objection', text: 'C', replied: true },
      { server: 'a', hook: '_Stop', result: 'objection', text: 'A', replied: true },
      { server: 'b', hook: '_Stop', result: 'error', text: 'isError text is not an objection', replied: true },
      { server: 'd', hook: '_Stop', result: 'timeout', text: '', replied: false },
    ],
    order,
  );
  assert.deepEqual(objections, [{ server: 'a', text: 'A' }, { server: 'c', text: 'C' }]);
});

test('estimate, threshold and the round plan', () => {
  const history: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(400) }, { role: 'assistant', content: 'y'.repeat(400) }];
  assert.equal(estimatePromptTokens({ history, lastUsage: null, usageMessageCount: 0 }, 200), 250);
  const usage = { promptTokens: 1000, completionTokens: 0, totalTokens: 1000 };
  assert.equal(estimatePromptTokens({ history, lastUsage: usage, usageMessageCount: 1 }, 200), 1100);
  assert.equal(shouldCompact(801, { compactThreshold: 0.8, contextWindowTokens: 1000 }), true);
  assert.equal(shouldCompact(800, { compactThreshold: 0.8, contextWindowTokens: 1000 }), false);
  const base = { rounds: 0, maxRounds: 0, estimate: 10, compactedThisRound: false, limit: 800, window: 1000 };
  assert.deepEqual(planRound(base), { kind: 'call_model' });
  assert.deepEqual(planRound({ ...base, rounds: 5, maxRounds: 5 }), { kind: 'finish', reason: 'max_rounds' });
  assert.deepEqual(planRound({ ...base, rounds: 500 }), { kind: 'call_model' }, '0 means no cap');
  assert.deepEqual(planRound({ ...base, estimate: 900 }), { kind: 'compact' });
  assert.deepEqual(planRound({ ...base, estimate: 900, compactedThisRound: true }), { kind: 'call_model' });
  assert.equal(planRound({ ...base, estimate: 1200, compactedThisRound: true }).kind, 'finish', 'never send an over-long request');
});

test('the fallback drops whole oldest turns and keeps tool pairs intact', () => {
  const turn = (n: number, size: number): ChatMessage[] => [
    { role: 'user', content: `prompt ${n}` },
    { role: 'assistant', content: null, toolCalls: [{ id: `c${n}`, name: 's__t', arguments: '{}' }] },
    { role: 'tool', toolCallId: `c${n}`, content: 'r'.repeat(size) },
    { role: 'assistant', content: `answer ${n}` },
  ];
  const history = [...turn(1, 100), ...turn(2, 100), ...turn(3, 100)];
  assert.equal(splitTurns(history).length, 3);
  const fits = (limit: number) => (h: ChatMessage[]) => h.reduce((n, m) => n + (m.content ?? '').length, 0) <= limit;
  const dropped = dropOldestTurns(history, fits(200));
  assert.equal(dropped?.dropped, 8);
  assert.equal(dropped?.history[0]?.content, 'prompt 3');
  const inner = dropOldestTurns(turn(4, 5000).concat([{ role: 'assistant', content: 'tail' }]), fits(100));
  assert.deepEqual(inner?.history, [{ role: 'user', content: 'prompt 4' }, { role: 'assistant', content: 'answer 4' }, { role: 'assistant', content: 'tail' }]);
  assert.ok(isValidHistory(inner?.history ?? []));
  assert.equal(dropOldestTurns([{ role: 'user', content: 'x'.repeat(500) }], fits(100)), null);
});

test('the summariser input keeps the start and the end within its budget', () => {
  const history: ChatMessage[] = [{ role: 'user', content: `TASK ${'a'.repeat(5000)}` }, { role: 'assistant', content: `${'b'.repeat(5000)} LATEST` }];
  const text = renderForSummary(history, 2000);
  assert.ok(text.length <= 2000);
  assert.ok(text.startsWith('USER: TASK'));
  assert.ok(text.endsWith('LATEST'));
});

test('tool argument parsing and result truncation', () => {
  assert.deepEqual(parseToolArguments(''), { ok: true, value: {} });
  assert.deepEqual(parseToolArguments('{"a":1}'), { ok: true, value: { a: 1 } });
  assert.equal(parseToolArguments('{').ok, false);
  assert.equal(parseToolArguments('"str"').ok, false);
  assert.equal(truncateToolResult('abc', 3), 'abc');
  assert.equal(truncateToolResult('abcdef', 2), 'ab\n[result truncated: 4 more characters]');
  assert.equal(truncateToolResult('a😀b', 2), 'a\n[result truncated: 3 more characters]', 'never splits a surrogate pair');
});
