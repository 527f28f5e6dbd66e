/**
 * Cursor's agent hooks: `.cursor/hooks.json` / `~/.cursor/hooks.json` (`{"version": 1, "hooks": {"stop":
 * [{"command": ...}]}}`), payloads with `conversation_id`, `generation_id`, `hook_event_name` and
 * `workspace_roots`. `stop` (with `status` and `loop_count`) answers `{"followup_message"}`, which
 * Cursor submits as the next message; `beforeShellExecution` and `beforeMCPExecution` answer
 * `{"permission": "deny", "user_message", "agent_message"}`; `beforeSubmitPrompt` can only let the
 * prompt go on or stop it, so a prompt hook is told but cannot add to it; `afterFileEdit` is told only.
 * Source: cursor.com/docs/agent/hooks (the long-stable event set).
 */
import { AGENT_CONFIG_FILES } from '../agent/agentConfigFiles';
import { z } from 'zod';
import { EMPTY_ANSWER, jsonAnswer, mappedHook, type AgentAnswer, type AgentFormat, type BridgeCall, type HookReply, type SproutAnswer } from './agentFormat';
import { argumentsObject, failedHook, nonJsonReply, parseWith, stdoutJson, stringField } from './payloadFields';
import type { HookName } from '../agent/events';

const EVENTS: Record<string, HookName> = {
  beforeSubmitPrompt: '_UserPromptSubmit',
  beforeShellExecution: '_PreToolUse',
  beforeMCPExecution: '_PreToolUse',
  afterFileEdit: '_PostToolUse',
  stop: '_Stop',
};

const base = z.looseObject({ conversation_id: z.string().min(1), generation_id: z.string().optional(), hook_event_name: z.string().optional(), workspace_roots: z.array(z.string()).optional() });
const SCHEMAS: Record<string, z.ZodType<Record<string, unknown>>> = {
  beforeSubmitPrompt: base.extend({ prompt: z.string() }),
  beforeShellExecution: base.extend({ command: z.string(), cwd: z.string().optional() }),
  beforeMCPExecution: base.extend({ tool_name: z.string().min(1), tool_input: z.unknown(), url: z.string().optional(), command: z.string().optional() }),
  afterFileEdit: base.extend({ file_path: z.string(), edits: z.array(z.unknown()).optional() }),
  stop: base.extend({ status: z.string(), loop_count: z.number().int().nonnegative().optional() }),
};

function fieldsOf(event: string, p: Record<string, unknown>): Record<string, unknown> {
  switch (event) {
    case 'beforeSubmitPrompt':
      return { prompt: p.prompt };
    case 'beforeShellExecution':
      return { tool: 'Shell', server: 'cursor', toolName: 'Shell', arguments: { command: p.command, ...(p.cwd ? { cwd: p.cwd } : {}) }, callId: '' };
    case 'beforeMCPExecution':
      return { tool: p.tool_name, server: 'cursor', toolName: p.tool_name, arguments: argumentsObject(p.tool_input), callId: '' };
    case 'afterFileEdit':
      return { tool: 'Edit', server: 'cursor', toolName: 'Edit', arguments: { file_path: p.file_path }, callId: '', isError: false, result: JSON.stringify(p.edits ?? []) };
    default:
      return { lastAssistantText: '' };
  }
}

function answer(event: string, decided: SproutAnswer): AgentAnswer {
  if (decided.kind === 'object') return jsonAnswer({ followup_message: decided.text });
  if (decided.kind === 'deny') return jsonAnswer({ permission: 'deny', user_message: 'Denied by a Sprout hook.', agent_message: decided.text });
  // A prompt hook's answer must let the prompt go on; nothing else here can carry context.
  return event === 'beforeSubmitPrompt' ? jsonAnswer({ continue: true }) : EMPTY_ANSWER;
}

function payload(event: string, call: BridgeCall): Record<string, unknown> {
  const f = call.fields;
  const common = { conversation_id: call.sessionId, generation_id: '', hook_event_name: event, workspace_roots: call.cwd ? [call.cwd] : [] };
  const args = (f.arguments ?? {}) as Record<string, unknown>;
  switch (event) {
    case 'beforeSubmitPrompt':
      return { ...common, prompt: f.prompt };
    case 'beforeShellExecution':
      return { ...common, command: typeof args.command === 'string' ? args.command : JSON.stringify(args), cwd: call.cwd ?? '' };
    case 'beforeMCPExecution':
      return { ...common, tool_name: f.tool, tool_input: JSON.stringify(args) };
    case 'afterFileEdit':
      return { ...common, file_path: typeof args.file_path === 'string' ? args.file_path : '', edits: [] };
    default:
      return { ...common, status: 'completed', loop_count: call.afterObjection === true ? 1 : 0 };
  }
}

function read(event: string, res: AgentAnswer): HookReply {
  mappedHook(cursorFormat, event);
  if (res.exitCode !== 0) return failedHook(res);
  const out = stdoutJson(res.stdout);
  if (out === undefined) return nonJsonReply(res.stdout);
  if (event === 'stop') return { text: stringField(out, 'followup_message') ?? '' };
  if (event === 'beforeShellExecution' || event === 'beforeMCPExecution') {
    return { text: out.permission === 'deny' ? stringField(out, 'agent_message') || stringField(out, 'user_message') || 'Denied by a hook.' : '' };
  }
  if (event === 'beforeSubmitPrompt' && out.continue === false) return { text: '', problem: 'a prompt hook cannot stop a prompt in Sprout' };
  return { text: '' };
}

export const cursorFormat: AgentFormat = {
  id: 'cursor',
  displayName: 'Cursor',
  events: EVENTS,
  parse(event, raw) {
    const hook = mappedHook(cursorFormat, event);
    const p = parseWith('cursor', event, SCHEMAS[event] ?? base, raw);
    const roots = p.workspace_roots as string[] | undefined;
    const call: BridgeCall = { hook, sessionId: p.conversation_id as string, ...(roots?.[0] ? { cwd: roots[0] } : {}), fields: fieldsOf(event, p) };
    if (event !== 'stop') return call;
    // Cursor also runs `stop` after an aborted or failed loop, where Sprout never asks `_Stop`.
    return { ...call, afterObjection: (p.loop_count as number | undefined ?? 0) > 0, ...(p.status === 'completed' ? {} : { skip: `the loop ended ${String(p.status)}` }) };
  },
  answer,
  payload,
  read,
  // Cursor gives its shell its own event (beforeShellExecution, no tool name); MCP tools keep Sprout's names.
  tools: { equivalents: [] },
  config: {
    workspaceFiles: AGENT_CONFIG_FILES.cursor.workspace,
    userFiles: AGENT_CONFIG_FILES.cursor.user,
    layout: 'flat',
    entryBase: {},
    commandKey: 'command',
    timeout: { key: 'timeout', unit: 's' },
    fileBase: { version: 1 },
  },
  setupNotes: [
    'Cursor submits a stop hook\'s followup_message as the next message and caps such follow-ups with its own loop_limit; Sprout\'s _Stop budget applies first.',
    'Cursor has no prompt hook that adds context, so a _UserPromptSubmit hook is told the prompt but cannot add to it.',
  ],
};
