/**
 * A rewind puts the bundled todo list back as it stood before the message rewound to, for both hosts:
 * the core reads that list from the transcript's events (`todoListAt` in src/agent/rewind.ts: the last
 * successful `todo` call or approved plan before the message), and it is written where the todo server
 * keeps that session's list (todoStore.ts, read on every call), so the todo `_Stop`, `_PostCompact` and
 * a resumed session's `_SessionStart` hold the agent to the list of that point, not to a later one. The
 * other sessions' lists are left alone.
 */
import { join } from 'node:path';
import type { AgentEvent } from '../agent/events';
import { todoListAt, type TodoEntry } from '../agent/rewind';
import { NAME_SEPARATOR } from '../agent/toolNames';
import { openCount } from '../servers/todo/todoList';
import { TodoStore } from '../servers/todo/todoStore';

/** The bundled todo server's name and tool (bundledServers.ts names it). */
const TODO_TOOL = `todo${NAME_SEPARATOR}todo`;

/**
 * Writes the list of that point as session `sessionId`'s list in `<serversStateDir>/todo` when anything
 * from event `keep` on changed it; the list written (undefined: nothing to put back).
 */
export function rewindTodoList(serversStateDir: string, sessionId: string, events: readonly AgentEvent[], keep: number): TodoEntry[] | undefined {
  const items = todoListAt(events, keep, TODO_TOOL);
  if (items === undefined) return undefined;
  new TodoStore(join(serversStateDir, 'todo'), { sessionId }).save(items);
  return items;
}

/** What a rewind says about the list it put back ('' when it left the list alone). */
export function todoRewindText(items: readonly TodoEntry[] | undefined): string {
  if (items === undefined) return '';
  if (items.length === 0) return 'The todo list is empty again, as it was then.';
  return `The todo list is back as it was then (${items.length} ${items.length === 1 ? 'item' : 'items'}, ${openCount(items)} open).`;
}
