/**
 * The text the JavaScript runners print when nobody asked for a machine format (a compound npm
 * script, pnpm or yarn, `make test`): jest's `● suite › test` blocks under `FAIL file`, vitest's
 * `FAIL file > suite > test` blocks between `⎯` rules, and mocha's numbered `1) suite test:` blocks
 * after `N failing`. Each block's message runs to the code frame or the stack, so `Expected:` /
 * `Received:` lines and diffs survive; the location is the first stack frame in the user's code.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, countOf, errorLineFirst, isStackFrame, stackLocation } from './failureText';

const CODE_FRAME = /^\s*>?\s*\d+\s*\|/;

/** Lines of a block up to its code frame or first stack frame. */
function messageLines(block: readonly string[]): string[] {
  const end = block.findIndex((l) => CODE_FRAME.test(l) || isStackFrame(l) || /^\s*❯ /.test(l));
  return end < 0 ? [...block] : block.slice(0, end);
}

function failureFrom(name: string, file: string | undefined, block: readonly string[], root: string): TestFailure {
  const frames = block.map((l) => l.replace(/^\s*❯ /, '    at '));
  const at = stackLocation(frames.join('\n'), root, file);
  return {
    name,
    ...(file ? { file } : {}),
    ...(at && (file === undefined || at.file === file) ? { line: at.line } : {}),
    message: cleanMessage(messageLines(block).join('\n')),
  };
}

/**
 * Counts from `3 failed, 1 skipped, 3 passed` / `3 failed | 3 passed` summaries, one per run and
 * summed (a monorepo's output holds one run per package); files that did not load count as failed.
 */
function fromSummary(format: string, summaries: readonly string[], failures: TestFailure[], suiteErrors: number): ParsedTestReport {
  const sum = (pattern: RegExp): number => summaries.reduce((n, summary) => n + countOf(summary, pattern), 0);
  return {
    format,
    passed: sum(/(\d+) passed/),
    failed: sum(/(\d+) failed/) + suiteErrors,
    skipped: sum(/(\d+) skipped/) + sum(/(\d+) todo/),
    failures,
  };
}

export function parseJestText(output: string, root: string): ParsedTestReport | undefined {
  const summaries = [...output.matchAll(/^Tests:\s+(.*\btotal)\s*$/gm)].map((m) => m[1] ?? '');
  if (summaries.length === 0) return undefined;
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  const seen = new Set<string>();
  let file: string | undefined;
  let suiteErrors = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fileHead = /^(?:FAIL|PASS) (\S+)/.exec(line);
    if (fileHead) file = fileHead[1];
    const head = /^ {2}● (.+)$/.exec(line);
    if (!head?.[1]) continue;
    const block: string[] = [];
    while (i + 1 < lines.length && !/^ {2}● |^(?:FAIL|PASS) |^Test Suites:|^Summary of all failing tests/.test(lines[i + 1] ?? '')) block.push(lines[++i] ?? '');
    const suiteError = /^Test suite failed to run/.test(head[1]);
    const name = suiteError ? `${file ?? '(unknown file)'} (test file failed to run)` : head[1].trim();
    if (suiteError) block.splice(0, block.length, ...errorLineFirst(block.join('\n')).split('\n'));
    const key = `${file ?? ''}\0${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (suiteError) suiteErrors++;
    failures.push(failureFrom(name, file, block, root));
  }
  return fromSummary('jest-text', summaries, failures, suiteErrors);
}

export function parseVitestText(output: string, root: string): ParsedTestReport | undefined {
  const summaries = [...output.matchAll(/^\s*Tests\s+(.*\(\d+\))\s*$/gm)].map((m) => m[1] ?? '');
  if (summaries.length === 0) return undefined;
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  let suiteErrors = 0;
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*FAIL\s+(\S+?)(?: > (.+?))?(?:\s+\[ .* \])?\s*$/.exec(lines[i] ?? '');
    if (!head?.[1]) continue;
    const block: string[] = [];
    while (i + 1 < lines.length && !/^\s*(?:⎯|FAIL\s|Test Files\s)/.test(lines[i + 1] ?? '')) block.push(lines[++i] ?? '');
    if (!head[2]) suiteErrors++;
    const name = head[2] ? `${head[1]} > ${head[2]}` : `${head[1]} (test file failed to run)`;
    failures.push(failureFrom(name, head[1], block, root));
  }
  return fromSummary('vitest-text', summaries, failures, suiteErrors);
}

/** Mocha's `spec` reporter (its default). */
export function parseMochaText(output: string, root: string): ParsedTestReport | undefined {
  const passing = /^\s+(\d+) passing \(/m.exec(output);
  if (!passing) return undefined;
  const failing = /^\s+(\d+) failing\s*$/m.exec(output);
  const lines = output.slice(failing ? failing.index : output.length).split('\n');
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^ {2}\d+\) (.*)$/.exec(lines[i] ?? '');
    if (!head) continue;
    const title = [head[1] ?? ''];
    while (!title[title.length - 1]?.endsWith(':') && i + 1 < lines.length && (lines[i + 1] ?? '').trim() !== '') title.push((lines[++i] ?? '').trim());
    const block: string[] = [];
    // Mocha indents its own lines by six spaces; a message's further lines start at column 0.
    while (i + 1 < lines.length && !/^ {2}\d+\) /.test(lines[i + 1] ?? '')) block.push((lines[++i] ?? '').replace(/^ {5,6}/, ''));
    const at = stackLocation(block.join('\n'), root);
    failures.push({
      name: title.join(' ').replace(/:$/, '').trim(),
      ...(at ? { file: at.file, line: at.line } : {}),
      message: cleanMessage(messageLines(block).join('\n')),
    });
  }
  return {
    format: 'mocha-text',
    passed: Number(passing[1]),
    failed: Number(failing?.[1] ?? 0),
    skipped: countOf(output, /^\s+(\d+) pending\s*$/m),
    failures,
  };
}
