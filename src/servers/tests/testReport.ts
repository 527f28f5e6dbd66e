/**
 * The shape every test-output parser produces: counts and the failing tests with the first lines of
 * their messages. Kept small so a `_Stop` objection stays readable.
 */

export interface TestFailure {
  name: string;
  message: string;
}

export interface ParsedTestReport {
  /** Which parser understood the output (`node-tap`, `junit`, `pytest`, ...). */
  format: string;
  passed: number;
  failed: number;
  failures: TestFailure[];
}

export const MAX_MESSAGE_LINES = 3;
export const MAX_MESSAGE_CHARS = 300;

/** The first few non-empty lines of a failure message, clipped. */
export function firstLines(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .slice(0, MAX_MESSAGE_LINES);
  const text = lines.join(' / ');
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}...` : text;
}

/** Strips ANSI colour codes, which many runners emit even into pipes. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

export function lastNumber(text: string, pattern: RegExp): number | undefined {
  let found: number | undefined;
  for (const match of text.matchAll(pattern)) found = Number(match[1]);
  return found;
}
