/**
 * `write_file` and `edit_file`. Edits are exact string replacements that fail loudly when the text is
 * missing or ambiguous, because a silent wrong edit is worse than a failed one.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { displayPath, resolveInWorkspace } from '../shared/safePath';

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

export function writeWorkspaceFile(rootReal: string, path: string, content: string): string {
  const absolute = resolveInWorkspace(rootReal, path);
  const shown = displayPath(rootReal, absolute);
  if (statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${shown} is a directory`);
  const existed = statSync(absolute, { throwIfNoEntry: false }) !== undefined;
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileSync(absolute, content);
  return `${existed ? 'overwrote' : 'created'} ${shown} (${Buffer.byteLength(content)} bytes)`;
}

export interface EditFileInput {
  path: string;
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

export function editWorkspaceFile(rootReal: string, input: EditFileInput): string {
  const absolute = resolveInWorkspace(rootReal, input.path);
  const shown = displayPath(rootReal, absolute);
  if (!statSync(absolute, { throwIfNoEntry: false })?.isFile()) throw new Error(`file not found: ${shown}`);
  const before = readFileSync(absolute, 'utf8');
  const replaceAll = input.replaceAll ?? false;
  const after = replaceExact(before, input.oldString, input.newString, replaceAll, shown);
  writeFileSync(absolute, after);
  const count = replaceAll ? countOccurrences(before, input.oldString) : 1;
  return `edited ${shown}: replaced ${count} occurrence${count === 1 ? '' : 's'}`;
}
