/**
 * Subagents (CONTRIBUTING.md#where-the-next-capabilities-live): the model hands a self-contained task
 * to a named agent with `sprout__delegate`, and the core runs it as a child session (its own history,
 * the agent's instructions and tool filter, the parent's tool host, and the model its agent file names
 * where the host can reach it, else the parent's) whose final text
 * is the call's result. Never a second loop: the child is an AgentSession like any other, built by the
 * parent session through the `SubagentStarter` port, so this file imports no session code.
 *
 * Bounds: depth 1 (a child is never offered the tool), at most `MAX_PARALLEL_SUBAGENTS` children of a
 * session at once (further calls wait for a slot, cancellable), the parent's round cap for each child
 * (a child that never ends is stopped there and reported), and the parent's cancel stops them all.
 * A child's `_Stop` is `_SubagentStop` (docs/hooks.md#_subagentstop); its events reach the parent's
 * listeners wrapped in one `subagent_event`, so nothing of the child enters the parent's history.
 */
import { type AgentProfile, GENERIC_AGENT, agentModel, agentSystemText, agentTools } from './agentProfiles';
import { CancelledError } from './cancellation';
import type { AgentEvent, Outcome } from './events';
import type { ToolCall, ToolCallResult, ToolInfo } from './messages';
import type { ModelCatalog, ModelClient, ToolHost, ToolSpec } from './ports';
import type { AgentSettings } from './settings';
import type { Mode } from './modes';
import { parseToolArguments } from './toolArguments';
import { errorMessage } from './errorMessage';

export const DELEGATE_TOOL_NAME = 'sprout__delegate';

/** The delegate tool as a tool selection sees it (`--tools sprout__delegate`, `sprout/delegate`, `sprout`; a picker's `off`). */
export const DELEGATE_TOOL_INFO: ToolInfo = { server: 'sprout', bareName: 'delegate', qualifiedName: DELEGATE_TOOL_NAME, description: '', inputSchema: {}, annotations: {}, isHook: false };

/** Children of one session running at once; a further call waits for one of them to end. */
export const MAX_PARALLEL_SUBAGENTS = 3;

/** Who a subagent is, as its events and its hooks' `_meta` (`agent`) name it. */
export interface SubagentRef {
  /** Unique in the parent session: `sub-<n>`. */
  id: string;
  /** The agent's name (`general`, or a custom agent's). */
  name: string;
}

/**
 * The agents a delegation may name this prompt: none when subagents are off, the host gave no list
 * (`PromptOptions.agents` absent), the session is itself a subagent (depth 1), or the mode is not
 * Agent (Ask and Plan offer read-only tools only: modes.ts); else the generic agent and the host's,
 * each name once (a custom agent named `general` replaces the generic one).
 */
export function delegateChoices(agents: readonly AgentProfile[] | undefined, enabled: boolean, isSubagent: boolean, mode: Mode = 'agent'): AgentProfile[] {
  if (!enabled || agents === undefined || isSubagent || mode !== 'agent') return [];
  const custom = agents.filter((a, i) => agents.findIndex((b) => b.name === a.name) === i);
  return custom.some((a) => a.name === GENERIC_AGENT.name) ? custom : [GENERIC_AGENT, ...custom];
}

function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function delegateSpec(choices: readonly AgentProfile[]): ToolSpec {
  return {
    name: DELEGATE_TOOL_NAME,
    description:
      'Hands a self-contained task to another agent, which works on it in its own context with its own tools and returns one answer (its final reply) as this tool\'s result. ' +
      'Give it everything it needs in `task`: it does not see this conversation. Agents:\n' +
      choices.map((a) => `- ${a.name}: ${oneLine(a.description)}`).join('\n'),
    parameters: {
      type: 'object',
      properties: {
        agent: { type: 'string', enum: choices.map((a) => a.name), description: 'The agent to delegate to.' },
        task: { type: 'string', description: 'The task, complete: what to do, where, and what to report back.' },
      },
      required: ['agent', 'task'],
    },
  };
}

