/**
 * Turns one run into counts and failing tests: the runner's machine report first (the file the server
 * asked it to write, or JSON it printed), then that runner's own text, then every known text format,
 * most specific first, and last a plain `N passed, N failed` summary. Undefined when nothing matched:
 * the caller then shows the output's tail instead.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { parseCargo } from './cargo';
import { parseBunText, parseDenoText, parseJasmine, parseUvu } from './consoleRunners';
import { parsePlaywrightJson } from './playwrightJson';
import { normaliseOutput } from './failureText';
import { parseGoJson, parseGoText } from './go';
import { parseJestJson } from './jestJson';
import { parseJestText, parseMochaText, parseVitestText } from './jsText';
import { parseJunit } from './junit';
import { parseMochaJson } from './mochaJson';
import { parseNodeSpec } from './nodeTest';
import { parseTap } from './tap';
import { parseCtest, parseDotnet, parsePhpunit, parseProve, parseRspec, parseRspecJson, parseSurefire } from './scriptRunners';
import { parsePytestText, parseUnittest } from './python';
import { parseGradle, ranNothingNow, withoutTaskPrefixes } from './taskRunners';

/** Which runner a command ends in: decides the flags it gets and the report read first. */
export type RunnerId =
  | 'jest'
  | 'vitest'
  | 'mocha'
  | 'node'
  | 'pytest'
  | 'unittest'
  | 'cargo'
  | 'go'
  | 'ava'
  | 'tap'
  | 'tape'
  | 'uvu'
  | 'jasmine'
  | 'playwright'
  | 'bun'
  | 'deno'
  | 'rspec'
  | 'phpunit'
  | 'ctest'
  | 'other';

type Parser = (text: string, root: string) => ParsedTestReport | undefined;

const MACHINE: Partial<Record<RunnerId, Parser>> = {
  jest: (t, r) => parseJestJson(t, r, 'jest-json'),
  vitest: (t, r) => parseJestJson(t, r, 'vitest-json'),
  mocha: parseMochaJson,
  pytest: (t, r) => parseJunit(t, r, 'pytest-junit'),
  playwright: parsePlaywrightJson,
  bun: (t, r) => parseJunit(t, r, 'bun-junit'),
  deno: (t, r) => parseJunit(t, r, 'deno-junit'),
  rspec: parseRspecJson,
  phpunit: (t, r) => parseJunit(t, r, 'phpunit-junit'),
  ctest: (t, r) => parseJunit(t, r, 'ctest-junit'),
};

const TEXT: Parser[] = [
  (t, r) => parseJunit(t, r),
  parseNodeSpec,
  parseTap,
  parseJestText,
  parseVitestText,
  parseMochaText,
  parsePytestText,
  parseUnittest,
  parseCargo,
  parseGoJson,
  parseGoText,
  parseJasmine,
  parseUvu,
  parseBunText,
  parseDenoText,
  parseRspec,
  parsePhpunit,
  parseCtest,
  parseProve,
  parseSurefire,
  parseDotnet,
  parseGradle,
];

const OWN_TEXT: Partial<Record<RunnerId, Parser>> = {
  jest: parseJestText,
  vitest: parseVitestText,
  mocha: (t, r) => parseMochaJson(t, r) ?? parseMochaText(t, r),
  node: (t, r) => parseNodeSpec(t, r) ?? parseTap(t, r),
  pytest: parsePytestText,
  unittest: parseUnittest,
  cargo: parseCargo,
  go: (t, r) => parseGoJson(t, r) ?? parseGoText(t, r),
  ava: parseTap,
  tap: parseTap,
  tape: parseTap,
  uvu: parseUvu,
  jasmine: parseJasmine,
  bun: parseBunText,
  deno: parseDenoText,
  rspec: parseRspec,
  phpunit: parsePhpunit,
  ctest: parseCtest,
};

function meaningful(report: ParsedTestReport | undefined): report is ParsedTestReport {
  return report !== undefined && (report.passed > 0 || report.failed > 0 || report.skipped > 0 || report.failures.length > 0);
}

export interface RunOutput {
  runner: RunnerId;
  /** stdout and stderr as they arrived. */
  output: string;
  /** The report file's text, when the runner was asked to write one and did. */
  report?: string;
  root: string;
}

/**
 * Vitest's JSON keeps only an assertion's first line; its text, printed beside it, has the diff.
 * The text's message wins where it says more about the same test.
 */
function withVitestDiffs(report: ParsedTestReport, output: string, root: string): ParsedTestReport {
  const text = parseVitestText(output, root);
  if (!text) return report;
  const byName = new Map(text.failures.map((f) => [f.name, f.message]));
  const failures = report.failures.map((f) => {
    const richer = byName.get(`${f.file ?? ''} > ${f.name}`);
    return richer && richer.length > f.message.length ? { ...f, message: richer } : f;
  });
  return { ...report, failures };
}

