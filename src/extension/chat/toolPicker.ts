/**
 * The tools button of the message box (**Sprout: Pick Tools**): turn servers and tools on and off for
 * the open chat, as VS Code's chat does. A quick pick lists each server as a group (its item turns all
 * of its tools on or off) with its tools under it, and the tool sets of the user's prompts folder
 * (always) and of the workspace (`.vscode/*.toolsets.jsonc`, none in Restricted Mode; both read by
 * src/runtime/toolSetFiles.ts, the workspace's winning a clash) as items that turn
 * their tools on or off together. Hooks are never listed and never turned off. The choice is the
 * chat's (Chat.toolChoice, kept in its own file) and goes with each prompt as `PromptOptions.tools`;
 * the core applies it (src/agent/toolSelection.ts). A choice only narrows what the servers offer.
 *
 * `picked`, when given (a test, a keybinding's args), answers the quick pick: the names to keep on
 * (servers, `server/tool`, `server__tool`, tool sets), everything else listed goes off.
 */
import * as vscode from 'vscode';
import type { ToolInfo } from '../../agent/messages';
import { type ToolSelection, type ToolSet, expandToolNames, selectionAllows, unmatchedEntries } from '../../agent/toolSelection';
import { quotedName } from '../../agent/nameText';
import { readToolSets } from '../../runtime/toolSetFiles';
import type { AgentHost } from '../agentHost';
import type { Chat } from './chat';
import { pickedOn } from './toolPickRule';

export interface PickToolsArg {
  picked: string[];
}

type Item = vscode.QuickPickItem & { tools: ToolInfo[] };

/** Fires with the labels of the picker's items (separators left out, in order) once it is shown: an extension-host test drives the real quick pick after it. */
const shown = new vscode.EventEmitter<string[]>();
export const onToolPickerShown = shown.event;

function items(tools: readonly ToolInfo[], sets: readonly ToolSet[], choice: ToolSelection): { list: Array<Item | vscode.QuickPickItem>; groups: Map<Item, boolean>; initial: Item[] } {
  const list: Array<Item | vscode.QuickPickItem> = [];
  const groups = new Map<Item, boolean>();
  const initial: Item[] = [];
  const allOn = (group: readonly ToolInfo[]): boolean => group.length > 0 && group.every((t) => selectionAllows(choice, t));
  const setItems = sets.flatMap((set) => {
    const only = expandToolNames([set.name], sets);
    const members = tools.filter((t) => selectionAllows({ only }, t));
    // Names no server lists (a VS Code built-in, a server not started) are said on the item; the rest count.
    const unknown = unmatchedEntries({ only }, tools);
    const detail = unknown.length === 0 ? set.file : `${set.file} · not found: ${unknown.map(quotedName).join(', ')}`;
    return members.length === 0 ? [] : [{ label: `$(tools) ${set.name}`, description: set.description ?? `tool set, ${members.length} tools`, detail, tools: members }];
  });
  if (setItems.length > 0) list.push({ label: 'Tool sets', kind: vscode.QuickPickItemKind.Separator });
  for (const item of setItems) {
    list.push(item);
    groups.set(item, allOn(item.tools));
  }
  for (const server of [...new Set(tools.map((t) => t.server))]) {
    const own = tools.filter((t) => t.server === server);
    list.push({ label: server, kind: vscode.QuickPickItemKind.Separator });
    const group: Item = { label: `$(server) ${server}`, description: `all ${own.length} tools of the server`, tools: own };
    list.push(group);
    groups.set(group, allOn(own));
    for (const tool of own) {
      const item: Item = { label: tool.bareName, description: tool.description.split('\n')[0]?.slice(0, 120) ?? '', tools: [tool] };
      list.push(item);
      if (selectionAllows(choice, tool)) initial.push(item);
    }
  }
  for (const [group, on] of groups) if (on) initial.push(group);
  return { list, groups, initial };
}

async function askUser(list: ReadonlyArray<Item | vscode.QuickPickItem>, initial: readonly Item[]): Promise<Set<Item> | undefined> {
  const pick = vscode.window.createQuickPick<Item | vscode.QuickPickItem>();
  pick.title = 'Sprout: tools for this chat';
  pick.placeholder = 'Check the servers and tools the agent may use in this chat';
  pick.canSelectMany = true;
  pick.matchOnDescription = true;
  pick.items = list;
  pick.selectedItems = initial;
  return new Promise((resolve) => {
    let accepted = false;
    pick.onDidAccept(() => {
      accepted = true;
      resolve(new Set(pick.selectedItems.filter((i): i is Item => 'tools' in i)));
      pick.hide();
    });
    pick.onDidHide(() => {
      if (!accepted) resolve(undefined);
      pick.dispose();
    });
    pick.show();
    shown.fire(list.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => i.label));
  });
}

/** Asks (or takes `arg`), then keeps the open chat's choice; returns it, or undefined when dismissed. */
export async function pickTools(host: AgentHost, chat: Chat, arg?: PickToolsArg, userPrompts?: string): Promise<ToolSelection | undefined> {
  const hub = await host.ensureServers();
  const tools = (await hub.listTools()).filter((t) => !t.isHook && !t.bareName.startsWith('_'));
  // A workspace file is untrusted: in Restricted Mode none is read (they could only narrow, but a window that trusts nothing reads nothing); the user's always are.
  const user = userPrompts === undefined ? undefined : { path: userPrompts, shown: 'User/prompts' };
  const { sets, notes } = readToolSets(vscode.workspace.isTrusted ? host.workspaceFolder : undefined, user);
  for (const note of notes) void vscode.window.showWarningMessage(`Sprout: tool sets: ${note}`);
  const current = chat.toolChoice;
  let on: Set<string>;
  if (arg !== undefined) {
    if (!Array.isArray(arg.picked) || !arg.picked.every((n) => typeof n === 'string')) {
      throw new Error('sprout.pickTools takes { "picked": [names] }: server names, server/tool, server__tool or tool sets to keep on.');
    }
    const only = expandToolNames(arg.picked, sets);
    const unknown = unmatchedEntries({ only }, tools);
    if (unknown.length > 0) void vscode.window.showWarningMessage(`Sprout: no MCP server lists ${unknown.map(quotedName).join(', ')}; the other tools were picked.`);
    on = new Set(tools.filter((t) => selectionAllows({ only }, t)).map((t) => t.qualifiedName));
  } else {
    const { list, groups, initial } = items(tools, sets, current);
    const picked = await askUser(list, initial);
    if (picked === undefined) return undefined;
    on = pickedOn(list.filter((i): i is Item => 'tools' in i), picked, groups);
  }
  // Tools of servers not listed now (stopped, failed) keep what the chat said of them.
  const listed = new Set(tools.map((t) => t.qualifiedName));
  const kept = (current.off ?? []).filter((entry) => !tools.some((t) => entry === t.qualifiedName || entry === t.server) && !listed.has(entry));
  const choice: ToolSelection = { off: [...kept, ...tools.filter((t) => !on.has(t.qualifiedName)).map((t) => t.qualifiedName)] };
  chat.setToolChoice(choice);
  return choice;
}
