/**
 * The JSON report jest (`--json --outputFile=F --testLocationInResults`) and vitest
 * (`--reporter=json --outputFile.json=F`) write: per file `testResults[]`, per test `assertionResults[]`
 * with its ancestor titles, status, failure messages (stack included) and, for jest, its location.
 * A file that fails before its tests run (syntax error, missing import) becomes one failure of its own.
 */
import type { ParsedTestReport, TestFailure, UnitCounts } from '../testResult';
import { cleanMessage, displayPath, errorLineFirst, stackLocation, withoutErrorPrefix } from './failureText';

interface Assertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
  failureMessages?: unknown;
  location?: { line?: unknown } | null;
}

interface FileResult {
  name?: unknown;
  status?: unknown;
  message?: unknown;
  assertionResults?: unknown;
}

interface JestJson {
  numPassedTests?: unknown;
  numFailedTests?: unknown;
  numPendingTests?: unknown;
  numTodoTests?: unknown;
  numRuntimeErrorTestSuites?: unknown;
  testResults?: unknown;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function assertionFailure(a: Assertion, file: string, root: string, separator: string): TestFailure {
  const raw = list<unknown>(a.failureMessages).map(str).join('\n');
  const titles = [...list<unknown>(a.ancestorTitles).map(str), str(a.title)].filter((t) => t !== '');
  const at = stackLocation(raw, root, file);
  const declared = typeof a.location?.line === 'number' ? a.location.line : undefined;
  return {
    name: titles.join(separator) || '(unnamed test)',
    file,
    ...(at?.file === file ? { line: at.line } : declared !== undefined ? { line: declared } : {}),
    message: cleanMessage(withoutErrorPrefix(cleanMessage(raw))),
  };
}

/** Text before the first stack frame or code frame of a suite-level error. */
function suiteMessage(message: string): string {
  const lines = cleanMessage(message)
    .split('\n')
    .filter((l) => !/^\s*● Test suite failed to run\s*$/.test(l));
  const end = lines.findIndex((l) => /^\s*>?\s*\d+ \|/.test(l));
  return errorLineFirst(cleanMessage((end < 0 ? lines : lines.slice(0, end)).join('\n')));
}

export function parseJestJson(text: string, root: string, format: 'jest-json' | 'vitest-json'): ParsedTestReport | undefined {
  let json: JestJson;
  try {
    json = JSON.parse(text) as JestJson;
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || !Array.isArray(json.testResults)) return undefined;
  const separator = format === 'jest-json' ? ' › ' : ' > ';
  const failures: TestFailure[] = [];
  const units: UnitCounts[] = [];
  let suiteErrors = 0;
  for (const fileResult of list<FileResult>(json.testResults)) {
    const file = displayPath(root, str(fileResult.name));
    const assertions = list<Assertion>(fileResult.assertionResults);
    const failed = assertions.filter((a) => a.status === 'failed');
    const passedHere = assertions.filter((a) => a.status === 'passed').length;
    const skippedHere = assertions.filter((a) => a.status === 'pending' || a.status === 'skipped' || a.status === 'todo').length;
    units.push({ file, passed: passedHere, failed: failed.length + (fileResult.status === 'failed' && failed.length === 0 ? 1 : 0), skipped: skippedHere });
    for (const a of failed) failures.push(assertionFailure(a, file, root, separator));
    if (fileResult.status === 'failed' && failed.length === 0) {
      suiteErrors++;
      const message = suiteMessage(str(fileResult.message));
      const at = stackLocation(str(fileResult.message), root, file);
      failures.push({ name: `${file} (test file failed to run)`, file, ...(at ? { line: at.line } : {}), message });
    }
  }
  return {
    format,
    passed: num(json.numPassedTests),
    failed: num(json.numFailedTests) + suiteErrors,
    skipped: num(json.numPendingTests) + num(json.numTodoTests),
    failures,
    units,
  };
}
