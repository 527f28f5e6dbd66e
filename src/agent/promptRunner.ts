/**
 * The prompt runner: one user prompt, round after round, until a typed outcome. Before the first model
 * call the prompt-start hooks run (`_SessionStart` when due, `_UserPromptSubmit`). Each round first
 * decides (a value: finish, compact, or call the model), then handles the reply: tool calls run and
 * loop, `length`/`content_filter` end the turn without hooks, anything else goes to the `_Stop` gate
 * with the prompt's evidence. Cancel at any point leaves a valid history: calls are answered, a
 * partial reply is kept as text.
 */
import { compact } from './compact';
import { compactionLimit, estimatePromptTokens, fixedChars } from './compactionRules';
import { CancelledError, raceAbort } from './cancellation';
import { type CoreContext, appendMessage, toolListOptions } from './context';
import { validateHistory, wireSafeCalls } from './historyValidity';
import { callModel, replyMessage } from './modelTurn';
import type { ModelReply } from './ports';
import { type RoundChoice, type RoundRequest, roundRequest } from './roundRequest';
import { type PromptGate, STOP_EVIDENCE_MAX_CALLS, emitBudget, endWithObjectionsStanding, newPromptGate, noteToolRound, runStopGate } from './stopGate';
import { budgetAtPromptStart, ignoredHookServers } from './stopGateRules';
import { runPromptStartHooks } from './lifecycleHooks';
import type { DenialCount } from './toolHooks';
import { type ToolCallRecord, answerUnrun, runToolCalls } from './toolRunner';
import type { Outcome, OutcomeReason } from './events';
import type { ChatMessage, ToolInfo } from './messages';
import { errorMessage } from './errorMessage';
import { skillsAnnouncement } from './skills';
import { type AgentProfile, agentAllows, agentNotes } from './agentProfiles';
import { type PromptAttachment, type PromptOptions, withAttachments } from './promptAttachments';
import { announcement, notePaths } from './instructionState';
import { selectionAllows, unmatchedEntries } from './toolSelection';
import { DELEGATE_TOOL_INFO, delegateChoices } from './subagents';
import { refreshChangedResources, watchResources } from './resourceWatch';

type Step = { kind: 'next' } | { kind: 'finish'; outcome: Omit<Outcome, 'rounds'> };
type RoundPlan = { kind: 'finish'; reason: OutcomeReason; message?: string } | { kind: 'compact' } | { kind: 'call_model' };

const finish = (reason: OutcomeReason, extra: Partial<Outcome> = {}): Step => ({ kind: 'finish', outcome: { reason, ...extra } });

/** The per-round decision, before anything is sent. */
export function planRound(input: { rounds: number; maxRounds: number; estimate: number; compactedThisRound: boolean; limit: number; window: number }): RoundPlan {
  if (input.maxRounds > 0 && input.rounds >= input.maxRounds) return { kind: 'finish', reason: 'max_rounds' };
  if (input.estimate > input.limit && !input.compactedThisRound) return { kind: 'compact' };
  if (input.estimate > input.window) {
    return { kind: 'finish', reason: 'error', message: 'The conversation is too large for the model\'s context window even after compaction; start a new chat.' };
  }
  return { kind: 'call_model' };
}

export class PromptRunner {
  private rounds = 0;
  private readonly gate: PromptGate = newPromptGate();
  private startHooksDone = false;
  private readonly denials: DenialCount = { used: 0 };
  /** `_Stop`'s evidence: every call of this prompt, as it ended. */
  private readonly toolCalls: ToolCallRecord[] = [];
  private unmatchedSaid = false;

  constructor(
    private readonly ctx: CoreContext,
    private readonly prompt: string,
    private readonly signal: AbortSignal,
    private readonly options: PromptOptions = {},
  ) {}

  /** The prompt's tool selection and the agents it may delegate to, for its rounds and calls. */
  private get choice(): RoundChoice {
    return { ...(this.options.tools ? { selection: this.options.tools } : {}), ...(this.options.agent ? { agent: this.options.agent } : {}), delegates: this.delegates };
  }

  /** The agents `sprout__delegate` may name this prompt (none in a subagent: depth 1; none when the tool selection leaves the tool out). */
  private get delegates(): AgentProfile[] {
    // Like any tool: a selection or a custom agent whose tools leave it out does not delegate.
    if (!selectionAllows(this.options.tools, DELEGATE_TOOL_INFO) || !agentAllows(this.options.agent, DELEGATE_TOOL_INFO)) return [];
    return delegateChoices(this.options.agents, this.ctx.settings().subagents.enabled, this.ctx.subagent !== undefined || this.ctx.subagents === undefined, this.options.mode);
  }

  private get attachments(): readonly PromptAttachment[] {
    return this.options.attachments ?? [];
  }

