/**
 * Runners of other languages that a configured command or a Makefile runs, read from the text they
 * print for people (recorded from RSpec 3.12, PHPUnit 9.6, CTest 3.25 and prove 3.44: test/fixtures/outputs).
 * Each reader answers only when it finds its runner's own summary, and each runner's "nothing ran"
 * (`0 examples`, `No tests executed!`, `No tests were found!!!`, `Result: NOTESTS`) is read as a
 * report with zero tests, so the verdict is `no_tests`, never a pass (all four exit 0 there).
 *
 * RSpec: `N examples, M failures(, K pending)`, failures from `rspec ./file:line # name` and the
 * numbered `Failures:` blocks. PHPUnit: `OK (N tests, ...)` or `Tests: N, Assertions: A, Failures:
 * F, ...`, failures from the numbered `Class::method` blocks with their `file:line`. CTest: `P% tests
 * passed, F tests failed out of N` and the `The following tests FAILED:` list. prove: `Files=F,
 * Tests=N` and `Result:`, failures from Test::More's `#   Failed test 'name'`.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, displayPath } from './failureText';

const zero = (format: string): ParsedTestReport => ({ format, passed: 0, failed: 0, skipped: 0, failures: [] });

/** The numbered blocks after `heading` (`  1) name` up to the next one or `stop`). */
function numberedBlocks(output: string, heading: RegExp, stop: RegExp): { name: string; body: string[] }[] {
  const start = heading.exec(output);
  if (!start) return [];
  const blocks: { name: string; body: string[] }[] = [];
  for (const line of output.slice(start.index + start[0].length).split('\n')) {
    if (stop.test(line)) break;
    const head = /^\s*\d+\) (\S.*)$/.exec(line);
    if (head) blocks.push({ name: (head[1] ?? '').trim(), body: [] });
    else blocks[blocks.length - 1]?.body.push(line);
  }
  return blocks;
}

