/**
 * Mocha's `json` reporter (`--reporter json --reporter-option output=F`, or printed to stdout by
 * mochas too old for the option): `stats` with the counts, `failures[]` with the full title, the file
 * and `err` (message, stack, and for assertion errors the expected and actual values). A failing hook
 * (`"before each" hook for ...`) is a failure like mocha counts it.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, displayPath, stackLocation, withExpectedActual } from './failureText';

interface MochaFailure {
  fullTitle?: unknown;
  title?: unknown;
  file?: unknown;
  err?: { message?: unknown; stack?: unknown; expected?: unknown; actual?: unknown; name?: unknown };
}

interface MochaJson {
  stats?: { passes?: unknown; failures?: unknown; pending?: unknown };
  failures?: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function failureOf(f: MochaFailure, root: string): TestFailure {
  const file = str(f.file) === '' ? undefined : displayPath(root, str(f.file));
  const err = f.err ?? {};
  const at = stackLocation(str(err.stack), root, file);
  const name = str(err.name);
  const head = name !== '' && name !== 'AssertionError' && !str(err.message).startsWith(name) ? `${name}: ` : '';
  const message = withExpectedActual(cleanMessage(`${head}${str(err.message)}`), err.expected, err.actual);
  return {
    name: str(f.fullTitle) || str(f.title) || '(unnamed test)',
    ...(file ? { file } : {}),
    ...(at && (file === undefined || at.file === file) ? { line: at.line } : {}),
    message,
  };
}

/** The JSON document in a mocha run's output: the report file's text, or stdout after test noise. */
function documentIn(text: string): MochaJson | undefined {
  for (const start of [0, text.search(/^\{\s*$/m)]) {
    if (start < 0) continue;
    try {
      const json = JSON.parse(text.slice(start)) as MochaJson;
      if (typeof json === 'object' && json !== null && typeof json.stats === 'object') return json;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function parseMochaJson(text: string, root: string): ParsedTestReport | undefined {
  const json = documentIn(text);
  if (!json?.stats) return undefined;
  const failures = (Array.isArray(json.failures) ? (json.failures as MochaFailure[]) : []).map((f) => failureOf(f, root));
  return {
    format: 'mocha-json',
    passed: num(json.stats.passes),
    failed: num(json.stats.failures),
    skipped: num(json.stats.pending),
    failures,
  };
}
