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
