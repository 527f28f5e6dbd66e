/**
 * Performs a compaction ("handoff", docs/hooks.md#compaction): one tool-less model call for handoff notes, then a fresh
 * history of the notes, the `_PostCompact` output of every allowlisted server as synthetic pairs, and
 * the re-seated current prompt. When the notes cannot be had, whole oldest turns are dropped instead
 * (and `_PostCompact` is not run). The result is one `compaction` event carrying the fresh history.
 */
import { type CoreContext } from './context';
import { buildHookPair } from './hookEnvelope';
import { callModel } from './modelTurn';
import {
  SUMMARY_INSTRUCTIONS,
  SUMMARY_PREFIX,
  SUMMARY_SYSTEM_PROMPT,
  compactionLimit,
  dropOldestTurns,
  estimatePromptTokens,
  renderForSummary,
  summaryInputBudget,
} from './compactionRules';
import type { ToolSpec } from './ports';
import { askHook, hookServers } from './lifecycleHooks';
import type { ChatMessage, ImagePart, ToolInfo } from './messages';
import type { HookReply } from './events';

export type CompactionResult = 'compacted' | 'cancelled' | 'too_large';

export interface CompactionRequest {
  trigger: 'auto' | 'manual';
  /** The prompt being worked on, re-seated after the notes; null between prompts. */
  currentPrompt: string | null;
  /** The current prompt's images, re-seated with it. */
  currentImages?: readonly ImagePart[];
  tools: readonly ToolInfo[];
  specs: readonly ToolSpec[];
  fixedChars: number;
}

async function summarise(ctx: CoreContext, history: readonly ChatMessage[], signal: AbortSignal): Promise<string | 'cancelled' | null> {
  const settings = ctx.settings();
  const transcript = renderForSummary(history, summaryInputBudget(settings));
  const turn = await callModel(
    ctx,
    {
      model: settings.model,
      messages: [
        { role: 'system', content: SUMMARY_SYSTEM_PROMPT },
        { role: 'user', content: `<conversation>\n${transcript}\n</conversation>\n\n${SUMMARY_INSTRUCTIONS}` },
      ],
      tools: [],
    },
    signal,
    false,
  );
  if (turn.kind === 'cancelled') return 'cancelled';
  if (turn.kind === 'error') {
    ctx.logger?.warn('compaction summary failed; dropping oldest turns instead', { message: turn.message });
    return null;
  }
  const summary = (turn.reply.content ?? '').trim();
  return summary === '' ? null : summary;
}

async function postCompact(ctx: CoreContext, tools: readonly ToolInfo[], signal: AbortSignal): Promise<HookReply[]> {
  const settings = ctx.settings();
  const fields = { rejectionsUsed: ctx.state().rejectionsUsed, rejectionBudget: settings.hooks.stopMaxRejections, afterObjection: false };
  return askHook(ctx, hookServers(ctx, tools, '_PostCompact'), '_PostCompact', fields, signal);
}

function fallback(ctx: CoreContext, request: CompactionRequest): CompactionResult {
  const history = ctx.state().history;
  const limit = compactionLimit(ctx.settings());
  const fits = (h: ChatMessage[]): boolean => estimatePromptTokens({ history: h, lastUsage: null, usageMessageCount: 0 }, request.fixedChars) <= limit;
  const dropped = dropOldestTurns(history, fits);
  if (dropped === null) return 'too_large';
  ctx.emit({
    type: 'compaction',
    trigger: request.trigger,
    summary: null,
    injected: [],
    fallback: true,
    droppedMessages: dropped.dropped,
    history: dropped.history,
  });
  return 'compacted';
}

export async function compact(ctx: CoreContext, request: CompactionRequest, signal: AbortSignal): Promise<CompactionResult> {
  const old = ctx.state().history;
  const summary = await summarise(ctx, old, signal);
  if (summary === 'cancelled') return 'cancelled';
  if (summary === null) return fallback(ctx, request);
  // The notes cost a model call, so they are kept even if the user cancels during _PostCompact.
  const injected = await postCompact(ctx, request.tools, signal);
  const fresh: ChatMessage[] = [{ role: 'user', content: SUMMARY_PREFIX + summary }];
  for (const { server, text } of injected) fresh.push(...buildHookPair('_PostCompact', server, text));
  const images = request.currentImages ?? [];
  if (request.currentPrompt !== null) fresh.push({ role: 'user', content: request.currentPrompt, ...(images.length > 0 ? { images: [...images] } : {}) });
  ctx.emit({ type: 'compaction', trigger: request.trigger, summary, injected, fallback: false, droppedMessages: old.length, history: fresh });
  return signal.aborted ? 'cancelled' : 'compacted';
}
