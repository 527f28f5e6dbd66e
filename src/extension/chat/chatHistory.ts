/**
 * Past chats in a quick pick: newest first, titled by their first prompt, with when they were last
 * used; each row has buttons to rename and to delete the chat. Picking a row opens that chat.
 */
import * as vscode from 'vscode';
import type { ChatSummary } from './chatIndex';

export interface HistoryActions {
  list(): ChatSummary[];
  currentId(): string | undefined;
  open(chatId: string): Promise<void>;
  rename(chatId: string, title: string): void;
  remove(chatId: string): Promise<void>;
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };

/** "just now", "5 min ago", "3 h ago", "yesterday", or the date. */
export function whenText(at: number, now = Date.now()): string {
  const minutes = Math.round((now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`;
  if (minutes < 48 * 60) return 'yesterday';
  return new Date(at).toLocaleDateString();
}

type Item = vscode.QuickPickItem & { chatId: string };

function items(actions: HistoryActions): Item[] {
  const current = actions.currentId();
  return actions.list().map((chat) => ({
    chatId: chat.id,
    label: chat.title,
    description: `${whenText(chat.updatedAt)}${chat.id === current ? ' · open now' : ''}`,
    buttons: [RENAME, DELETE],
  }));
}

export function showChatHistory(actions: HistoryActions): void {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'Sprout: Past Chats';
  pick.placeholder = 'Open a past chat (type to filter)';
  pick.matchOnDescription = true;
  pick.items = items(actions);
  if (pick.items.length === 0) pick.placeholder = 'No past chats yet: the first prompt of a chat gives it its title';
  pick.onDidAccept(() => {
    const chosen = pick.selectedItems[0];
    pick.hide();
    if (chosen) void actions.open(chosen.chatId);
  });
  pick.onDidTriggerItemButton(async ({ item, button }) => {
    if (button === DELETE) {
      await actions.remove(item.chatId);
      pick.items = items(actions);
      return;
    }
    pick.hide();
    const title = await vscode.window.showInputBox({ title: 'Sprout: Rename Chat', value: item.label, validateInput: (v) => (v.trim() === '' ? 'A title cannot be empty.' : undefined) });
    if (title !== undefined) actions.rename(item.chatId, title);
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
