/**
 * Regular expressions the model writes (search_text patterns, globs) run in linear time, so one
 * pattern cannot hold a server for hours: `(a+)+$` against a long line backtracks exponentially in
 * JavaScript's usual engine. The bundled servers turn on V8's linear-time engine for themselves
 * (useLinearRegexEngine, at start) and use it for case-sensitive patterns; everywhere else (the
 * editor's extension host shares V8 with other extensions) and for case-insensitive patterns, which
 * V8's engine cannot run, RE2's JavaScript port does the same work, more slowly. Both refuse what no
 * linear engine can do (look-around, back-references), with a message saying so.
 */
import { setFlagsFromString } from 'node:v8';
import { RE2JS } from 're2js';

export interface LinearRegex {
  test(text: string): boolean;
}

export class UnboundedPatternError extends Error {
  constructor(pattern: string, why: string) {
    super(
      `the pattern /${pattern}/ cannot be matched in bounded time (${why}). Look-around and back-references are not supported: ` +
        'rewrite the pattern without them (search for the simpler part, then read the matches).',
    );
    this.name = 'UnboundedPatternError';
  }
}

let v8Linear = false;

/** For a bundled server's own process: lets RegExp take the `l` (linear) flag; a runtime without it keeps RE2. */
export function useLinearRegexEngine(): void {
  try {
    setFlagsFromString('--enable-experimental-regexp-engine');
    // eslint-disable-next-line no-invalid-regexp -- `l` exists once the flag above is set (V8's linear engine).
    v8Linear = new RegExp('a', 'l').test('a');
  } catch {
    v8Linear = false;
  }
}

/** `source` (JavaScript syntax; RE2 agrees for everything a linear engine can do) as a linear-time matcher. */
export function linearRegex(source: string, caseSensitive = true): LinearRegex {
  if (v8Linear && caseSensitive) {
    try {
      // eslint-disable-next-line no-invalid-regexp -- see useLinearRegexEngine.
      return new RegExp(source, 'l');
    } catch {
      // Not linear, or not valid at all: RE2 says which.
    }
  }
  try {
    const compiled = RE2JS.compile(source, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    return { test: (text) => compiled.matcher(text).find() };
  } catch (error) {
    const message = (error as Error).message;
    if (/invalid or unsupported Perl syntax|invalid escape sequence: `\\[1-9]/.test(message)) throw new UnboundedPatternError(source, message);
    throw new Error(`invalid regular expression /${source}/: ${message}`, { cause: error });
  }
}
