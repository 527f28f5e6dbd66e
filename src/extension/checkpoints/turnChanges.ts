/** A chat's file changes as its cards offer them: a tool card's diff (by entry id), a turn's undo (by turn). */
import * as vscode from 'vscode';
import type { Chat } from '../chat/chat';
import { openChangeDiff, undoChanges } from './fileChanges';

export async function openDiff(chat: Chat, entryId: string): Promise<void> {
  const record = chat.checkpoints.get(entryId.replace(/^t-/, ''));
  if (record) await openChangeDiff(chat.id, record);
}

/** Undoes what turn `turn` changed (not while a prompt runs: its calls may still write); true when done, saved to disk too. */
export async function undoTurn(chat: Chat, turn: number): Promise<boolean> {
  if (chat.running) {
    void vscode.window.showInformationMessage('Sprout: wait for the agent to finish (or stop it) before undoing its changes.');
    return false;
  }
  const done = await undoChanges(chat.checkpoints, chat.view.turnCallIds(turn));
  if (done) chat.view.markTurnUndone(turn);
  return done;
}
