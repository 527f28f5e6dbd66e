/**
 * What a click on a file the turn's "N instructions" line names opens. A workspace file opens as any
 * location does (confined to the workspace by testResultsMirror.ts). A user-level instruction file
 * (`~/.claude/CLAUDE.md`, `~/.codex/AGENTS.md`, ...: the ones instructionFiles.ts reads from the home
 * folder) opens only when the note the click came from names it: the webview is untrusted, so a path it
 * posts never opens a file outside the workspace by itself.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { USER_FILES } from '../../customizations/instructionFiles';
import type { ChatEntry } from '../../shared/protocol';
import type { TestResultsMirror } from '../testing/testResultsMirror';

/** The home file a note's `~/...` names, when the note `entryId` of these entries lists it and it is a user-level instruction file. */
export function userInstructionFile(entries: readonly ChatEntry[], entryId: string | undefined, file: string, home: string): string | undefined {
  if (entryId === undefined || !file.startsWith('~/')) return undefined;
  const note = entries.find((e) => e.id === entryId);
  if (note?.kind !== 'hookEvent' || note.files?.includes(file) !== true) return undefined;
  const relative = file.slice(2);
  return USER_FILES.some((f) => f.path === relative) ? join(home, relative) : undefined;
}

/** Opens the file a chat entry names (`entryId`: the note it came from, if any): a user-level instruction file its note lists, else a workspace location. */
export async function openNamedFile(entries: readonly ChatEntry[], message: { file: string; line?: number; entryId?: string }, testing: TestResultsMirror): Promise<void> {
  const own = userInstructionFile(entries, message.entryId, message.file, homedir());
  if (own === undefined) return testing.openLocation(message.file, message.line);
  try {
    await vscode.window.showTextDocument(vscode.Uri.file(own), { preview: true });
  } catch {
    void vscode.window.showWarningMessage(`Sprout: "${message.file}" cannot be opened (it may have been moved or deleted).`);
  }
}
