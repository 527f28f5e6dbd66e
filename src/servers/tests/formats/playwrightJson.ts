/**
 * Playwright Test's JSON report (`--reporter=json`, written to the file named by
 * `PLAYWRIGHT_JSON_OUTPUT_FILE`): `stats` counts tests by outcome (`expected` passed, `unexpected`
 * failed, `flaky` passed on a retry, `skipped`), and the suites nest describe blocks down to specs,
 * each with its tests' results and their errors (message with the expect diff, and the location of
 * the failing line). Names join the describe titles with ` › ` as Playwright prints them.
 */
import type { ParsedTestReport, TestFailure, UnitCounts } from '../testResult';
import { cleanMessage, displayPath } from './failureText';

interface PwError {
  message?: unknown;
  location?: { file?: unknown; line?: unknown };
}

interface PwSpec {
  title?: unknown;
  file?: unknown;
  line?: unknown;
  ok?: unknown;
  tests?: { status?: unknown; results?: { errors?: PwError[]; error?: PwError }[] }[];
}

interface PwSuite {
  title?: unknown;
  file?: unknown;
  specs?: PwSpec[];
  suites?: PwSuite[];
}

interface PwReport {
  config?: { rootDir?: unknown };
  stats?: { expected?: unknown; unexpected?: unknown; flaky?: unknown; skipped?: unknown };
  suites?: PwSuite[];
  errors?: PwError[];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function specFailure(spec: PwSpec, titles: readonly string[], testDir: string, root: string): TestFailure {
  const error = spec.tests?.flatMap((t) => t.results ?? []).flatMap((r) => r.errors ?? (r.error ? [r.error] : []))[0];
  const at = error?.location;
  const file = typeof at?.file === 'string' ? displayPath(root, at.file) : displayPath(root, `${testDir}/${str(spec.file)}`);
  const message = cleanMessage(str(error?.message)).split('\n');
  const codeFrame = message.findIndex((l) => /^\s*>?\s*\d+ \|/.test(l));
  return {
    name: [...titles, str(spec.title)].filter((t) => t !== '').join(' › '),
    file,
    ...(typeof at?.line === 'number' ? { line: at.line } : typeof spec.line === 'number' ? { line: spec.line } : {}),
    message: cleanMessage((codeFrame < 0 ? message : message.slice(0, codeFrame)).join('\n').replace(/^Error: /, '')),
  };
}

function walk(suite: PwSuite, titles: readonly string[], visit: (spec: PwSpec, titles: readonly string[], file: string) => void, file = str(suite.file)): void {
  // The top suite of each file is titled with the file name; describe blocks below add their titles.
  const own = titles.length === 0 && str(suite.title) === file ? [] : [...titles, str(suite.title)];
  for (const spec of suite.specs ?? []) visit(spec, own, file);
  for (const child of suite.suites ?? []) walk(child, own, visit, file);
}

export function parsePlaywrightJson(text: string, root: string): ParsedTestReport | undefined {
  let json: PwReport;
  try {
    json = JSON.parse(text) as PwReport;
  } catch {
    return undefined;
  }
  if (typeof json?.stats !== 'object' || !Array.isArray(json.suites)) return undefined;
  const testDir = str(json.config?.rootDir) || root;
  const failures: TestFailure[] = [];
  const units = new Map<string, UnitCounts>();
  for (const top of json.suites) {
    walk(top, [], (spec, titles, file) => {
      const path = displayPath(root, `${testDir}/${file}`);
      const unit = units.get(path) ?? { file: path, passed: 0, failed: 0, skipped: 0 };
      units.set(path, unit);
      const status = str(spec.tests?.[0]?.status);
      if (status === 'skipped') unit.skipped++;
      else if (spec.ok === false) {
        unit.failed++;
        failures.push(specFailure(spec, titles, testDir, root));
      } else unit.passed++;
    });
  }
  // "No tests found" is Playwright's word for a run that executed nothing, not a failure of the run.
  const errors = (json.errors ?? []).filter((e) => !/^Error: No tests found/.test(cleanMessage(str(e.message))));
  for (const error of errors) failures.push({ name: '(the test run failed)', message: cleanMessage(str(error.message)) });
  const stats = json.stats;
  return {
    format: 'playwright-json',
    passed: num(stats.expected) + num(stats.flaky),
    failed: num(stats.unexpected) + errors.length,
    skipped: num(stats.skipped),
    failures,
    units: [...units.values()],
  };
}
