/**
 * The checkpoints of one chat: for each tool call that changed a workspace file, the file's content
 * before and after the call. This is the layer that makes "Open diff" and "Undo this turn's file
 * changes" possible, and it is the host's, not the core's: the core runs tools and knows no files. Kept
 * as one JSON file beside the chat's transcript (same private folder), rewritten with a temp file and a
 * rename, so the checkpoints survive a window reload the way the chat does. A file too large to keep
 * is recorded without its contents: it can be diffed against nothing and is not undone.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as z from 'zod/mini';

/** Larger files are recorded without contents (no diff, no undo) to keep the store small. */
export const CHECKPOINT_MAX_CHARS = 1_000_000;

const checkpointSchema = z.object({
  callId: z.string(),
  /** Workspace-relative (as the workspace server shows it) and absolute. */
  path: z.string(),
  absolute: z.string(),
  /** null: the file did not exist before the call (or after it). */
  before: z.nullable(z.string()),
  after: z.nullable(z.string()),
  tooLarge: z.boolean(),
  undone: z.boolean(),
});
export type Checkpoint = z.infer<typeof checkpointSchema>;

export class CheckpointStore {
  private readonly records: Checkpoint[];

  constructor(private readonly file: string) {
    this.records = CheckpointStore.read(file);
  }

  private static read(file: string): Checkpoint[] {
    try {
      const parsed = z.array(checkpointSchema).safeParse(JSON.parse(readFileSync(file, 'utf8')));
      return parsed.success ? parsed.data : [];
    } catch {
      return []; // none yet, or unreadable: the chat simply has no checkpoints to offer
    }
  }

  add(record: Omit<Checkpoint, 'undone' | 'tooLarge'>): void {
    const tooLarge = (record.before?.length ?? 0) > CHECKPOINT_MAX_CHARS || (record.after?.length ?? 0) > CHECKPOINT_MAX_CHARS;
    this.records.push(tooLarge ? { ...record, before: null, after: null, tooLarge, undone: false } : { ...record, tooLarge, undone: false });
    this.write();
  }

  get(callId: string): Checkpoint | undefined {
    return this.records.find((r) => r.callId === callId);
  }

  /** The records of these calls, in the order they were made. */
  of(callIds: readonly string[]): Checkpoint[] {
    const wanted = new Set(callIds);
    return this.records.filter((r) => wanted.has(r.callId));
  }

  markUndone(callIds: readonly string[]): void {
    const wanted = new Set(callIds);
    for (const r of this.records) if (wanted.has(r.callId)) r.undone = true;
    this.write();
  }

  /** A rewind put these calls' files back and cut them from the conversation: their records go (a later call may reuse an id). */
  drop(callIds: readonly string[]): void {
    const wanted = new Set(callIds);
    const kept = this.records.filter((r) => !wanted.has(r.callId));
    if (kept.length === this.records.length) return;
    this.records.splice(0, this.records.length, ...kept);
    this.write();
  }

  /** The chat was deleted. */
  remove(): void {
    rmSync(this.file, { force: true });
  }

  private write(): void {
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.records), { mode: 0o600 });
    renameSync(`${this.file}.tmp`, this.file);
  }
}

/** Per file touched by these records: the content before the first of them and after the last (the turn's net change). */
export function netChanges(records: readonly Checkpoint[]): Checkpoint[] {
  const byFile = new Map<string, Checkpoint>();
  for (const r of records) {
    const first = byFile.get(r.absolute);
    byFile.set(r.absolute, first ? { ...first, after: r.after, tooLarge: first.tooLarge || r.tooLarge } : r);
  }
  return [...byFile.values()];
}

/**
 * The files among these records (in call order) that were changed outside Sprout since the agent wrote
 * them: the file now holds neither what the last call wrote nor what the first found (a restore that
 * stopped half way), or between two of the calls it no longer held what the earlier one wrote. Putting
 * them back would overwrite the user's edits, so a host asks first. `current` reads a file's text (null: none).
 */
export function editedOutside(records: readonly Checkpoint[], current: (absolute: string) => string | null): string[] {
  const edited = new Set<string>();
  const last = new Map<string, Checkpoint>();
  for (const r of records) {
    const earlier = last.get(r.absolute);
    if (earlier && !earlier.tooLarge && !r.tooLarge && earlier.after !== r.before) edited.add(r.path);
    last.set(r.absolute, r);
  }
  for (const change of netChanges(records)) {
    if (change.tooLarge) continue;
    const now = current(change.absolute);
    if (now !== change.after && now !== change.before) edited.add(change.path);
  }
  return [...edited];
}

/** A tool call in the conversation (as the `tool_started` event names it). */
export interface CallRef {
  callId: string;
  name: string;
}

/**
 * The calls whose file changes no checkpoint holds: the workspace server's `run_command` and the tools
 * of servers other than the ones known to write no file (`quiet`: the bundled todo and tests servers,
 * the editor's own). Each name once, with its count: a rewind lists them as not put back.
 */
export function unrecordedCalls(calls: readonly CallRef[], recorded: ReadonlySet<string>, workspaceServer: string | undefined, quiet: ReadonlySet<string>): string[] {
  const counts = new Map<string, number>();
  for (const call of calls) {
    const [server = '', tool = ''] = call.name.split('__', 2);
    if (recorded.has(call.callId) || server === 'sprout' || quiet.has(server) || (server === workspaceServer && tool !== 'run_command')) continue;
    counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n === 1 ? name : `${name} (${n} calls)`));
}