/** The agent and task a delegate call names, or the error result that tells the model what to fix. */
export function readDelegateCall(call: Pick<ToolCall, 'arguments'>, choices: readonly AgentProfile[]): { profile: AgentProfile; task: string } | ToolCallResult {
  const args = parseToolArguments(call.arguments);
  const names = choices.map((a) => a.name).join(', ');
  if (!args.ok) return { isError: true, text: `${DELEGATE_TOOL_NAME}: the arguments are not a JSON object (${args.error}); send {"agent", "task"}.` };
  const name = typeof args.value.agent === 'string' ? args.value.agent.trim() : '';
  const task = typeof args.value.task === 'string' ? args.value.task.trim() : '';
  const profile = choices.find((a) => a.name === name);
  if (profile === undefined) return { isError: true, text: `${DELEGATE_TOOL_NAME}: no agent named "${oneLine(name, 80)}". Agents: ${names}.` };
  if (task === '') return { isError: true, text: `${DELEGATE_TOOL_NAME}: "task" is empty; say what the agent "${profile.name}" should do.` };
  return { profile, task };
}

/** The model a child runs on: the parent's (`client` absent), or its agent's own with the client the host gave for it. */
export interface SubagentModel {
  model: string;
  client?: ModelClient;
  contextWindowTokens?: number;
  /** Why the agent's own model is not used (the host cannot reach it): said once per agent and model. */
  note?: string;
}

/**
 * The model a delegated agent runs on (README.md#subagents): the one its file names when the host's
 * catalog lists it (matched as a picked agent's is: agentProfiles.ts `agentModel`; the parent's own
 * model always counts as reachable), else the parent's with a note. No catalog (a host that gives
 * none) or a listing that fails: only the parent's model is reachable.
 */
export async function subagentModel(profile: AgentProfile, parentModel: string, catalog: ModelCatalog | undefined, signal: AbortSignal): Promise<SubagentModel> {
  if ((profile.model ?? '').trim() === '') return { model: parentModel };
  const listed = catalog === undefined ? [] : await catalog.list(signal).catch(() => []);
  // Cancelled while listing: the child stops at once; no note about a model nobody will wait for.
  if (signal.aborted) return { model: parentModel };
  const picked = agentModel(profile, [{ id: parentModel }, ...listed], parentModel);
  if (picked.note !== undefined || picked.model === parentModel || catalog === undefined) return picked;
  const served = catalog.client(picked.model);
  return { model: picked.model, client: served.model, ...(served.contextWindowTokens === undefined ? {} : { contextWindowTokens: served.contextWindowTokens }) };
}

/** The child's settings: the parent's, with the agent's words and the subagent's framing added to the system text. */
export function subagentSettings(parent: AgentSettings, profile: AgentProfile, model?: Pick<SubagentModel, 'model' | 'contextWindowTokens'>): AgentSettings {
  const framing =
    'You are working as a subagent: another agent gave you the task below. Do it with your tools, then reply with a complete answer; ' +
    'your final reply is all the other agent will see of your work.';
  const agent = agentSystemText(profile);
  const systemPrompt = [parent.systemPrompt, framing, ...(agent === '' ? [] : [agent])].join('\n\n');
  if (model === undefined || model.model === parent.model) return { ...parent, systemPrompt };
  return { ...parent, systemPrompt, model: model.model, ...(model.contextWindowTokens === undefined ? {} : { contextWindowTokens: model.contextWindowTokens }) };
}

/**
 * The parent's tool host as the child sees it: the agent's tool filter applied to every listing (hooks
 * are never filtered), and no event subscription (the parent session already forwards the host's events).
 */
export function subagentToolHost(host: ToolHost, profile: AgentProfile): ToolHost {
  const filter = (tools: ToolInfo[]): ToolInfo[] => agentTools(profile, tools);
  return {
    serverNames: () => host.serverNames(),
    listTools: async (signal, options) => filter(await host.listTools(signal, options)),
    ...(host.cachedTools === undefined ? {} : { cachedTools: () => { const cached = host.cachedTools?.(); return cached === undefined ? undefined : filter(cached); } }),
    ...(host.authorize === undefined ? {} : { authorize: (server, bareName, args, signal) => host.authorize?.(server, bareName, args, signal) ?? Promise.resolve(undefined) }),
    callTool: (server, bareName, args, options) => host.callTool(server, bareName, args, options),
    killServer: (server, reason) => host.killServer(server, reason),
    subscribe: () => () => undefined,
  };
}

