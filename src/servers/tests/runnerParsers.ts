/**
 * Parsers for runners' human-readable output: node's `spec` reporter, jest, vitest, pytest, go test
 * and a generic `N passed, N failed` summary (cargo, mocha and many others). Each returns undefined
 * when the output is not its format, so they can be tried in turn.
 */
import { firstLines, lastNumber, type ParsedTestReport, type TestFailure } from './testReport';

/** The message lines that follow a failure header, up to a blank line or the next header. */
function messageAfter(lines: readonly string[], from: number, stop: RegExp): string {
  const out: string[] = [];
  for (let i = from; i < lines.length && out.length < 6; i++) {
    const line = lines[i] ?? '';
    if (stop.test(line)) break;
    if (line.trim() === '') {
      if (out.length > 0) break;
      continue;
    }
    if (/^\s+at /.test(line)) break;
    out.push(line);
  }
  return firstLines(out.join('\n'));
}

export function parseNodeSpec(output: string): ParsedTestReport | undefined {
  const passed = lastNumber(output, /^ℹ pass (\d+)/gm);
  const failed = lastNumber(output, /^ℹ fail (\d+)/gm);
  if (passed === undefined || failed === undefined) return undefined;
  const failures: TestFailure[] = [];
  const section = output.indexOf('✖ failing tests:');
  if (section >= 0) {
    const lines = output.slice(section).split('\n').slice(1);
    lines.forEach((line, i) => {
      const head = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/.exec(line);
      if (head) failures.push({ name: head[1] ?? '', message: messageAfter(lines, i + 1, /^\s*(✖|test at )/) });
    });
  }
  return { format: 'node-spec', passed, failed, failures };
}

export function parseJestOrVitest(output: string): ParsedTestReport | undefined {
  const jest = /^Tests:\s+(.*)$/m.exec(output);
  const vitest = /^\s*Tests\s+(.*\(\d+\))\s*$/m.exec(output);
  const summary = jest?.[1] ?? vitest?.[1];
  if (summary === undefined) return undefined;
  const passed = Number(/(\d+) passed/.exec(summary)?.[1] ?? 0);
  const failed = Number(/(\d+) failed/.exec(summary)?.[1] ?? 0);
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    const head = /^\s*● (.+)$/.exec(line) ?? /^\s*FAIL\s+(.+ > .+?)(?:\s+\[.*\])?\s*$/.exec(line);
    const name = head?.[1]?.trim();
    if (!name || seen.has(name) || /^Test suite failed to run/.test(name)) return;
    seen.add(name);
    failures.push({ name, message: messageAfter(lines, i + 1, /^\s*(●|FAIL\s|⎯)/) });
  });
  return { format: jest ? 'jest' : 'vitest', passed, failed, failures };
}

export function parsePytest(output: string): ParsedTestReport | undefined {
  const summary = /^=+ (.*\b(?:passed|failed|error|errors)\b.*) in [\d.]+s.* =+\s*$/m.exec(output);
  if (!summary?.[1]) return undefined;
  const passed = Number(/(\d+) passed/.exec(summary[1])?.[1] ?? 0);
  const failed = Number(/(\d+) failed/.exec(summary[1])?.[1] ?? 0) + Number(/(\d+) errors?/.exec(summary[1])?.[1] ?? 0);
  const failures: TestFailure[] = [];
  for (const match of output.matchAll(/^(?:FAILED|ERROR) (\S+)(?: - (.*))?$/gm)) {
    failures.push({ name: match[1] ?? '', message: firstLines(match[2] ?? '') });
  }
  return { format: 'pytest', passed, failed, failures };
}

export function parseGoTest(output: string): ParsedTestReport | undefined {
  if (!/^(?:--- (?:FAIL|PASS)|ok\s+\S+|FAIL\s+\S+)/m.test(output)) return undefined;
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  lines.forEach((line, i) => {
    const head = /^\s*--- FAIL: (\S+)/.exec(line);
    if (head) failures.push({ name: head[1] ?? '', message: messageAfter(lines, i + 1, /^\s*(---|FAIL|ok\s|===)/) });
  });
  const passed = (output.match(/^\s*--- PASS/gm) ?? []).length;
  if (failures.length === 0 && passed === 0 && !/^FAIL\s/m.test(output)) return undefined;
  return { format: 'go', passed, failed: failures.length, failures };
}

/** `3 passed, 1 failed` / `3 passing` / `test result: FAILED. 3 passed; 1 failed` and the like. */
export function parseSummary(output: string): ParsedTestReport | undefined {
  const passed = lastNumber(output, /(\d+) (?:passed|passing|pass)\b/gi);
  const failed = lastNumber(output, /(\d+) (?:failed|failing|failures?|fail)\b/gi);
  if (passed === undefined && failed === undefined) return undefined;
  const failures: TestFailure[] = [];
  for (const match of output.matchAll(/^\s*(?:✗|✖|×|FAIL:?|failed:?)\s+(\S.*)$/gim)) {
    if (failures.length < 50) failures.push({ name: (match[1] ?? '').trim(), message: '' });
  }
  return { format: 'summary', passed: passed ?? 0, failed: failed ?? 0, failures };
}
