/**
 * Which session a tool call comes from, as every MCP server is told: each tool call the agent makes
 * carries `_meta["sprout/session"] = { sessionId }`, plus `agent: { id, name }` from a subagent
 * (docs/hooks.md#the-session-on-tool-calls). A server that keeps state per chat (the bundled todo
 * list) keys it by this, and its hooks by `_meta["sprout/hook"]`'s same fields. Nothing secret goes
 * here: the session id is the one hooks are already told. A server reads it as untrusted input.
 */
import type { HOOK_META_KEY } from './hookCaller';
import type { SubagentRef } from './subagents';

export const SESSION_META_KEY = 'sprout/session';

/** The `_meta` of a tool call from session `sessionId` (from subagent `agent`, when it is one). */
export function sessionMeta(sessionId: string, agent?: SubagentRef): Record<string, unknown> {
  return { [SESSION_META_KEY]: { sessionId, ...(agent === undefined ? {} : { agent: { id: agent.id, name: agent.name } }) } };
}

/** A request's session: the chat's id, and the subagent's id when one asks. */
export interface SessionOfRequest {
  sessionId: string;
  agentId?: string;
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The session a request names under `key` of its `_meta` (`sprout/session` on a tool call,
 * `sprout/hook` on a hook call); undefined when it names none or not as a non-empty string.
 */
export function sessionOfMeta(meta: Record<string, unknown> | undefined, key: typeof SESSION_META_KEY | typeof HOOK_META_KEY): SessionOfRequest | undefined {
  const context = meta?.[key];
  const sessionId = field(context, 'sessionId');
  if (typeof sessionId !== 'string' || sessionId === '') return undefined;
  const agentId = field(field(context, 'agent'), 'id');
  return typeof agentId === 'string' && agentId !== '' ? { sessionId, agentId } : { sessionId };
}