/** The tool result a subagent's run gives its parent: its final text, or why there is none. */
export function subagentResult(ref: SubagentRef, outcome: Outcome, finalText: string): ToolCallResult {
  const who = `The agent "${ref.name}" (${ref.id})`;
  const last = finalText.trim();
  switch (outcome.reason) {
    case 'end_turn': {
      const standing = outcome.unresolved === undefined ? '' : `\n\n[${who} finished with a hook objection standing (${outcome.unresolved.cause}): ${outcome.unresolved.objections.map((o) => `${o.server}: ${oneLine(o.text)}`).join('; ')}]`;
      return { isError: false, text: `${last === '' ? `${who} finished without a reply.` : last}${standing}` };
    }
    case 'max_rounds':
      return { isError: true, text: `${who} did not finish within ${outcome.rounds} rounds (the round cap) and was stopped.${last === '' ? '' : ` Its last reply:\n\n${last}`}` };
    case 'cancelled':
      return { isError: true, text: `${who} was cancelled.` };
    default:
      return { isError: true, text: `${who} stopped: ${outcome.reason}${outcome.message === undefined ? '' : ` (${outcome.message})`}.${last === '' ? '' : ` Its last reply:\n\n${last}`}` };
  }
}

/** A child session, as the parent session builds it (session.ts); the port keeps this file free of session code. */
export interface SubagentSession {
  run(task: string, signal: AbortSignal, mode?: Mode): Promise<Outcome>;
  /** The last assistant text of its history (its answer). */
  finalText(): string;
  subscribe(listener: (event: AgentEvent) => void): () => void;
  dispose(): void;
  /** The model it runs on, and the note (said once) when its agent's own could not be reached. */
  readonly model: string;
  readonly modelNote?: string;
}

export type SubagentStarter = (ref: SubagentRef, profile: AgentProfile, signal: AbortSignal) => Promise<SubagentSession>;

/** The children's slots of one session: at most `max` at once, the rest wait in call order (or until cancelled). */
export class SubagentSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private counter = 0;

  constructor(readonly max = MAX_PARALLEL_SUBAGENTS) {}

  get active(): number {
    return this.running;
  }

  nextId(): string {
    this.counter += 1;
    return `sub-${this.counter}`;
  }

  /** Resolves with a release function once a slot is free; rejects with CancelledError on abort. */
  acquire(signal: AbortSignal): Promise<() => void> {
    const release = (): void => {
      this.running -= 1;
      this.waiting.shift()?.();
    };
    if (signal.aborted) return Promise.reject(new CancelledError());
    if (this.running < this.max) {
      this.running += 1;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const go = (): void => {
        signal.removeEventListener('abort', onAbort);
        this.running += 1;
        resolve(release);
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(go);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new CancelledError());
      };
      this.waiting.push(go);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** Streamed pieces stay with the child (its `message` events carry the whole text). */
function forwarded(event: AgentEvent): boolean {
  return event.type !== 'text_delta' && event.type !== 'reasoning_delta' && event.type !== 'text_reclassified';
}

/**
 * Runs one delegation: waits for a slot, starts the child, forwards its events (wrapped, with its id
 * and the delegate call's id) and returns its answer as the tool result.
 */
export async function runSubagent(
  deps: { slots: SubagentSlots; start: SubagentStarter; emit: (event: AgentEvent) => void },
  call: Pick<ToolCall, 'id' | 'arguments'>,
  choices: readonly AgentProfile[],
  signal: AbortSignal,
  mode?: Mode,
): Promise<ToolCallResult> {
  const read = readDelegateCall(call, choices);
  if ('isError' in read) return read;
  let release: () => void;
  try {
    release = await deps.slots.acquire(signal);
  } catch {
    return { isError: true, text: `${DELEGATE_TOOL_NAME} was cancelled before the agent "${read.profile.name}" started.` };
  }
  const ref: SubagentRef = { id: deps.slots.nextId(), name: read.profile.name };
  try {
    const child = await deps.start(ref, read.profile, signal);
    const subagent = { ...ref, callId: call.id, model: child.model };
    if (child.modelNote !== undefined) deps.emit({ type: 'subagent_event', subagent, event: { type: 'agent', name: read.profile.name, source: read.profile.source, notes: [child.modelNote] } });
    const stop = child.subscribe((event) => {
      if (forwarded(event)) deps.emit({ type: 'subagent_event', subagent, event });
    });
    try {
      return subagentResult(ref, await child.run(read.task, signal, mode), child.finalText());
    } finally {
      stop();
      child.dispose();
    }
  } catch (error) {
    return { isError: true, text: `The agent "${ref.name}" (${ref.id}) could not run: ${errorMessage(error)}` };
  } finally {
    release();
  }
}
