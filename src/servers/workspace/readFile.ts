/**
 * `read_file`: a text file or a line range of it, capped in size so one call cannot flood the
 * model's context. Binary files are refused rather than dumped.
 */
import { readInWorkspace } from '../common/confinedFs';
import { displayPath, resolveInWorkspace } from '../common/safePath';

export const READ_MAX_BYTES = 256 * 1024;
/** A file is read whole to find its lines; a bigger one would take the server's memory and time. */
export const READ_FILE_MAX_BYTES = 64 * 1024 * 1024;

export interface ReadFileInput {
  path: string;
  startLine?: number;
  endLine?: number;
  maxBytes?: number;
}

function openForReading(rootReal: string, absolute: string, shown: string): { stat: { size: number }; buffer: Buffer } {
  let read;
  try {
    read = readInWorkspace(rootReal, absolute, READ_FILE_MAX_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`file not found: ${shown}`, { cause: error });
    throw error;
  }
  if (read.stat.isFile() && read.stat.size > READ_FILE_MAX_BYTES) {
    throw new Error(`${shown} is ${read.stat.size} bytes; read_file reads files up to ${READ_FILE_MAX_BYTES} bytes. Use search_text, or run_command with head, tail or sed, for part of it`);
  }
  if (read.buffer === undefined) throw new Error(`not a file: ${shown}`);
  return { stat: read.stat, buffer: read.buffer };
}

export function readWorkspaceFile(rootReal: string, input: ReadFileInput): string {
  const absolute = resolveInWorkspace(rootReal, input.path);
  const shown = displayPath(rootReal, absolute);
  const { stat, buffer } = openForReading(rootReal, absolute, shown);
  if (buffer.subarray(0, 8192).includes(0)) throw new Error(`${shown} looks like a binary file (${stat.size} bytes); not shown`);
  const lines = buffer.toString('utf8').split('\n');
  const total = lines.length;
  const start = Math.max(1, input.startLine ?? 1);
  const end = Math.min(total, input.endLine ?? total);
  if (start > total) throw new Error(`${shown} has ${total} lines; startLine ${start} is past the end`);
  if (end < start) throw new Error(`endLine ${end} is before startLine ${start}`);
  const cap = Math.min(input.maxBytes ?? READ_MAX_BYTES, READ_MAX_BYTES);
  let text = lines.slice(start - 1, end).join('\n');
  let note = '';
  if (Buffer.byteLength(text) > cap) {
    text = Buffer.from(text).subarray(0, cap).toString('utf8');
    const shownLines = text.split('\n').length;
    note = `\n[truncated at ${cap} bytes; read from line ${start + shownLines - 1} on to see more]`;
  }
  return `${shown} (lines ${start}-${end} of ${total})\n${text}${note}`;
}
