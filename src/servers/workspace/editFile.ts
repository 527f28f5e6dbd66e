/**
 * `write_file` and `edit_file`. Edits are exact string replacements that fail loudly when the text is
 * missing or ambiguous, because a silent wrong edit is worse than a failed one. Both resolve the real
 * target, pass it through the protected-path guard, and read and write it through confinedFs, so the
 * file checked is the file changed.
 */
import { readInWorkspace, writeInWorkspace } from '../common/confinedFs';
import { displayPath, resolveInWorkspace } from '../common/safePath';
import type { WriteGuard } from './writeGuard';
import { READ_FILE_MAX_BYTES } from './readFile';

export function countOccurrences(text: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** Pure: the edited text, or an Error saying why the edit cannot be made. */
export function replaceExact(text: string, oldString: string, newString: string, replaceAll: boolean, shown: string): string {
  if (oldString === '') throw new Error('oldString is empty; use write_file to create or overwrite a file');
  if (oldString === newString) throw new Error('oldString and newString are the same; nothing to change');
  const count = countOccurrences(text, oldString);
  if (count === 0) throw new Error(`oldString was not found in ${shown}; read the file and copy the exact text, including whitespace`);
  if (count > 1 && !replaceAll) {
    throw new Error(`oldString occurs ${count} times in ${shown}; include more surrounding text to make it unique, or set replaceAll`);
  }
  return replaceAll ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
}

export function writeWorkspaceFile(rootReal: string, path: string, content: string, guard: WriteGuard, meta?: Record<string, unknown>): string {
  const absolute = resolveInWorkspace(rootReal, path);
  guard(absolute, meta);
  const { existed } = writeInWorkspace(rootReal, absolute, content);
  return `${existed ? 'overwrote' : 'created'} ${displayPath(rootReal, absolute)} (${Buffer.byteLength(content)} bytes)`;
}

export interface EditFileInput {
  path: string;
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

export function editWorkspaceFile(rootReal: string, input: EditFileInput, guard: WriteGuard, meta?: Record<string, unknown>): string {
  const absolute = resolveInWorkspace(rootReal, input.path);
  const shown = displayPath(rootReal, absolute);
  guard(absolute, meta);
  const { buffer } = readExisting(rootReal, absolute, shown);
  const before = buffer.toString('utf8');
  const replaceAll = input.replaceAll ?? false;
  const after = replaceExact(before, input.oldString, input.newString, replaceAll, shown);
  writeInWorkspace(rootReal, absolute, after);
  const count = replaceAll ? countOccurrences(before, input.oldString) : 1;
  return `edited ${shown}: replaced ${count} occurrence${count === 1 ? '' : 's'}`;
}

function readExisting(rootReal: string, absolute: string, shown: string): { buffer: Buffer } {
  let read;
  try {
    read = readInWorkspace(rootReal, absolute, READ_FILE_MAX_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`file not found: ${shown}`, { cause: error });
    throw error;
  }
  if (read.stat.isFile() && read.stat.size > READ_FILE_MAX_BYTES) throw new Error(`${shown} is ${read.stat.size} bytes; edit_file edits files up to ${READ_FILE_MAX_BYTES} bytes`);
  const buffer = read.buffer;
  if (buffer === undefined) throw new Error(`not a file: ${shown}`);
  return { buffer };
}
