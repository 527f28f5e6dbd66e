/**
 * TranscriptStore over a JSON-lines file: one record per line, written synchronously as each event
 * happens so a crash loses at most the line being written. Loading tolerates that crash: a torn or
 * unparseable line is skipped with a warning, never a failure, and the next append starts on a fresh
 * line so the file stays readable. Used by the CLI's --session and by the extension's chat transcripts.
 */
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../agent/ports';
import type { TranscriptRecord, TranscriptStore } from '../agent/events';

export interface JsonlTranscriptStoreOptions {
  logger?: Logger;
}

function isRecord(value: unknown): value is TranscriptRecord {
  if (value === null || typeof value !== 'object') return false;
  const v = value as { at?: unknown; event?: unknown };
  return typeof v.at === 'number' && v.event !== null && typeof v.event === 'object' && typeof (v.event as { type?: unknown }).type === 'string';
}

/** True when the file exists, is non-empty and its last byte is not a newline (a torn last line). */
function endsMidLine(path: string): boolean {
  if (!existsSync(path)) return false;
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

export class JsonlTranscriptStore implements TranscriptStore {
  private checkedTail = false;
  private failed = false;

  constructor(
    readonly path: string,
    private readonly options: JsonlTranscriptStoreOptions = {},
  ) {}

  append(record: TranscriptRecord): void {
    try {
      if (!this.checkedTail) {
        // Transcripts hold tool output (file contents, command output): only the user may read them.
        mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
        if (endsMidLine(this.path)) appendFileSync(this.path, '\n');
        this.checkedTail = true;
      }
      appendFileSync(this.path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    } catch (error) {
      // A full disk must not end the user's turn; say so once and keep the agent running.
      if (!this.failed) {
        this.failed = true;
        this.options.logger?.error(`cannot write the transcript ${this.path}: ${(error as Error).message}`);
      }
    }
  }

  async load(): Promise<TranscriptRecord[]> {
    if (!existsSync(this.path)) return [];
    const lines = readFileSync(this.path, 'utf8').split('\n');
    const records: TranscriptRecord[] = [];
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const torn = index === lines.length - 1 ? ' (torn last line, probably an interrupted write)' : '';
      try {
        const parsed: unknown = JSON.parse(line);
        if (isRecord(parsed)) records.push(parsed);
        else this.options.logger?.warn(`${this.path}:${index + 1}: not a transcript record, skipped${torn}`);
      } catch {
        this.options.logger?.warn(`${this.path}:${index + 1}: unparseable line skipped${torn}`);
      }
    });
    return records;
  }

  /** Appends are synchronous, so everything appended is already in the OS's hands. */
  async flush(): Promise<void> {}
}
