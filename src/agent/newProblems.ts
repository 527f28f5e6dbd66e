/**
 * The Problems completion check's decision, pure: which errors of the files a turn changed were not
 * there when the prompt started. Errors are compared by source, code and message, not by line, so an
 * old error that only moved (lines added above it) stays old; a second copy of an old message is new.
 */

/** One diagnostic as the editor server reports it. */
export interface Problem {
  /** Relative to the workspace folder when inside it, else absolute. */
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
  code?: string;
}

const identity = (p: Problem): string => JSON.stringify([p.source ?? '', p.code ?? '', p.message]);

/**
 * The errors of `now` that `before` did not have, file by file (a multiset: a second copy of an old
 * message is new). Pure; the hook's decision.
 */
export function newErrors(before: readonly Problem[], now: readonly Problem[], changed: ReadonlySet<string>): Problem[] {
  const old = new Map<string, number>();
  for (const p of before) if (p.severity === 'error') old.set(`${p.file}\n${identity(p)}`, (old.get(`${p.file}\n${identity(p)}`) ?? 0) + 1);
  const found: Problem[] = [];
  for (const p of now) {
    if (p.severity !== 'error' || !changed.has(p.file)) continue;
    const key = `${p.file}\n${identity(p)}`;
    const left = old.get(key) ?? 0;
    if (left > 0) old.set(key, left - 1);
    else found.push(p);
  }
  return found;
}

