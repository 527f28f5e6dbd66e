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
const keyOf = (p: Problem): string => `${p.file}\n${identity(p)}`;

/**
 * The errors of `now` that `before` did not have, file by file (a multiset: a second copy of an old
 * message is new). Pure; the hook's decision.
 */
export function newErrors(before: readonly Problem[], now: readonly Problem[], changed: ReadonlySet<string>): Problem[] {
  const old = new Map<string, number>();
  for (const p of before) if (p.severity === 'error') old.set(keyOf(p), (old.get(keyOf(p)) ?? 0) + 1);
  const found: Problem[] = [];
  for (const p of now) {
    if (p.severity !== 'error' || !changed.has(p.file)) continue;
    const key = keyOf(p);
    const left = old.get(key) ?? 0;
    if (left > 0) old.set(key, left - 1);
    else found.push(p);
  }
  return found;
}


/**
 * A turn's "before" when an edit is about to change `files` the turn had not changed yet: their problems
 * known now (`earlier`, checked just before the edit) join those known when the prompt started, per file
 * and identity the larger count. A file no one had opened when the prompt started has no problems in
 * the snapshot; without this its old errors would count as new once the edit makes the editor check
 * it. Pure; problems of other files in `earlier` are ignored.
 */
export function beforeEdit(before: readonly Problem[], earlier: readonly Problem[], files: ReadonlySet<string>): Problem[] {
  const known = new Map<string, number>();
  for (const p of before) if (files.has(p.file)) known.set(keyOf(p), (known.get(keyOf(p)) ?? 0) + 1);
  const added: Problem[] = [];
  for (const p of earlier) {
    if (!files.has(p.file)) continue;
    const key = keyOf(p);
    const left = known.get(key) ?? 0;
    if (left > 0) known.set(key, left - 1);
    else added.push(p);
  }
  return added.length === 0 ? [...before] : [...before, ...added];
}
