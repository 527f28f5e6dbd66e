// The Problems completion check's decision: only errors of changed files that the prompt's snapshot
// did not have are new; moved errors stay old; other severities and unchanged files never count.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { newErrors, type Problem } from '../../src/agent/newProblems';

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