export function parseRspec(output: string, root: string): ParsedTestReport | undefined {
  const summary = [...output.matchAll(/^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?/gm)].pop();
  if (!summary) return undefined;
  const examples = Number(summary[1]);
  const failed = Number(summary[2]);
  const skipped = Number(summary[3] ?? 0);
  const blocks = new Map(numberedBlocks(output, /^Failures:\n/m, /^Finished in |^\d+ examples?, /).map((b) => [b.name, b.body]));
  const failures: TestFailure[] = [];
  for (const match of output.matchAll(/^rspec (\.\/\S+?):(\d+) # (.+)$/gm)) {
    const name = (match[3] ?? '').trim();
    const body = blocks.get(name) ?? [];
    const at = body.map((l) => /^\s*# (\.?\/?\S+?):(\d+)(?::in\b|$)/.exec(l)).find((m) => m && !m[1]?.includes('/gems/'));
    const file = displayPath(root, (at?.[1] ?? match[1] ?? '').replace(/^\.\//, ''));
    failures.push({ name, file, line: Number(at?.[2] ?? match[2]), message: cleanMessage(body.filter((l) => !/^\s*# /.test(l)).join('\n')) });
  }
  return { format: 'rspec', passed: Math.max(0, examples - failed - skipped), failed, skipped, failures };
}

/** `Tests: 2, Assertions: 2, Failures: 1, Skipped: 1.` as a map of its counts. */
function phpunitCounts(line: string): Map<string, number> {
  return new Map([...line.matchAll(/(\w+): (\d+)/g)].map((m) => [m[1] ?? '', Number(m[2])]));
}

export function parsePhpunit(output: string, root: string): ParsedTestReport | undefined {
  if (/^No tests executed!$/m.test(output)) return zero('phpunit');
  const ok = [...output.matchAll(/^OK \((\d+) tests?, \d+ assertions?\)/gm)].pop();
  if (ok) return { format: 'phpunit', passed: Number(ok[1]), failed: 0, skipped: 0, failures: [] };
  const line = [...output.matchAll(/^Tests: \d+, Assertions: \d+.*$/gm)].pop()?.[0];
  if (line === undefined) return undefined;
  const counts = phpunitCounts(line);
  const get = (key: string): number => counts.get(key) ?? 0;
  const failed = get('Failures') + get('Errors');
  const skipped = get('Skipped') + get('Incomplete');
  const failures: TestFailure[] = [];
  for (const heading of [/^There (?:was|were) \d+ failures?:\n/m, /^There (?:was|were) \d+ errors?:\n/m]) {
    for (const block of numberedBlocks(output, heading, /^(?:There (?:was|were) \d+ \w+:|FAILURES!|ERRORS!|OK, but|Tests: \d+)/)) {
      if (!/::/.test(block.name)) continue;
      const at = [...block.body].reverse().map((l) => /^(\/\S+|[\w.-]+\/\S+):(\d+)$/.exec(l.trim())).find(Boolean);
      const message = block.body.filter((l) => !/^(\/\S+|[\w.-]+\/\S+):\d+$/.test(l.trim())).join('\n');
      failures.push({ name: block.name, ...(at ? { file: displayPath(root, at[1] ?? ''), line: Number(at[2]) } : {}), message: cleanMessage(message) });
    }
  }
  return { format: 'phpunit', passed: Math.max(0, get('Tests') - failed - skipped), failed, skipped, failures };
}

export function parseCtest(output: string): ParsedTestReport | undefined {
  if (/^No tests were found!!!$/m.test(output)) return zero('ctest');
  const summary = [...output.matchAll(/^\d+% tests passed, (\d+) tests? failed out of (\d+)/gm)].pop();
  if (!summary) return undefined;
  const failed = Number(summary[1]);
  const total = Number(summary[2]);
  const list = output.slice(output.indexOf('The following tests FAILED:'));
  const failures = output.includes('The following tests FAILED:')
    ? [...list.matchAll(/^\s+\d+ - (\S.*?) \((\w[\w ]*)\)$/gm)].map((m) => ({ name: m[1] ?? '', message: m[2] ?? '' }))
    : [];
  const skipped = [...output.matchAll(/\*\*\*(?:Not Run|Skipped)\b/g)].length;
  return { format: 'ctest', passed: Math.max(0, total - failed - skipped), failed, skipped, failures };
}

export function parseProve(output: string): ParsedTestReport | undefined {
  const totals = [...output.matchAll(/^Files=(\d+), Tests=(\d+),/gm)].pop();
  const result = /^Result: (PASS|FAIL|NOTESTS)$/m.exec(output)?.[1];
  if (!totals || result === undefined) return undefined;
  if (result === 'NOTESTS' || Number(totals[2]) === 0) return zero('prove');
  const failed = [...output.matchAll(/^\S.*\(Wstat: .*Tests: \d+ Failed: (\d+)\)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  const failures: TestFailure[] = [...output.matchAll(/^#\s+Failed test '(.+)'\n#\s+at (\S+) line (\d+)\./gm)].map((m) => ({ name: m[1] ?? '', file: m[2] ?? '', line: Number(m[3]), message: '' }));
  return { format: 'prove', passed: Math.max(0, Number(totals[2]) - failed), failed: Math.max(failed, failures.length), skipped: 0, failures };
}

interface RspecExample {
  full_description?: string;
  status?: string;
  file_path?: string;
  line_number?: number;
  exception?: { class?: string; message?: string; backtrace?: string[] };
}

/**
 * RSpec's JSON formatter (`--format json --out FILE`): every example with its status, and each
 * failure's exception, message and backtrace (the first frame in the spec file is the assertion's
 * line). Errors outside examples (a spec file that does not load) count as failures.
 */
export function parseRspecJson(text: string, root: string): ParsedTestReport | undefined {
  let data: { examples?: RspecExample[]; summary?: { example_count?: number; errors_outside_of_examples_count?: number }; messages?: string[] };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    return undefined;
  }
  if (!Array.isArray(data.examples) || data.summary === undefined) return undefined;
  const failures: TestFailure[] = [];
  let passed = 0;
  let skipped = 0;
  for (const example of data.examples) {
    if (example.status === 'passed') passed++;
    else if (example.status === 'pending') skipped++;
    else if (example.status === 'failed') {
      const file = (example.file_path ?? '').replace(/^\.\//, '');
      const frame = (example.exception?.backtrace ?? []).map((l) => /^(.+?):(\d+)(?::in\b|$)/.exec(l)).find((m) => m && m[1]?.replace(/^\.\//, '').endsWith(file));
      const message = `${example.exception?.class ?? ''}: ${example.exception?.message ?? ''}`;
      failures.push({ name: example.full_description ?? '', file: displayPath(root, file), line: Number(frame?.[2] ?? example.line_number ?? 0), message: cleanMessage(message) });
    }
  }
  const outside = data.summary.errors_outside_of_examples_count ?? 0;
  for (const message of outside > 0 ? (data.messages ?? []).slice(0, outside) : []) failures.push({ name: 'error outside of examples', message: cleanMessage(message) });
  return { format: 'rspec-json', passed, failed: failures.length, skipped, failures };
}

/**
 * Maven Surefire (and Failsafe): each module's `Results:` totals line, `Tests run: N, Failures: F,
 * Errors: E, Skipped: S` (the per-class lines end in `Time elapsed`, so they are not summed twice),
 * summed over a reactor's modules; failures from the `[ERROR] Failures:`/`[ERROR] Errors:` lists
 * (`[ERROR]   CalcTest.multiplies:6 expected: <5> but was: <4>`). The XML it leaves in
 * target/surefire-reports says more and is read first when it is there (leftReports.ts).
 */
export function parseSurefire(output: string): ParsedTestReport | undefined {
  const totals = [...output.matchAll(/^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$/gm)];
  if (totals.length === 0) return undefined;
  let run = 0;
  let failed = 0;
  let skipped = 0;
  for (const t of totals) {
    run += Number(t[1]);
    failed += Number(t[2]) + Number(t[3]);
    skipped += Number(t[4]);
  }
  const failures: TestFailure[] = [];
  let inList = false;
  for (const line of output.split('\n')) {
    if (/^\[ERROR\] (?:Failures|Errors): ?$/.test(line)) {
      inList = true;
      continue;
    }
    const entry = inList ? /^\[ERROR\]\s{2,}(?!Run \d+:)([\w$.]+?)(?::(\d+))?\s+(\S.*)?$/.exec(line) : null;
    if (entry) failures.push({ name: entry[1] ?? '', message: cleanMessage(entry[3] ?? '') });
    else if (!/^\[ERROR\]\s{2,}/.test(line)) inList = false;
  }
  return { format: 'surefire-text', passed: Math.max(0, run - failed - skipped), failed, skipped, failures };
}

/**
 * `dotnet test`: one summary line per test assembly, `Passed!  - Failed: 0, Passed: 3, Skipped: 0,
 * Total: 3, Duration: ...` (or `Failed!  - ...`), summed; failing tests from `  Failed Name [4 ms]`.
 */
export function parseDotnet(output: string): ParsedTestReport | undefined {
  const lines = [...output.matchAll(/^\s*(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),\s+Skipped:\s+(\d+),\s+Total:\s+\d+/gm)];
  if (lines.length === 0) return undefined;
  const sum = (i: number): number => lines.reduce((n, l) => n + Number(l[i]), 0);
  const failures = [...output.matchAll(/^\s+Failed (\S+) \[[^\]]*\]\s*$/gm)].map((m) => ({ name: m[1] ?? '', message: '' }));
  return { format: 'dotnet-text', passed: sum(2), failed: sum(1), skipped: sum(3), failures };
}
