/**
 * A hook file's matchers are patterns a repository wrote, run against every tool name: they are matched
 * by RE2's JavaScript port, in time linear in the name, so a matcher like `(a+)+b` cannot spin the
 * agent (JavaScript's backtracking engine takes exponential time on it). The one place this layer
 * compiles a pattern from a file; RE2 refuses what no linear engine can run (look-around,
 * back-references), and such a matcher then matches only a name equal to it, as an invalid one does.
 */
import { RE2JS } from 're2js';

const compiled = new Map<string, RE2JS | undefined>();

function compile(pattern: string): RE2JS | undefined {
  if (!compiled.has(pattern)) {
    let re: RE2JS | undefined;
    try {
      re = RE2JS.compile(`^(?:${pattern})$`);
    } catch {
      re = undefined;
    }
    if (compiled.size > 500) compiled.clear();
    compiled.set(pattern, re);
  }
  return compiled.get(pattern);
}

/** Whether `pattern` matches the whole of `subject`, in linear time; a pattern RE2 cannot run matches only itself. */
export function matchesWhole(pattern: string, subject: string): boolean {
  const re = compile(pattern);
  return re === undefined ? pattern === subject : re.matches(subject);
}
