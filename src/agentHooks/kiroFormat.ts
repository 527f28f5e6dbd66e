/**
 * Kiro CLI's hooks, which live in an agent configuration (`.kiro/agents/<name>.json`, `"hooks":
 * {"stop": [{"command": ..., "timeout_ms": 30000}]}`) and apply to that agent. Payloads carry
 * `hook_event_name` and `cwd`, plus `tool_name`, `tool_input`, `tool_response` and `prompt` where they
 * apply, and no session id (the bridge keys Kiro's state by the agent process instead). The answer is
 * an exit code: 0 with stdout adds it to the context (agentSpawn, userPromptSubmit); 2 with stderr
 * blocks a tool call (preToolUse only); anything else shows stderr to the user as a warning. A stop
 * hook cannot send Kiro back to work, so a standing `_Stop` objection is shown to the user.
 * Source: kiro.dev/docs/cli/hooks and the agent configuration reference.
 */
import { AGENT_CONFIG_FILES } from '../agent/agentConfigFiles';
import { z } from 'zod';
import { EMPTY_ANSWER, mappedHook, type AgentAnswer, type AgentFormat, type BridgeCall, type HookReply, type SproutAnswer } from './agentFormat';
import { argumentsObject, failedHook, parseWith, responseIsError, resultText, toolFields } from './payloadFields';
import type { HookName } from '../agent/events';

const EVENTS: Record<string, HookName> = {
  agentSpawn: '_SessionStart',
  userPromptSubmit: '_UserPromptSubmit',
  preToolUse: '_PreToolUse',
  postToolUse: '_PostToolUse',
  stop: '_Stop',
};

/** Kiro sends no session id; the bridge passes one in as `session_id` (the agent process). */
const base = z.looseObject({ hook_event_name: z.string().optional(), cwd: z.string(), session_id: z.string().min(1) });
const tool = { tool_name: z.string().min(1), tool_input: z.unknown() };
const SCHEMAS: Record<string, z.ZodType<Record<string, unknown>>> = {
  agentSpawn: base,
  userPromptSubmit: base.extend({ prompt: z.string() }),
  preToolUse: base.extend(tool),
  postToolUse: base.extend({ ...tool, tool_response: z.unknown() }),
  stop: base,
};

function fieldsOf(hook: HookName, p: Record<string, unknown>): Record<string, unknown> {
  if (hook === '_SessionStart') return { source: 'new' };
  if (hook === '_UserPromptSubmit') return { prompt: p.prompt };
  if (hook === '_Stop') return { lastAssistantText: '' };
  const call = { ...toolFields('kiro', p.tool_name as string), arguments: argumentsObject(p.tool_input), callId: '' };
  return hook === '_PreToolUse' ? call : { ...call, isError: responseIsError(p.tool_response), result: resultText(p.tool_response) };
}

function answer(_event: string, decided: SproutAnswer): AgentAnswer {
  switch (decided.kind) {
    case 'none':
      return decided.notice === undefined ? EMPTY_ANSWER : { stdout: '', stderr: `${decided.notice}\n`, exitCode: 1 };
    case 'inject':
      return { stdout: `${decided.text}\n`, stderr: '', exitCode: 0 };
    case 'deny':
      return { stdout: '', stderr: `${decided.text}\n`, exitCode: 2 };
    case 'object':
      return { stdout: '', stderr: `A Sprout hook objects to finishing (Kiro cannot be sent back to work by a stop hook):\n${decided.text}\n`, exitCode: 1 };
  }
}

function payload(event: string, call: BridgeCall): Record<string, unknown> {
  const f = call.fields;
  const common = { hook_event_name: event, cwd: call.cwd ?? '' };
  if (call.hook === '_UserPromptSubmit') return { ...common, prompt: f.prompt };
  if (call.hook === '_PreToolUse') return { ...common, tool_name: f.tool, tool_input: f.arguments };
  if (call.hook === '_PostToolUse') return { ...common, tool_name: f.tool, tool_input: f.arguments, tool_response: f.result };
  return common;
}

function read(event: string, res: AgentAnswer): HookReply {
  const hook = mappedHook(kiroFormat, event);
  if (res.exitCode === 2 && hook === '_PreToolUse') return { text: res.stderr.trim() || 'Blocked by a preToolUse hook (exit 2).' };
  if (res.exitCode !== 0) return failedHook(res);
  return { text: hook === '_SessionStart' || hook === '_UserPromptSubmit' ? res.stdout.trim() : '' };
}

export const kiroFormat: AgentFormat = {
  id: 'kiro',
  displayName: 'Kiro CLI',
  events: EVENTS,
  parse(event, raw) {
    const hook = mappedHook(kiroFormat, event);
    const p = parseWith('kiro', event, SCHEMAS[event] ?? base, raw);
    return { hook, sessionId: p.session_id as string, cwd: p.cwd as string, fields: fieldsOf(hook, p) };
  },
  answer,
  payload,
  read,
  // Sprout does not run Kiro's agent files as hook sources (hookSources.ts), so no call is ever named for Kiro.
  tools: { equivalents: [] },
  config: {
    workspaceFiles: AGENT_CONFIG_FILES.kiro.workspace,
    userFiles: AGENT_CONFIG_FILES.kiro.user,
    layout: 'flat',
    entryBase: {},
    commandKey: 'command',
    timeout: { key: 'timeout_ms', unit: 'ms' },
    fileBase: { name: 'sprout', description: 'Kiro with Sprout hook servers gating it', tools: ['*'], includeMcpJson: true },
  },
  setupNotes: [
    'Kiro runs the hooks of the agent in use: start it with `kiro-cli chat --agent sprout`, or copy the "hooks" block into your own agent\'s file.',
    'A Kiro stop hook cannot send the agent back to work: a standing _Stop objection is shown to you as a warning.',
  ],
};
