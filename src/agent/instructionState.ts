/**
 * A session's instructions between rounds: the set the host found last (PromptOptions.instructions),
 * the paths the conversation touched (attached files and every `path`-like argument of a tool call;
 * kept across compaction, which summarises the calls away) and the last decision announced, so the
 * `instructions` event is emitted when what applies changes, not every round.
 */
import type { ChatMessage } from './messages';
import { type InstructionDecision, type InstructionSet, decideInstructions } from './instructions';

export interface InstructionState {
  set: InstructionSet | undefined;
  touched: Set<string>;
  /** History messages already scanned for touched paths (reset when compaction shrinks the history). */
  scanned: number;
  /** The applied paths and hashes last announced, as one key. */
  announced: string;
  /** Notes already in an `instructions` event. */
  saidNotes: Set<string>;
}

export function newInstructionState(): InstructionState {
  return { set: undefined, touched: new Set(), scanned: 0, announced: '', saidNotes: new Set() };
}

const PATH_KEYS = ['path', 'paths', 'file', 'filePath', 'file_path', 'files'];

/** A path a tool was given, relative to the workspace (`./a`, `root/a` and `a` are all `a`); undefined outside it. */
export function workspaceRelative(path: string, root: string | undefined): string | undefined {
  let p = path.trim().replace(/\\/g, '/');
  if (root !== undefined && root !== '') {
    const r = root.replace(/\\/g, '/').replace(/\/+$/, '');
    if (p === r) return undefined;
    if (p.startsWith(`${r}/`)) p = p.slice(r.length + 1);
  }
  if (p.startsWith('/') || /^[A-Za-z]:\//.test(p) || p.startsWith('~')) return undefined;
  const parts: string[] = [];
  for (const segment of p.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length === 0 ? undefined : parts.join('/');
}

function pathsInArguments(json: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const key of PATH_KEYS) {
    const field = (value as Record<string, unknown>)[key];
    for (const item of Array.isArray(field) ? field : [field]) if (typeof item === 'string' && item !== '') out.push(item);
  }
  return out;
}

/** Adds the paths of the history's tool calls not yet scanned. */
export function noteTouchedInHistory(state: InstructionState, history: readonly ChatMessage[]): void {
  if (history.length < state.scanned) state.scanned = 0;
  for (let i = state.scanned; i < history.length; i++) {
    const message = history[i];
    if (message?.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) notePaths(state, pathsInArguments(call.arguments));
  }
  state.scanned = history.length;
}

/** Adds paths as given (attachment labels may carry a `:10-24` range, dropped here). */
export function notePaths(state: InstructionState, paths: readonly string[]): void {
  for (const raw of paths) {
    const relative = workspaceRelative(raw.replace(/:\d+(-\d+)?$/, ''), state.set?.root);
    if (relative !== undefined) state.touched.add(relative);
  }
}

/** What applies now; undefined when the host gave no instructions. */
export function currentInstructions(state: InstructionState | undefined, history: readonly ChatMessage[]): InstructionDecision | undefined {
  if (state?.set === undefined) return undefined;
  noteTouchedInHistory(state, history);
  return decideInstructions(state.set, [...state.touched]);
}

/**
 * The `instructions` event due after this decision, if any: once per change of what applies, each
 * note said once per session (an untrusted workspace is said once, not every round).
 */
export function announcement(state: InstructionState, decision: InstructionDecision): { applied: InstructionDecision['applied']; notes: string[] } | undefined {
  const notes = decision.notes.filter((n) => !state.saidNotes.has(n));
  const key = JSON.stringify(decision.applied.map((a) => `${a.path}@${a.sha256}`));
  if (key === state.announced && notes.length === 0) return undefined;
  state.announced = key;
  for (const note of notes) state.saidNotes.add(note);
  return { applied: decision.applied, notes };
}

/** `_meta["sprout/hook"].instructions`: the applied files' paths and hashes (docs/hooks.md#instructions-in-_meta). */
export function instructionsMeta(decision: InstructionDecision | undefined): { instructions: { path: string; sha256: string }[] } | Record<string, never> {
  if (decision === undefined) return {};
  return { instructions: decision.applied.map(({ path, sha256 }) => ({ path, sha256 })) };
}
