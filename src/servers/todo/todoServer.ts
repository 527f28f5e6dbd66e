/**
 * The `todo` MCP server: the model keeps its plan with the `todo` tool, and three lifecycle hooks hold
 * it to the plan. `_Stop` objects while items are open; `_PostCompact` re-injects the list after the
 * history was compacted; `_SessionStart` re-injects the open list when a session is resumed. Hooks
 * take exactly `{}` (context comes in `_meta`) and are hidden from the model by the agent. Each
 * session has its own list (todoStore.ts): the tool's by the call's `_meta["sprout/session"]`, the
 * hooks' by `_meta["sprout/hook"]` (sessionMeta.ts reads both).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { HOOK_META_KEY } from '../../agent/hookCaller';
import { SESSION_META_KEY, sessionOfMeta } from '../../agent/sessionMeta';
import { errorResult, guarded, textResult } from '../common/toolResults';
import { MAX_ITEM_CHARS, MAX_ITEMS, renderPostCompact, renderResumed, renderStopObjection, renderUpdate, validateTodoList, vanishedOpenItems } from './todoList';
import { TodoStore } from './todoStore';

export interface TodoServerOptions {
  stateDir: string;
}

const hookAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

/** A field of the hook context the agent sends in `_meta["sprout/hook"]` (untrusted: check its type). */
function hookField(meta: Record<string, unknown> | undefined, key: string): unknown {
  const context = meta?.[HOOK_META_KEY];
  return context !== null && typeof context === 'object' ? (context as Record<string, unknown>)[key] : undefined;
}

type Meta = Record<string, unknown> | undefined;

/** A factory of server instances (one per connection and protocol era) over one state folder. */
export function createTodoServer(options: TodoServerOptions): () => McpServer {
  const toolStore = (meta: Meta): TodoStore => new TodoStore(options.stateDir, sessionOfMeta(meta, SESSION_META_KEY));
  const hookStore = (meta: Meta): TodoStore => new TodoStore(options.stateDir, sessionOfMeta(meta, HOOK_META_KEY));
  return () => todoServer(toolStore, hookStore);
}

function todoServer(toolStore: (meta: Meta) => TodoStore, hookStore: (meta: Meta) => TodoStore): McpServer {
  const server = new McpServer({ name: 'sprout-todo', version: '0.1.0' });
  server.registerTool(
    'todo',
    {
      description:
        'Replace your whole todo list with `items` (each `{ text, done }`) and get it back with the next open item marked. ' +
        `Use it to plan multi-step work and tick items off as you finish them. At most ${MAX_ITEMS} items of ${MAX_ITEM_CHARS} characters, no duplicates. ` +
        'You will not be allowed to finish while items are open. Send an empty list to clear it.',
      inputSchema: z.object({
        items: z.array(z.object({ text: z.string(), done: z.boolean() })).describe('The complete new list, in order'),
      }),
      annotations: { title: 'Update todo list', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ items }, ctx) =>
      guarded(() => {
        const store = toolStore(ctx.mcpReq._meta);
        const checked = validateTodoList(items);
        if (!checked.ok) return errorResult(`The todo list was not changed:\n- ${checked.errors.join('\n- ')}`);
        const vanished = vanishedOpenItems(store.load(), checked.items);
        store.save(checked.items);
        return textResult(renderUpdate(checked.items, vanished));
      }),
  );
  server.registerTool(
    '_Stop',
    { description: 'Lifecycle hook: objects to ending the turn while todo items are open.', inputSchema: z.object({}), annotations: hookAnnotations },
    (_args, ctx) => guarded(() => textResult(renderStopObjection(hookStore(ctx.mcpReq._meta).loadForHook()))),
  );
  server.registerTool(
    '_PostCompact',
    { description: 'Lifecycle hook: returns the todo list for the fresh context after compaction.', inputSchema: z.object({}), annotations: hookAnnotations },
    (_args, ctx) => guarded(() => textResult(renderPostCompact(hookStore(ctx.mcpReq._meta).loadForHook()))),
  );
  server.registerTool(
    '_SessionStart',
    { description: 'Lifecycle hook: on a resumed session, returns the open todo list.', inputSchema: z.object({}), annotations: hookAnnotations },
    (_args, ctx) => guarded(() => textResult(hookField(ctx.mcpReq._meta, 'source') === 'resume' ? renderResumed(hookStore(ctx.mcpReq._meta).loadForHook()) : '')),
  );
  return server;
}
