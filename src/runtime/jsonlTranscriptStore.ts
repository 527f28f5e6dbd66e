/**
 * TranscriptStore over a JSON-lines file: one record per line, written synchronously as each event
 * happens so a crash loses at most the line being written. Loading tolerates that crash: a torn or
 * unparseable line is skipped with a warning, never a failure, and the next append starts on a fresh
 * line so the file stays readable. Used by the CLI's --session and by the extension's chat transcripts.
 * Transcripts hold prompts and tool output: the file is opened without following a symlink (a link a
 * repository planted would send them elsewhere, or feed another file's lines into the history) and
 * kept readable by the user only, an older file included (openPrivateFile). Images are kept beside
 * the file, each once, and the lines reference them (transcriptImages.ts). A `rewound` record (a host
 * appends it) cuts the later records out of what loading returns (rewind.ts).
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, readFileSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../agent/ports';
import type { TranscriptRecord, TranscriptStore } from '../agent/events';
import { activeRecords } from '../agent/rewind';
import { openPrivateFile } from '../platform/privateState';
import { imageDirOf, loadImages, storeImages } from './transcriptImages';

export interface JsonlTranscriptStoreOptions {
  logger?: Logger;
}

function isRecord(value: unknown): value is TranscriptRecord {
  if (value === null || typeof value !== 'object') return false;
  const v = value as { at?: unknown; event?: unknown };
  return typeof v.at === 'number' && v.event !== null && typeof v.event === 'object' && typeof (v.event as { type?: unknown }).type === 'string';
}

/** True when the open file is non-empty and its last byte is not a newline (a torn last line). */
function endsMidLine(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

const APPEND = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** A dangling link does not "exist", but must still be refused rather than read as an empty transcript. */
function isLink(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
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
      if (!this.checkedTail) mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      // Opened for every record, each time refusing a symlink: a link swapped in later is refused too.
      const fd = openPrivateFile(this.path, APPEND);
      try {
        const line = `${JSON.stringify({ ...record, event: this.storedForm(record.event) })}\n`;
        writeAll(fd, !this.checkedTail && endsMidLine(fd) ? `\n${line}` : line);
        this.checkedTail = true;
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      // A full disk must not end the user's turn; say so once and keep the agent running.
      if (!this.failed) {
        this.failed = true;
        this.options.logger?.error(`cannot write the transcript ${this.path}: ${(error as Error).message}`);
      }
    }
  }

  /** The event with its images in files beside the transcript; inline (nothing lost) when they cannot be written. */
  private storedForm(event: TranscriptRecord['event']): TranscriptRecord['event'] {
    try {
      return storeImages(event, imageDirOf(this.path));
    } catch (error) {
      this.options.logger?.warn(`cannot keep the images of ${this.path} beside it (${(error as Error).message}); they stay in the transcript`);
      return event;
    }
  }

  /** The records of the active branch (rewind.ts); a transcript that is a symlink (or no regular file) is refused with UnsafeStateDirError. */
  async load(): Promise<TranscriptRecord[]> {
    if (!existsSync(this.path) && !isLink(this.path)) return [];
    const fd = openPrivateFile(this.path, constants.O_RDONLY);
    let text: string;
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
    const lines = text.split('\n');
    const records: TranscriptRecord[] = [];
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const torn = index === lines.length - 1 ? ' (torn last line, probably an interrupted write)' : '';
      try {
        const parsed: unknown = JSON.parse(line);
        if (isRecord(parsed)) records.push({ ...parsed, event: loadImages(parsed.event, imageDirOf(this.path)) });
        else this.options.logger?.warn(`${this.path}:${index + 1}: not a transcript record, skipped${torn}`);
      } catch {
        this.options.logger?.warn(`${this.path}:${index + 1}: unparseable line skipped${torn}`);
      }
    });
    // A rewind is a record like any other: what it cut stays in the file and never comes back.
    return activeRecords(records);
  }

  /** Appends are synchronous, so everything appended is already in the OS's hands. */
  async flush(): Promise<void> {}
}
