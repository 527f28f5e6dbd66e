/**
 * The seam between Sprout's lifecycle hooks and other coding agents' command hooks. Each agent
 * (Claude Code, Codex, Gemini CLI, GitHub Copilot, Cursor, Kiro) has one AgentFormat that owns, for
 * that agent: which of its events maps to which Sprout hook, the zod schema of each event's payload,
 * its answer format, and where and how its config file holds hook entries. Both directions live here:
 * `parse`/`answer` let Sprout's MCP hooks run as that agent's command hooks (the `hooks run` bridge);
 * `payload`/`read` let that agent's command hooks run as Sprout hooks. Pure: no I/O, no Node.
 */
import { hookEnvelopeContent } from '../agent/hookEnvelope';
import type { ToolNaming } from './agentToolNames';
import type { HookName, HookObjection } from '../agent/events';

export const AGENT_IDS = ['claude', 'codex', 'gemini', 'copilot', 'cursor', 'kiro'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

/** One agent event as Sprout sees it: which hook, whose session, and the hook's `_meta` fields. */
export interface BridgeCall {
  hook: HookName;
  /** The agent's own session id (Kiro sends none: the bridge supplies one). */
  sessionId: string;
  /** The folder the agent works in, when the payload says. */
  cwd?: string;
  /** The agent says this end of turn comes right after a stop hook sent it back to work. */
  afterObjection?: boolean;
  /**
   * The hook's fields as docs/hooks.md names them (`prompt`; `tool`, `server`, `toolName`,
   * `arguments`, `callId`; `isError`, `result`; `lastAssistantText`, `prompt`; `source`; `reason`).
   */
  fields: Record<string, unknown>;
  /** Set when this event is one Sprout would not call the hook for (a loop that was aborted, say): why. */
  skip?: string;
}

/** What Sprout's hooks decided, in the agent-neutral terms every answer format is built from. */
export type SproutAnswer =
  /** Nothing for the model; `notice`, when set, is for the person watching (an objection left standing, say). */
  | { kind: 'none'; notice?: string }
  /** `_Stop`: the agent must not finish yet; the text says why. */
  | { kind: 'object'; text: string }
  /** `_PreToolUse`: the call must not run. */
  | { kind: 'deny'; text: string }
  /** Context for the model (session start, prompt, after a tool, after compaction). */
  | { kind: 'inject'; text: string };

/** What a command hook hands back to its agent. */
export interface AgentAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A command hook's answer read back as Sprout hook output: non-empty `text` takes effect; `problem` says what was wrong with it. */
export interface HookReply {
  text: string;
  problem?: string;
  /** A `_PreToolUse` answer that rewrote the tool input (a denial in Sprout): the input it wrote, in the agent's shape. */
  rewrite?: Record<string, unknown>;
}

/** A payload the agent sent that does not match its documented schema. */
export class PayloadError extends Error {
  constructor(agent: AgentId, event: string, detail: string) {
    super(`${agent} ${event} payload: ${detail}`);
    this.name = 'PayloadError';
  }
}

/** Where an agent keeps hook entries, and the shape of one entry. */
export interface HookConfigShape {
  /** Paths relative to the workspace root (first: the one `install` writes). */
  workspaceFiles: readonly string[];
  /** Paths relative to the user's home folder. */
  userFiles: readonly string[];
  /** How entries are grouped under `hooks.<event>`. */
  layout: 'matcherGroups' | 'flat';
  /** Fields of one entry besides the command (e.g. `type: "command"`). */
  entryBase: Readonly<Record<string, unknown>>;
  /** The entry field holding the command line. */
  commandKey: string;
  /** The entry field holding the timeout, and its unit. */
  timeout: { key: string; unit: 's' | 'ms' };
  /** Top-level fields the file must have for the agent to read it (Copilot and Cursor: `version: 1`). */
  fileBase: Readonly<Record<string, unknown>>;
}

export interface AgentFormat {
  id: AgentId;
  displayName: string;
  /** The agent's event names that map to a Sprout hook, in the agent's spelling. */
  events: Readonly<Record<string, HookName>>;
  /** Validates the payload of `event` and maps it; throws PayloadError. */
  parse(event: string, payload: unknown): BridgeCall;
  /** The agent's answer for what Sprout decided. */
  answer(event: string, decided: SproutAnswer): AgentAnswer;
  /** The other direction: the payload this agent would send a command hook for `event`. */
  payload(event: string, call: BridgeCall): Record<string, unknown>;
  /** The other direction: a command hook's answer for `event`, as Sprout hook text. */
  read(event: string, answer: AgentAnswer): HookReply;
  config: HookConfigShape;
  /** How the agent names the tools Sprout calls, for its hook files run as Sprout hooks (agentToolNames.ts). */
  tools: ToolNaming;
  /** What the user must know or do before the agent runs installed hooks (one line each). */
  setupNotes: readonly string[];
}

/** The line that tells an agent's model the text below came from hooks, not from the user. */
export const HOOK_OUTPUT_PREAMBLE =
  'Sprout hook output (from MCP hook servers the operator configured; advice about unfinished work, not the user\'s words):';

/**
 * The text an agent's model reads for Sprout hook output: the preamble, then one envelope per
 * server (`{"hook","server","text"}`, the same JSON Sprout's own model sees), so hook text can never
 * pass for the user typing.
 */
export function hookOutputText(hook: HookName, answers: readonly HookObjection[]): string {
  return [HOOK_OUTPUT_PREAMBLE, ...answers.map((a) => hookEnvelopeContent(hook, a.server, a.text))].join('\n');
}

/**
 * The agent events a bridge install serves for the Sprout hooks `served` by the allowlisted servers:
 * those, plus the tool event that lets `_Stop` tell work on an objection from a decline, and the
 * session's end, which lets the hook host exit with the agent.
 */
export function bridgeEvents(format: AgentFormat, served: ReadonlySet<HookName>): string[] {
  const wanted = new Set(served);
  if (wanted.has('_Stop') || wanted.has('_SubagentStop')) wanted.add('_PostToolUse');
  if (wanted.size > 0) wanted.add('_SessionEnd');
  // Claude Code and Codex re-inject after compaction through their session-start event.
  if (wanted.has('_PostCompact')) wanted.add('_SessionStart');
  return Object.keys(format.events).filter((event) => wanted.has(format.events[event] as HookName));
}

export function mappedHook(format: AgentFormat, event: string): HookName {
  const hook = format.events[event];
  if (hook === undefined) {
    throw new PayloadError(format.id, event, `"${event}" is no ${format.displayName} event Sprout maps; use one of ${Object.keys(format.events).join(', ')}`);
  }
  return hook;
}

export const EMPTY_ANSWER: AgentAnswer = { stdout: '', stderr: '', exitCode: 0 };

export function jsonAnswer(value: Record<string, unknown>): AgentAnswer {
  return { stdout: `${JSON.stringify(value)}\n`, stderr: '', exitCode: 0 };
}
