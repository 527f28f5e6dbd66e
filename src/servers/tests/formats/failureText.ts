/**
 * Helpers every reporter shares to turn a runner's raw failure text into evidence: ANSI and stack
 * frames stripped, common indentation removed, locations read from stack frames and made relative
 * to the workspace root (so the editor can open them and the model can read them).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Strips ANSI colour codes, which many runners emit even into pipes. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

export function normaliseOutput(text: string): string {
  return stripAnsi(text).replace(/\r\n?/g, '\n');
}

const STACK_FRAME = /^\s*at (?:.+ \()?(?:file:\/\/)?[^\s()]+:\d+(?::\d+)?\)?\s*$|^\s*at (?:async )?\S+ \(?<anonymous>\)?$|^\s*at async [^\s()]+:\d+(?::\d+)?\s*$|^\s*at new Promise|^\s*at process\./;

export function isStackFrame(line: string): boolean {
  return STACK_FRAME.test(line) || /^\s+at \S.*\(node:internal/.test(line);
}

/** Removes the indentation every non-empty line shares. */
export function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => l.search(/\S/));
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(common).trimEnd());
}

/** A failure message as evidence: no ANSI, no stack frames, no runs of blank lines, dedented. */
export function cleanMessage(raw: string): string {
  const lines = normaliseOutput(raw).split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    if (isStackFrame(line)) continue;
    if (line.trim() === '' && (kept.length === 0 || kept[kept.length - 1]?.trim() === '')) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1]?.trim() === '') kept.pop();
  return dedent(kept).join('\n');
}

/** Moves the first `SomeError: ...` line to the top, so a long preamble cannot push the cause out of the cap. */
export function errorLineFirst(message: string): string {
  const lines = message.split('\n');
  const at = lines.findIndex((l) => /^\s*[A-Z]\w*(?:Error|Exception)\b.*:/.test(l));
  if (at <= 0) return message;
  return [lines[at]?.trim() ?? '', ...lines.slice(0, at), ...lines.slice(at + 1)].join('\n');
}

/** Drops a leading `Error: ` / `AssertionError [ERR_ASSERTION]: ` when the rest says it all. */
export function withoutErrorPrefix(message: string): string {
  return message.replace(/^(?:Error|AssertionError(?: \[ERR_ASSERTION\])?): /, '');
}

/** Adds `expected:` / `actual:` lines when the runner gave the values but the message does not show them. */
export function withExpectedActual(message: string, expected: unknown, actual: unknown): string {
  if (expected === undefined && actual === undefined) return message;
  const show = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));
  const e = show(expected);
  const a = show(actual);
  if (message.includes(e) && message.includes(a)) return message;
  // A multi-line message with multi-line values is the runner's own diff already.
  if ((e.includes('\n') || a.includes('\n')) && message.split('\n').length > 2) return message;
  return `${message}\nexpected: ${e}\nactual: ${a}`;
}

/** A path as the user sees it: relative to the root when inside it, else as given. */
export function displayPath(root: string, path: string): string {
  let p = path;
  if (p.startsWith('file://')) {
    try {
      p = fileURLToPath(p);
    } catch {
      return path;
    }
  }
  if (!isAbsolute(p)) return p.replace(/^\.\//, '');
  const rel = relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : p;
}

export interface Location {
  file: string;
  line: number;
}

const FRAME_LOCATION = /(?:\(|\s|^)((?:file:\/\/)?[^\s()'"]+?):(\d+)(?::\d+)?\)?\s*$/;

/**
 * The first stack frame in the user's code: inside the root (or relative), not in node_modules or
 * the runtime. With `preferFile`, a frame in that file wins (the assertion line in the test file).
 */
export function stackLocation(text: string, root: string, preferFile?: string): Location | undefined {
  let first: Location | undefined;
  for (const line of normaliseOutput(text).split('\n')) {
    if (!/^\s*at\s|^\s*\S+ \(.*:\d+:\d+\)$|^\s*[^\s]+:\d+:\d+$/.test(line)) continue;
    const match = FRAME_LOCATION.exec(line);
    if (!match?.[1] || /^node:|node_modules|<anonymous>|^internal\//.test(match[1])) continue;
    const file = displayPath(root, match[1]);
    if (isAbsolute(file)) continue;
    const location = { file, line: Number(match[2]) };
    if (preferFile === undefined || file === preferFile) return location;
    first ??= location;
  }
  return first;
}

/** The number in the first group of `pattern`'s first match, or 0. */
export function countOf(text: string, pattern: RegExp): number {
  return Number(pattern.exec(text)?.[1] ?? 0);
}

/** The number in the last line that starts with `label` and a number (`# pass 3`), or undefined. */
export function lastCount(text: string, label: string): number | undefined {
  let found: number | undefined;
  for (const match of text.matchAll(new RegExp(`^${label} (\\d+)`, 'gm'))) found = Number(match[1]);
  return found;
}

/**
 * Node 22+ runs each test file as a test of its own; when a name pattern matches nothing in a file,
 * that file is reported as one passing "test" named after the file, with nothing inside it. Such an
 * entry is evidence that a file loaded, not that a test ran: the parsers count it as no test.
 */
export function isEmptyFileEntry(root: string, name: string): boolean {
  const path = name.startsWith('file://') ? displayPath(root, name) : name;
  if (!/\.[cm]?[jt]sx?$/.test(path)) return false;
  return existsSync(isAbsolute(path) ? path : join(root, path));
}
