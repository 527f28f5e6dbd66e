/**
 * Attached resources that follow their server (docs: README.md#bundled-mcp-servers, "MCP resources"): a resource attached to
 * a prompt (`#resource:`, `--resource`) is subscribed to where its server offers subscriptions, which
 * is said once (`resource_watch`); when the server says it changed (`notifications/resources/updated`)
 * the next round carries its new content, as a `sprout__read_resource` call and its result in the
 * history (a server's text, untrusted like any tool result). Subscriptions last for the session: when
 * it ends (the chat is closed, replaced or rewound, the CLI run ends) each is let go
 * (`endResourceWatch`), and the host unsubscribes once no other session holds it.
 */
import type { AgentEvent } from './events';
import { capText } from './contextMentions';
import { errorMessage } from './errorMessage';
import { READ_RESOURCE_TOOL_NAME, contentsText, type ResourceHost, type ResourceRef } from './resources';

/** What of a session's context the watch uses (context.ts's CoreContext, named structurally: it names this file). */
interface WatchContext {
  readonly tools: { readonly resources?: ResourceHost };
  readonly resourceWatch?: ResourceWatch;
  emit(event: AgentEvent): void;
  state(): { history: readonly unknown[] };
}

/** One session's watched resources, those changed since their last read, and what was said. */
export interface ResourceWatch {
  watched: Map<string, ResourceRef>;
  changed: Set<string>;
  said: Set<string>;
  /** Ends the session's listening to the servers' updates (set on the first watch). */
  stop?: () => void;
  reads: number;
}

export function newResourceWatch(): ResourceWatch {
  return { watched: new Map(), changed: new Set(), said: new Set(), reads: 0 };
}

const keyOf = (ref: ResourceRef): string => JSON.stringify([ref.server, ref.uri]);

/** Subscribes to the prompt's attached resources not watched yet; each one's state is said once. */
export async function watchResources(ctx: WatchContext, refs: readonly ResourceRef[], signal: AbortSignal): Promise<void> {
  const host = ctx.tools.resources;
  const watch = ctx.resourceWatch;
  if (host?.subscribe === undefined || watch === undefined || refs.length === 0) return;
  watch.stop ??= host.onUpdated?.((server, uri) => {
    const key = keyOf({ server, uri });
    if (watch.watched.has(key)) watch.changed.add(key);
  });
  for (const { server, uri } of refs) {
    const key = keyOf({ server, uri });
    if (watch.said.has(key)) continue;
    watch.said.add(key);
    try {
      const state = await host.subscribe(server, uri, signal);
      if (state === 'subscribed') watch.watched.set(key, { server, uri });
      ctx.emit({ type: 'resource_watch', server, uri, state });
    } catch (error) {
      if (signal.aborted) return;
      ctx.emit({ type: 'resource_watch', server, uri, state: 'failed', message: errorMessage(error) });
    }
  }
}

/** The session is done: its listening ends and every watched resource is let go (a server that fails to unsubscribe is ignored). */
export function endResourceWatch(ctx: Pick<WatchContext, 'tools' | 'resourceWatch'>): void {
  const watch = ctx.resourceWatch;
  if (watch === undefined) return;
  watch.stop?.();
  watch.stop = undefined;
  const host = ctx.tools.resources;
  for (const { server, uri } of watch.watched.values()) void host?.unsubscribe?.(server, uri).catch(() => undefined);
  watch.watched.clear();
  watch.changed.clear();
}

/** The watched resources that changed, read again: each a read call and its result in the history, before the round. */
export async function refreshChangedResources(ctx: WatchContext, signal: AbortSignal): Promise<void> {
  const host = ctx.tools.resources;
  const watch = ctx.resourceWatch;
  if (host === undefined || watch === undefined || watch.changed.size === 0) return;
  const keys = [...watch.changed];
  watch.changed.clear();
  for (const key of keys) {
    const ref = watch.watched.get(key);
    if (ref === undefined) continue;
    let text: string;
    try {
      text = `The attached resource changed; it now reads:\n${capText(contentsText(ref.server, ref.uri, await host.read(ref.server, ref.uri, signal)))}`;
    } catch (error) {
      if (signal.aborted) return;
      text = `The attached resource changed, but reading it again failed: ${errorMessage(error)}`;
    }
    watch.reads += 1;
    const id = `sprout_resource_${ctx.state().history.length}_${watch.reads}`;
    ctx.emit({ type: 'message', message: { role: 'assistant', content: null, toolCalls: [{ id, name: READ_RESOURCE_TOOL_NAME, arguments: JSON.stringify(ref) }] } });
    ctx.emit({ type: 'message', message: { role: 'tool', toolCallId: id, content: text } });
    ctx.emit({ type: 'resource_watch', server: ref.server, uri: ref.uri, state: 'updated' });
  }
}