  async run(): Promise<Outcome> {
    const { ctx } = this;
    const attached = this.attachments.map((a) => a.label);
    const { mode, agent } = this.options;
    ctx.emit({ type: 'prompt_started', text: this.prompt, ...(attached.length > 0 ? { attachments: attached } : {}), ...(mode === undefined ? {} : { mode }), ...(agent === undefined ? {} : { agent: agent.name }) });
    if (ctx.instructions !== undefined) {
      if (this.options.instructions !== undefined) ctx.instructions.set = this.options.instructions;
      notePaths(ctx.instructions, attached);
    }
    if (ctx.skills !== undefined && this.options.skills !== undefined) {
      ctx.skills.set = this.options.skills;
      const announced = skillsAnnouncement(this.options.skills);
      const key = JSON.stringify(announced);
      // Said when what the model is offered changes; a session that never had skills says nothing.
      const nothing = ctx.skills.announced === '' && announced.skills.length === 0 && announced.notes.length === 0;
      if (key !== ctx.skills.announced && !nothing) ctx.emit({ type: 'skills', ...announced });
      ctx.skills.announced = key;
    }
    const hooks = ctx.settings().hooks;
    if (hooks.stopBudgetScope === 'prompt') emitBudget(ctx, budgetAtPromptStart(ctx.state().rejectionsUsed, hooks));
    const images = this.options.images ?? [];
    appendMessage(ctx, { role: 'user', content: withAttachments(this.prompt, this.attachments), ...(images.length > 0 ? { images: [...images] } : {}) });
    await watchResources(ctx, this.options.resources ?? [], this.signal);
    ctx.lifecycle.promptRan = true;
    for (;;) {
      const step = this.signal.aborted ? finish('cancelled') : await this.round();
      if (step.kind === 'finish') return { ...step.outcome, rounds: this.rounds };
    }
  }

  /** Tools for this round: without I/O when the tool host has every list at hand (the usual round). */
  private async listTools(): Promise<ToolInfo[] | Step> {
    try {
      return this.hintIgnoredHooks(await raceAbort(this.ctx.tools.listTools(this.signal, toolListOptions(this.ctx)), this.signal));
    } catch (error) {
      if (error instanceof CancelledError) return finish('cancelled');
      return finish('error', { message: `Listing the MCP tools failed: ${errorMessage(error)}` });
    }
  }

  private hintIgnoredHooks(tools: ToolInfo[]): ToolInfo[] {
    const ignored = ignoredHookServers(tools, this.ctx.settings().hooks.allowlist);
    for (const [server, hooks] of ignored) {
      if (this.ctx.hintedServers.has(server)) continue;
      this.ctx.hintedServers.add(server);
      this.ctx.emit({ type: 'hooks_not_enabled', server, hooks });
    }
    return tools;
  }

  /** Which servers are behind the tool search is said once per session for each set of servers and counts. */
  private sayToolLimit(request: RoundRequest): void {
    const { limited } = request;
    if (limited === undefined) return;
    // Loading tools changes the counts; the note is about which servers are behind the search.
    const key = JSON.stringify(limited.servers.map((s) => [s.server, s.listed]));
    const said = this.ctx.saidToolLimits;
    if (said?.has(key)) return;
    said?.add(key);
    this.ctx.emit({ type: 'tools_limited', ...limited });
  }

  /** The selection's names no server lists are said once per prompt (the rest still apply). */
  private sayUnmatched(tools: readonly ToolInfo[]): void {
    if (this.unmatchedSaid) return;
    this.unmatchedSaid = true;
    const names = unmatchedEntries(this.options.tools, [...tools, DELEGATE_TOOL_INFO]);
    if (names.length > 0) this.ctx.emit({ type: 'tools_unmatched', names });
  }

  /** The chat's custom agent and what of it is not used (its file's notes, tools no server lists): said when that changes. */
  private sayAgent(tools: readonly ToolInfo[]): void {
    const { agent } = this.options;
    if (agent === undefined || this.ctx.agentSaid === undefined) return;
    const notes = agentNotes(agent, tools);
    const key = JSON.stringify([agent.name, agent.source, notes]);
    if (key === this.ctx.agentSaid.key) return;
    this.ctx.agentSaid.key = key;
    this.ctx.emit({ type: 'agent', name: agent.name, source: agent.source, notes });
  }

