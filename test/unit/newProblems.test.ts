// The Problems completion check's decision: only errors of changed files that the prompt's snapshot
// did not have are new; moved errors stay old; other severities and unchanged files never count. An
// editor edit's files add what they had just before it to the "before", per message the larger count.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { beforeEdit, newErrors, type Problem } from '../../src/agent/newProblems';

const p = (file: string, line: number, message: string, extra: Partial<Problem> = {}): Problem => ({ file, line, column: 1, severity: 'error', message, source: 'ts', code: '2322', ...extra });

test('an error that was there before (even on another line) is old; a new one is listed', () => {
  const before = [p('src/a.ts', 3, "Type 'string' is not assignable to type 'number'.")];
  const now = [p('src/a.ts', 7, "Type 'string' is not assignable to type 'number'."), p('src/a.ts', 9, "Cannot find name 'totl'.", { code: '2304' })];
  assert.deepEqual(newErrors(before, now, new Set(['src/a.ts'])).map((e) => [e.file, e.line, e.code]), [['src/a.ts', 9, '2304']]);
});

test('errors of files the turn did not change never object, nor do warnings', () => {
  const now = [p('src/old.ts', 1, 'broken before'), p('src/a.ts', 2, 'unused', { severity: 'warning' })];
  assert.deepEqual(newErrors([], now, new Set(['src/a.ts'])), []);
});

test('a second copy of an old message is new (a multiset)', () => {
  const before = [p('a.ts', 1, 'same')];
  const now = [p('a.ts', 1, 'same'), p('a.ts', 5, 'same')];
  assert.deepEqual(newErrors(before, now, new Set(['a.ts'])).map((e) => e.line), [5]);
});

test('the same message from another source counts as new', () => {
  const before = [p('a.ts', 1, 'x', { source: 'eslint', code: 'no-undef' })];
  assert.equal(newErrors(before, [p('a.ts', 1, 'x')], new Set(['a.ts'])).length, 1);
});

test("an edit's file that no one had open keeps the errors it had just before the edit as old; the edit's own is new", () => {
  // The prompt's snapshot knows nothing of b.ts (it was never open); just before the rename it has one old error.
  const snapshot = [p('a.ts', 1, 'old in a')];
  const justBefore = [p('b.ts', 3, "Type 'string' is not assignable to type 'number'."), p('a.ts', 1, 'old in a'), p('c.ts', 1, 'not edited')];
  const before = beforeEdit(snapshot, justBefore, new Set(['b.ts']));
  assert.deepEqual(before.map((e) => [e.file, e.line]), [['a.ts', 1], ['b.ts', 3]], 'only the edited file joins, once');
  const now = [p('b.ts', 3, "Type 'string' is not assignable to type 'number'."), p('b.ts', 9, 'Duplicate function implementation.', { code: '2393' })];
  assert.deepEqual(newErrors(before, now, new Set(['b.ts'])).map((e) => [e.file, e.line, e.code]), [['b.ts', 9, '2393']]);
  // Without the errors from just before the edit, the old one would object too.
  assert.equal(newErrors(snapshot, now, new Set(['b.ts'])).length, 2);
});

test('per file and message the larger count stays: an error known at the prompt is not doubled, a second copy just before joins', () => {
  const snapshot = [p('b.ts', 1, 'same'), p('b.ts', 2, 'other')];
  const justBefore = [p('b.ts', 4, 'same'), p('b.ts', 5, 'same')];
  const before = beforeEdit(snapshot, justBefore, new Set(['b.ts']));
  assert.deepEqual(before.map((e) => [e.line, e.message]), [[1, 'same'], [2, 'other'], [5, 'same']]);
  // The snapshot's 'other' stays old even though it was not reported just before (a report not in yet).
  assert.deepEqual(newErrors(before, [p('b.ts', 1, 'same'), p('b.ts', 2, 'same'), p('b.ts', 3, 'other')], new Set(['b.ts'])), []);
});

test('nothing joins for files not being edited (a file the turn already changed keeps the prompt\'s before)', () => {
  const snapshot = [p('a.ts', 1, 'old')];
  assert.deepEqual(beforeEdit(snapshot, [p('a.ts', 2, 'introduced earlier in the turn')], new Set()), snapshot);
});
