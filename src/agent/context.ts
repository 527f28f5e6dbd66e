/**
 * What one session's moving parts share while a prompt runs: the ports, the live settings, the event
 * sink (the only way history changes, so the transcript and the UI see every change) and the state
 * rebuilt from those events. The abort helpers every waiting step uses are in cancellation.ts.
 */
import type { HookCaller } from './hookCaller';
import type { HistoryLedger } from './historyLedger';
import type { Clock, Logger, ModelClient, ModelConversation, ToolHost, ToolListOptions } from './ports';
import type { ReplayState } from './replayState';
import type { AgentEvent, SessionStartSource } from './events';
import type { AgentSettings } from './settings';
import type { ChatMessage } from './messages';
import type { InstructionState } from './instructionState';
import type { SkillSet } from './skills';
import type { ResourceWatch } from './resourceWatch';
import type { SubagentRef, SubagentSlots, SubagentStarter } from './subagents';

export interface CoreContext {
  readonly sessionId: string;
  settings(): AgentSettings;
  readonly model: ModelClient;
  /** This session as a conversation of the (possibly shared) model client. */
  readonly conversation?: ModelConversation;
  readonly tools: ToolHost;
  readonly clock: Clock;
  readonly logger?: Logger;
  readonly hookCaller: HookCaller;
  /** Applies the event to the state, writes it to the transcript and tells every listener. */
  emit(event: AgentEvent): void;
  state(): ReplayState;
  /** Servers already told "hooks present but not enabled" in this session. */
  readonly hintedServers: Set<string>;
  /** The tool cuts already said in this session (`tools_limited`), by their servers and counts. */
  readonly saidToolLimits?: Set<string>;
  /** Running size and validity of the history, so a round does not re-walk all of it. */
  readonly historyLedger?: HistoryLedger;
  /** Where the session stands between `_SessionStart` and `_SessionEnd`. */
  readonly lifecycle: SessionLifecycle;
  /** Set once the session listed tools: only that first listing may wait the longer startup wait. */
  readonly toolWait?: { listedOnce: boolean };
  /** The repository's and the user's instruction files and the paths the conversation touched (instructionState.ts). */
  readonly instructions?: InstructionState;
  /** The skills the host found last (PromptOptions.skills), kept for later prompts until one brings new ones (skills.ts). */
  readonly skills?: { set: SkillSet | undefined; announced: string };
  /** Set in a subagent's session: its hooks' `_meta` name it (`agent`), its end of turn asks `_SubagentStop`, and it never delegates. */
  readonly subagent?: SubagentRef;
  /** How this session starts its children (subagents.ts); absent where a session cannot delegate. */
  readonly subagents?: { slots: SubagentSlots; start: SubagentStarter };
  /** The attached resources watched for changes (resourceWatch.ts). */
  readonly resourceWatch?: ResourceWatch;
  /** The custom agent last said (`agent` event), by name and notes, so it is said once per change. */
  readonly agentSaid?: { key: string };
}

export interface SessionLifecycle {
  /** `_SessionStart` is due before the next prompt's first model call, with this source; null once made. */
  sessionStart: SessionStartSource | null;
  /** A prompt ran in this process, so `_SessionEnd` is owed to the servers that saw it. */
  promptRan: boolean;
  /** `_SessionEnd` was made (once per session). */
  ended: boolean;
}

/**
 * How long this listing may wait for servers that are not ready, and the notice saying which: the
 * first listing of a session gets the startup wait, every later one the short grace (the bound in docs/hooks.md#sovereignty-timeouts-kills-budgets).
 */
export function toolListOptions(ctx: CoreContext): Required<Pick<ToolListOptions, 'waitMs' | 'onWaiting' | 'onWaited'>> {
  const settings = ctx.settings();
  const first = ctx.toolWait !== undefined && !ctx.toolWait.listedOnce;
  if (ctx.toolWait !== undefined) ctx.toolWait.listedOnce = true;
  const waitMs = first ? Math.max(settings.firstPromptServerWaitMs, settings.serverReadyGraceMs) : settings.serverReadyGraceMs;
  return {
    waitMs,
    onWaiting: (servers) => ctx.emit({ type: 'servers_waiting', servers, waitMs }),
    onWaited: (servers, late, waitedMs) => ctx.emit({ type: 'servers_waited', servers, late, waitedMs }),
  };
}

export function appendMessage(ctx: CoreContext, message: ChatMessage): void {
  ctx.emit({ type: 'message', message });
}
