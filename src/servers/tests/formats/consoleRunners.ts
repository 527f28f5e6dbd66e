/**
 * Runners whose only output is text for people, read exactly or not at all. jasmine: `N specs,
 * M failures(, K pending specs)` and the numbered `Failures:` list (`Message:` and `Stack:` per spec).
 * uvu: `Total: N` (run tests, skipped ones not included), `Passed:`, `Skipped:`, and a `FAIL suite
 * "test"` block per failure under its file's heading. bun test's and deno test's own text (when no
 * JUnit file was asked for): bun's `N pass` / `N fail` / `N skip` and `(fail) name` lines, deno's
 * `ok | 4 passed | 0 failed | 1 ignored` line and its `FAILURES` list with each test's location.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, countOf, displayPath, stackLocation } from './failureText';

export function parseJasmine(output: string, root: string): ParsedTestReport | undefined {
  const summary = [...output.matchAll(/^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?/gm)].pop();
  if (!summary) return undefined;
  const failures: TestFailure[] = [];
  const section = output.indexOf('\nFailures:\n');
  const lines = section < 0 ? [] : output.slice(section + 1).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^\d+\) (.+)$/.exec(lines[i] ?? '');
    if (!head) continue;
    if (/^Pending:/.test(lines[i - 1] ?? '') || failures.length >= Number(summary[2])) break;
    const block: string[] = [];
    while (i + 1 < lines.length && !/^\d+\) |^Pending:|^\d+ specs?,/.test(lines[i + 1] ?? '')) block.push(lines[++i] ?? '');
    const stack = block.findIndex((l) => /^\s*Stack:/.test(l));
    const message = block.slice(0, stack < 0 ? block.length : stack).filter((l) => !/^\s*Message:\s*$/.test(l));
    const at = stackLocation(block.join('\n'), root);
    failures.push({ name: head[1] ?? '', ...(at ? { file: at.file, line: at.line } : {}), message: cleanMessage(message.join('\n')) });
  }
  const specs = Number(summary[1]);
  const failed = Number(summary[2]);
  const pending = Number(summary[3] ?? 0);
  return { format: 'jasmine-text', passed: Math.max(0, specs - failed - pending), failed, skipped: pending, failures };
}

export function parseUvu(output: string, root: string): ParsedTestReport | undefined {
  const total = /^\s*Total:\s+(\d+)\s*$/m.exec(output);
  const passed = /^\s*Passed:\s+(\d+)\s*$/m.exec(output);
  if (!total || !passed) return undefined;
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  let file: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const heading = /^(\S+\.[cm]?[jt]sx?)$/.exec(lines[i] ?? '');
    if (heading) file = heading[1];
    const head = /^\s*FAIL\s+(?:(.+?)\s+)?"(.+)"\s*$/.exec(lines[i] ?? '');
    if (!head) continue;
    const block: string[] = [];
    while (i + 1 < lines.length && !/^\s*FAIL\s|^\s*Total:|^\S+\.[cm]?[jt]sx?$/.test(lines[i + 1] ?? '')) block.push(lines[++i] ?? '');
    const at = stackLocation(block.join('\n'), root);
    failures.push({
      name: head[1] ? `${head[1]} > ${head[2]}` : (head[2] ?? ''),
      ...(at ? { file: at.file, line: at.line } : file ? { file } : {}),
      message: cleanMessage(block.join('\n')),
    });
  }
  const run = Number(total[1]);
  return { format: 'uvu-text', passed: Number(passed[1]), failed: Math.max(0, run - Number(passed[1])), skipped: countOf(output, /^\s*Skipped:\s+(\d+)\s*$/m), failures };
}

export function parseBunText(output: string, root: string): ParsedTestReport | undefined {
  if (!/^Ran \d+ tests? across \d+ files?\./m.test(output)) return undefined;
  const failures: TestFailure[] = [];
  let file: string | undefined;
  let block: string[] = [];
  for (const line of output.split('\n')) {
    const heading = /^(\S+\.[cm]?[jt]sx?):$/.exec(line);
    if (heading) file = displayPath(root, heading[1] ?? '');
    const result = /^\((pass|fail|skip|todo)\) (.+?)(?: \[[\d.]+m?s\])?$/.exec(line);
    if (!result) {
      block.push(line);
      continue;
    }
    if (result[1] === 'fail') {
      const at = stackLocation(block.join('\n'), root, file);
      const error = block.findIndex((l) => /^error: /.test(l));
      const message = cleanMessage(block.slice(error < 0 ? block.length : error).join('\n').replace(/^error: /, ''));
      failures.push({ name: result[2] ?? '', ...(file ? { file } : {}), ...(at && at.file === file ? { line: at.line } : {}), message });
    }
    block = [];
  }
  return { format: 'bun-text', passed: countOf(output, /^\s*(\d+) pass$/m), failed: countOf(output, /^\s*(\d+) fail$/m), skipped: countOf(output, /^\s*(\d+) skip$/m) + countOf(output, /^\s*(\d+) todo$/m), failures };
}

export function parseDenoText(output: string, root: string): ParsedTestReport | undefined {
  const summary = /^(?:ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \((\d+) steps?\))?(?: \| (\d+) ignored)?/m.exec(output);
  if (!summary) return undefined;
  const failures: TestFailure[] = [];
  const section = output.lastIndexOf('\n FAILURES');
  for (const line of section < 0 ? [] : output.slice(section).split('\n')) {
    const entry = /^(.+?) => (\S+):(\d+):\d+$/.exec(line);
    if (!entry) continue;
    const name = entry[1] ?? '';
    const block = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} => \\S+\\n(?:error: )?([\\s\\S]*?)\\n\\s+at `, 'm').exec(output.slice(0, section));
    failures.push({ name, file: displayPath(root, entry[2] ?? ''), line: Number(entry[3]), message: cleanMessage(block?.[1] ?? '') });
  }
  return { format: 'deno-text', passed: Number(summary[1]), failed: Number(summary[3]), skipped: Number(summary[5] ?? 0), failures };
}