  private async round(): Promise<Step> {
    const { ctx } = this;
    const cached = ctx.tools.cachedTools?.();
    const tools = cached !== undefined ? this.hintIgnoredHooks(cached) : await this.listTools();
    if (!Array.isArray(tools)) return tools;
    // A subagent's task is not a user prompt: no `_SessionStart` or `_UserPromptSubmit` (docs/hooks.md#subagents).
    if (!this.startHooksDone && ctx.subagent === undefined) {
      if (!(await runPromptStartHooks(ctx, tools, this.prompt, this.signal, this.options.mode))) return finish('cancelled');
      this.startHooksDone = true;
    }
    await refreshChangedResources(ctx, this.signal);
    const request = roundRequest(ctx, tools, this.options.mode, this.choice);
    this.sayAgent(tools);
    this.sayToolLimit(request);
    this.sayUnmatched(tools);
    const { specs } = request;
    const announced = request.instructions !== undefined && ctx.instructions !== undefined ? announcement(ctx.instructions, request.instructions) : undefined;
    if (announced !== undefined) ctx.emit({ type: 'instructions', ...announced });
    const settings = ctx.settings();
    const fixed = fixedChars(request.system, specs);
    const ledger = ctx.historyLedger;
    let compacted = false;
    for (;;) {
      const plan = planRound({
        rounds: this.rounds,
        maxRounds: settings.maxRounds,
        estimate: ledger ? estimatePromptTokens(ctx.state(), fixed, (h) => ledger.historyChars(h)) : estimatePromptTokens(ctx.state(), fixed),
        compactedThisRound: compacted,
        limit: compactionLimit(settings),
        window: settings.contextWindowTokens,
      });
      if (plan.kind === 'finish') return this.finishPlanned(plan);
      if (plan.kind === 'call_model') break;
      const result = await compact(ctx, { trigger: 'auto', currentPrompt: this.prompt, currentImages: this.options.images, tools, specs, fixedChars: fixed }, this.signal);
      if (result === 'cancelled') return finish('cancelled');
      if (result === 'too_large') return finish('error', { message: 'The current prompt alone does not fit the model\'s context window.' });
      compacted = true;
    }
    return await this.callModel(tools, request);
  }

  /** The round cap can come right after an objection: the turn then ends with it standing (docs/hooks.md#the-_stop-gate). */
  private finishPlanned(plan: Extract<RoundPlan, { kind: 'finish' }>): Step {
    const unresolved = plan.reason === 'max_rounds' ? endWithObjectionsStanding(this.ctx, this.gate, 'max_rounds') : undefined;
    return finish(plan.reason, { ...(plan.message === undefined ? {} : { message: plan.message }), ...(unresolved === undefined ? {} : { unresolved }) });
  }

  private async callModel(tools: ToolInfo[], request: RoundRequest): Promise<Step> {
    const { ctx } = this;
    const settings = ctx.settings();
    const history = ctx.state().history;
    const problems = ctx.historyLedger?.validate(history) ?? validateHistory(history);
    if (problems.length > 0) {
      ctx.logger?.error('refusing to send an invalid history', { problems });
      return finish('error', { message: `Internal error: the chat history is invalid (${problems[0]?.problem ?? ''}).` });
    }
    this.rounds += 1;
    ctx.emit({ type: 'round_started', round: this.rounds });
    // concat, not a spread: it copies the elements without the iterator protocol, a cost per message every round.
    const messages = ([{ role: 'system', content: request.system }] as ChatMessage[]).concat(history);
    const turn = await callModel(ctx, { model: settings.model, messages, tools: request.specs }, this.signal);
    if (turn.kind === 'cancelled') {
      if (turn.partialText.trim() !== '') appendMessage(ctx, { role: 'assistant', content: turn.partialText });
      return finish('cancelled');
    }
    // Hooks never run on errors; auth errors arrive here at once because the adapter does not retry them.
    if (turn.kind === 'error') return finish('error', { message: turn.message });
    return await this.handleReply(turn.reply, tools);
  }

  private async handleReply(reply: ModelReply, tools: ToolInfo[]): Promise<Step> {
    const { ctx } = this;
    if (reply.usage !== null) ctx.emit({ type: 'usage', usage: reply.usage });
    const content = reply.content ?? '';
    const calls = reply.toolCalls;
    const cutOff = reply.finishReason === 'length' || reply.finishReason === 'content_filter';
    if (calls.length > 0) {
      // The history holds what every endpoint accepts back; the calls run (or are refused) as the model wrote them.
      appendMessage(ctx, replyMessage(reply, content === '' ? null : content, wireSafeCalls(calls)));
      noteToolRound(ctx, this.gate);
      if (cutOff) {
        answerUnrun(ctx, calls, `the model's reply was cut off (${reply.finishReason})`);
        return finish(reply.finishReason as OutcomeReason);
      }
      for (const record of await runToolCalls(ctx, calls, tools, this.signal, this.denials, this.options.mode, this.choice)) this.toolCalls.push(record);
      if (this.toolCalls.length > 2 * STOP_EVIDENCE_MAX_CALLS) this.toolCalls.splice(0, this.toolCalls.length - STOP_EVIDENCE_MAX_CALLS);
      return this.signal.aborted ? finish('cancelled') : { kind: 'next' };
    }
    // An empty reply is not appended (OpenAI rejects it) and counts as the end of the turn.
    if (content.trim() !== '') appendMessage(ctx, replyMessage(reply, content));
    if (cutOff) return finish(reply.finishReason as OutcomeReason);
    const decided = runStopGate(ctx, this.gate, tools, this.signal, { toolCalls: this.toolCalls, lastAssistantText: content, prompt: this.prompt, mode: this.options.mode ?? 'agent' });
    const gate = decided instanceof Promise ? await decided : decided;
    if (gate.kind === 'cancelled') return finish('cancelled');
    if (gate.kind === 'continue') return { kind: 'next' };
    return finish('end_turn', gate.unresolved === undefined ? {} : { unresolved: gate.unresolved });
  }
}
