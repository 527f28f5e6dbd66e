/**
 * Evidence a hook may attach to its answer: the `structuredContent` of its result, read for a test
 * verdict (`status`, counts) and a list of failures (`[{ name, file?, line?, message, package? }]`, the shape
 * the bundled `tests` server returns). Hook output is untrusted, so this keeps only well-typed
 * fields and caps every string and the list; anything else is dropped. Hosts show the failures
 * (the chat's objection card, the Hooks view, VS Code's Testing view); the model reads only the text.
 */

export interface HookFailure {
  name: string;
  /** As the hook gave it: relative to the workspace root, or absolute. */
  file?: string;
  /** 1-based. */
  line?: number;
  message: string;
  /** The monorepo package the test belongs to. */
  package?: string;
}

/** `no_tests`: the run executed no test; `could_not_run`: the test command itself failed. */
export type HookVerdict = 'passed' | 'failed' | 'error' | 'timeout' | 'no_tests' | 'could_not_run' | 'not_run';

export interface HookEvidence {
  status?: HookVerdict;
  passed?: number;
  failed?: number;
  skipped?: number;
  /** The result no longer describes the workspace (it predates the latest changes). */
  stale?: boolean;
  command?: string;
  failures: HookFailure[];
}

export const EVIDENCE_MAX_FAILURES = 50;
const NAME_MAX = 500;
const FILE_MAX = 1000;
const MESSAGE_MAX = 4000;
/** All messages together, like a hook's text (16 KiB): what is past it keeps its name and location only. */
const MESSAGES_TOTAL_MAX = 16 * 1024;
const VERDICTS: readonly string[] = ['passed', 'failed', 'error', 'timeout', 'no_tests', 'could_not_run', 'not_run'];

function clip(value: unknown, max: number): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function failureOf(raw: unknown): HookFailure | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const f = raw as Record<string, unknown>;
  const name = clip(f.name, NAME_MAX);
  if (name === undefined || name.trim() === '') return undefined;
  const file = clip(f.file, FILE_MAX);
  const line = count(f.line);
  const pkg = clip(f.package, NAME_MAX);
  return { name, ...(file ? { file } : {}), ...(line !== undefined && line > 0 ? { line } : {}), message: clip(f.message, MESSAGE_MAX) ?? '', ...(pkg ? { package: pkg } : {}) };
}

/** The evidence in a hook result's structured content, or undefined when it carries none. */
export function hookEvidence(structured: unknown): HookEvidence | undefined {
  if (typeof structured !== 'object' || structured === null || Array.isArray(structured)) return undefined;
  const s = structured as Record<string, unknown>;
  let budget = MESSAGES_TOTAL_MAX;
  const failures = (Array.isArray(s.failures) ? s.failures : [])
    .slice(0, EVIDENCE_MAX_FAILURES)
    .map(failureOf)
    .filter((f): f is HookFailure => f !== undefined)
    .map((f) => {
      const message = f.message.slice(0, budget);
      budget -= message.length;
      return { ...f, message };
    });
  const status = typeof s.status === 'string' && VERDICTS.includes(s.status) ? (s.status as HookVerdict) : undefined;
  if (status === undefined && failures.length === 0) return undefined;
  const fields = {
    status,
    passed: count(s.passed),
    failed: count(s.failed),
    skipped: count(s.skipped),
    stale: typeof s.stale === 'boolean' ? s.stale : undefined,
    command: clip(s.command, NAME_MAX),
  };
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Omit<HookEvidence, 'failures'>;
  return { ...defined, failures };
}
