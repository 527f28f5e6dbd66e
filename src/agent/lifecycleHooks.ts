/**
 * The one way every lifecycle hook is asked and the one way its text reaches the model, shared by the
 * `_Stop` gate, compaction, the tool runner and the prompt runner: the allowlisted servers exposing
 * the hook are called in parallel (each through the HookCaller: timeout, fail open, kill on the second
 * consecutive timeout), the non-empty answers kept in server configuration order, and injected text
 * goes into the history as synthetic pairs. Also the hooks at a prompt's start (`_SessionStart`,
 * `_UserPromptSubmit`) and at the session's end (`_SessionEnd`).
 */
import type { Mode } from './modes';
import { type CoreContext, appendMessage } from './context';
import { buildHookPair, capHookField } from './hookEnvelope';
import { collectObjections, serversWithHook } from './stopGateRules';
import type { HookName, HookReply, SessionEndReason } from './events';
import type { ToolInfo } from './messages';
import { currentInstructions, instructionsMeta } from './instructionState';

/** Allowlisted servers that expose `hook`, in configuration order. */
export function hookServers(ctx: CoreContext, tools: readonly ToolInfo[], hook: HookName): string[] {
  // Most rounds have no such hook at all: answer without asking the host for its server order.
  if (!tools.some((t) => t.isHook && t.bareName === hook)) return [];
  return serversWithHook(tools, ctx.settings().hooks.allowlist, hook, ctx.tools.serverNames());
}

/**
 * Calls `hook` on `servers` at once with `_meta["sprout/hook"] = { event, sessionId, ...fields }` and
 * returns the non-empty answers in the order of `servers` (configuration order, as `hookServers`
 * gives it; a timeout, an error or a cancel gives none).
 */
export async function askHook(
  ctx: CoreContext,
  servers: readonly string[],
  hook: HookName,
  fields: Record<string, unknown>,
  signal: AbortSignal,
): Promise<HookReply[]> {
  if (servers.length === 0) return [];
  // docs/hooks.md#subagents: a subagent's hooks say which agent asks.
  const context = { sessionId: ctx.sessionId, ...fields, ...(ctx.subagent === undefined ? {} : { agent: { id: ctx.subagent.id, name: ctx.subagent.name } }) };
  const outcomes = await Promise.all(servers.map((server) => ctx.hookCaller.call(server, hook, context, signal)));
  return collectObjections(outcomes, servers);
}

/** Puts each text into the history as `hook`'s synthetic pair, in the order given. */
export function injectHookTexts(ctx: CoreContext, hook: HookName, texts: readonly HookReply[]): void {
  for (const { server, text } of texts) {
    ctx.emit({ type: 'hook_injected', hook, server, text });
    for (const message of buildHookPair(hook, server, text)) appendMessage(ctx, message);
  }
}

/**
 * Right after the user's prompt and before its first model call: `_SessionStart` (when due), then
 * `_UserPromptSubmit`, their texts injected in that order. False when the prompt was cancelled meanwhile.
 */
export async function runPromptStartHooks(ctx: CoreContext, tools: readonly ToolInfo[], prompt: string, signal: AbortSignal, mode: Mode = 'agent'): Promise<boolean> {
  const source = ctx.lifecycle.sessionStart;
  // docs/hooks.md#instructions-in-_meta: which files the model is told, so a hook can check what they ask.
  const instructions = instructionsMeta(currentInstructions(ctx.instructions, ctx.state().history));
  if (source !== null) {
    const texts = await askHook(ctx, hookServers(ctx, tools, '_SessionStart'), '_SessionStart', { source, ...instructions }, signal);
    if (signal.aborted) return false;
    ctx.lifecycle.sessionStart = null;
    injectHookTexts(ctx, '_SessionStart', texts);
  }
  const texts = await askHook(ctx, hookServers(ctx, tools, '_UserPromptSubmit'), '_UserPromptSubmit', { prompt: capHookField(prompt), mode, ...instructions }, signal);
  if (signal.aborted) return false;
  injectHookTexts(ctx, '_UserPromptSubmit', texts);
  return true;
}

/** `_SessionEnd`: called, timed and shown like any hook; whatever it answers reaches no model. */
export async function runSessionEndHook(ctx: CoreContext, tools: readonly ToolInfo[], reason: SessionEndReason, signal: AbortSignal): Promise<void> {
  await askHook(ctx, hookServers(ctx, tools, '_SessionEnd'), '_SessionEnd', { reason }, signal);
}