export function readReport(run: RunOutput): ParsedTestReport | undefined {
  const output = withoutTaskPrefixes(normaliseOutput(run.output));
  const machine = MACHINE[run.runner];
  if (machine && run.report !== undefined) {
    const parsed = machine(run.report, run.root);
    if (parsed) return run.runner === 'vitest' ? withVitestDiffs(parsed, output, run.root) : parsed;
  }
  // A reader returns a report only when it found its runner's summary, so a zero count is a real zero
  // ("0 passing"): it is kept unless a later reader finds tests in the same output.
  const own = OWN_TEXT[run.runner]?.(output, run.root);
  if (meaningful(own)) return own;
  let zero = own;
  for (const parse of TEXT) {
    const report = parse(output, run.root);
    if (meaningful(report)) return report;
    zero ??= report;
  }
  return zero ?? (ranNothing(output) ? { format: 'nothing-ran', passed: 0, failed: 0, skipped: 0, failures: [] } : parseSummary(output));
}

/**
 * Each runner's own words for "nothing ran", read when no summary with counts was found: a run is
 * PASSED only with positive evidence that tests ran, whatever its exit code (`--passWithNoTests`,
 * an empty solution, a `-run` pattern that matched nothing).
 */
const NOTHING_RAN: RegExp[] = [
  /^No tests found, exiting with code \d+$/m, // Jest
  /^No tests found related to files changed since last commit\.?$/m, // Jest -o
  /^No test files found, exiting with code \d+$/m, // Vitest
  /^(?:Warning: )?No test is available in \S+/m, // dotnet test (vstest)
  /^(?:\[\w+\]\s+)?There are no tests to run\.$/m, // Surefire
  /^Error: No test files found\b/m, // Mocha
];

function ranNothing(output: string): boolean {
  if (NOTHING_RAN.some((p) => p.test(output)) || ranNothingNow(output)) return true;
  // go test: every package line says it had no test to run (`?  pkg [no test files]`, `ok pkg 0.1s [no tests to run]`).
  const packages = [...output.matchAll(/^(?:ok|\?|FAIL)\s+\S+\s.*$/gm)].map((m) => m[0]);
  return packages.length > 0 && packages.every((line) => /\[no test files\]|\[no tests to run\]/.test(line));
}

/**
 * Whether a name after `FAIL`/`failed` can be a test: not a heading (`examples:`), a count (`1/3
 * subtests`, `Tests: ...`) or a sentence about failures (`There was 1 failure`). Only test ids are
 * listed as failing tests.
 */
function isTestId(name: string): boolean {
  if (name === '' || /:$/.test(name)) return false;
  if (/^\d+(?:\/\d+)?\s+(?:subtests?|tests?|examples?|specs?|assertions?)\b/i.test(name)) return false;
  // Any other count line: a linter's `1 problem (1 error, 0 warnings)`, `3 files, 2 errors`.
  if (/^\d+(?:\/\d+)?\s+[a-z]+\b\s*(?:[(,]|$)/i.test(name)) return false;
  if (/^(?:tests?|examples?|specs?|suites?|assertions?|test files?)\s*[:=]/i.test(name)) return false;
  return !/\bthere (?:was|were) \d+ (?:failures?|errors?)\b/i.test(name);
}

/**
 * The last resort for runners nobody reads: counts only from a line that gives both, `3 passed, 1
 * failed` (`Tests: 3 passed, 1 failed`), the plain closing line many tools print; otherwise the
 * failing names it can see with the counts marked unknown, so "3 specs, 1 failure" never becomes
 * "1 failed, 0 passed".
 */
export function parseSummary(output: string): ParsedTestReport | undefined {
  let counted: { passed: number; failed: number; skipped: number } | undefined;
  for (const line of output.split('\n')) {
    const passed = /(\d+) (?:passed|passing)\b/i.exec(line);
    const failed = /(\d+) (?:failed|failing)\b/i.exec(line);
    if (passed && failed) counted = { passed: Number(passed[1]), failed: Number(failed[1]), skipped: Number(/(\d+) (?:skipped|pending|ignored)\b/i.exec(line)?.[1] ?? 0) };
  }
  const failures: TestFailure[] = [];
  for (const match of output.matchAll(/^\s*(?:✗|✖|×|FAIL:?|failed:?)\s+(\S.*)$/gim)) {
    const name = (match[1] ?? '').trim();
    if (failures.length < 50 && isTestId(name)) failures.push({ name, message: '' });
  }
  if (counted) return { format: 'summary', ...counted, failures };
  return failures.length > 0 ? { format: 'summary', passed: 0, failed: 0, skipped: 0, failures, uncounted: true } : undefined;
}
