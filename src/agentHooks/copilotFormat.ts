/**
 * GitHub Copilot's command hooks (Copilot CLI and cloud agent), in their camelCase form: config files
 * `.github/hooks/*.json` and `~/.copilot/hooks/*.json` (`{"version": 1, "hooks": {"agentStop": [{"type":
 * "command", "bash": ..., "timeoutSec": 30}]}}`); payloads with `sessionId`, `timestamp`, `cwd`.
 * `agentStop` answers `{"decision": "block", "reason"}`, `preToolUse` `{"permissionDecision": "deny",
 * "permissionDecisionReason"}`, `sessionStart` and `postToolUse` may add `additionalContext`; command
 * `userPromptSubmitted` hooks have their output dropped, so a prompt hook is told but cannot inject.
 * Source: GitHub's "GitHub Copilot hooks reference" (github/docs, content/copilot/reference/hooks-reference.md).
 */
import { AGENT_CONFIG_FILES } from '../agent/agentConfigFiles';
import { z } from 'zod';
import { EMPTY_ANSWER, jsonAnswer, mappedHook, type AgentAnswer, type AgentFormat, type BridgeCall, type HookReply, type SproutAnswer } from './agentFormat';
import { argumentsObject, failedHook, nonJsonReply, objectField, parseWith, resultText, sessionSource, stdoutJson, stringField, toolFields } from './payloadFields';
import { SPROUT_SHELL_TOOL } from './agentToolNames';
import type { HookName } from '../agent/events';

const EVENTS: Record<string, HookName> = {
  sessionStart: '_SessionStart',
  userPromptSubmitted: '_UserPromptSubmit',
  preToolUse: '_PreToolUse',
  postToolUse: '_PostToolUse',
  agentStop: '_Stop',
  sessionEnd: '_SessionEnd',
};

const base = z.looseObject({ sessionId: z.string().min(1), cwd: z.string(), timestamp: z.union([z.number(), z.string()]).optional() });
const tool = { toolName: z.string().min(1), toolArgs: z.unknown() };
const SCHEMAS: Record<HookName, z.ZodType<Record<string, unknown>>> = {
  _SessionStart: base.extend({ source: z.string().optional() }),
  _UserPromptSubmit: base.extend({ prompt: z.string() }),
  _PreToolUse: base.extend(tool),
  _PostToolUse: base.extend({ ...tool, toolResult: z.looseObject({ resultType: z.string().optional(), textResultForLlm: z.string().optional() }).optional() }),
  _Stop: base.extend({ stop_hook_active: z.boolean().optional(), stopReason: z.string().optional() }),
  // Copilot has no subagent stop event: never mapped, here for the record's completeness.
  _SubagentStop: base.extend({ stop_hook_active: z.boolean().optional(), stopReason: z.string().optional() }),
  _SessionEnd: base.extend({ reason: z.string().optional() }),
  _PostCompact: base,
};

function fieldsOf(hook: HookName, p: Record<string, unknown>): Record<string, unknown> {
  switch (hook) {
    case '_SessionStart':
      return { source: sessionSource(p.source as string | undefined) };
    case '_UserPromptSubmit':
      return { prompt: p.prompt };
    case '_PreToolUse':
    case '_PostToolUse': {
      const call = { ...toolFields('copilot', p.toolName as string), arguments: argumentsObject(p.toolArgs), callId: '' };
      const result = objectField(p, 'toolResult');
      return hook === '_PreToolUse' ? call : { ...call, isError: result?.resultType === 'failure', result: resultText(result?.textResultForLlm ?? '') };
    }
    // Copilot sends no closing text with agentStop.
    case '_Stop':
    case '_SubagentStop':
      return { lastAssistantText: '' };
    case '_SessionEnd':
      return { reason: p.reason === 'abort' ? 'interrupted' : 'exit' };
    case '_PostCompact':
      return {};
  }
}

function answer(_event: string, decided: SproutAnswer): AgentAnswer {
  switch (decided.kind) {
    case 'none':
      return EMPTY_ANSWER;
    case 'object':
      return jsonAnswer({ decision: 'block', reason: decided.text });
    case 'deny':
      return jsonAnswer({ permissionDecision: 'deny', permissionDecisionReason: decided.text });
    case 'inject':
      return jsonAnswer({ additionalContext: decided.text });
  }
}

function payload(event: string, call: BridgeCall): Record<string, unknown> {
  const f = call.fields;
  const common = { sessionId: call.sessionId, timestamp: 0, cwd: call.cwd ?? '' };
  switch (call.hook) {
    case '_SessionStart':
      return { ...common, source: f.source === 'resume' ? 'resume' : 'new' };
    case '_UserPromptSubmit':
      return { ...common, prompt: f.prompt };
    case '_PreToolUse':
      return { ...common, toolName: f.tool, toolArgs: JSON.stringify(f.arguments ?? {}) };
    case '_PostToolUse':
      return { ...common, toolName: f.tool, toolArgs: JSON.stringify(f.arguments ?? {}), toolResult: { resultType: f.isError === true ? 'failure' : 'success', textResultForLlm: f.result } };
    case '_Stop':
    case '_SubagentStop':
      return { ...common, transcriptPath: '', stopReason: 'end_turn', stop_hook_active: call.afterObjection === true };
    case '_SessionEnd':
      return { ...common, reason: f.reason === 'interrupted' ? 'abort' : 'complete' };
    case '_PostCompact':
      return { ...common, hook_event_name: event };
  }
}

function read(event: string, res: AgentAnswer): HookReply {
  const hook = mappedHook(copilotFormat, event);
  // preToolUse fails closed: exit 2, a crash or any other non-zero exit denies (the reference says so).
  if (hook === '_PreToolUse' && res.exitCode !== 0) return { text: res.stderr.trim() || `Denied by a preToolUse hook (exit ${res.exitCode}).` };
  if (res.exitCode !== 0) return failedHook(res);
  const out = stdoutJson(res.stdout);
  if (out === undefined) return nonJsonReply(res.stdout);
  if (hook === '_Stop') return { text: out.decision === 'block' ? stringField(out, 'reason') || 'A stop hook objected.' : '' };
  if (hook === '_PreToolUse') {
    const why = stringField(out, 'permissionDecisionReason') ?? '';
    if (out.modifiedArgs !== undefined) return { text: why || 'The hook asked to rewrite the tool arguments.', problem: 'hooks may deny, never rewrite: the rewrite is a denial', rewrite: argumentsObject(out.modifiedArgs) };
    return { text: out.permissionDecision === 'deny' ? why || 'Denied by a preToolUse hook.' : '' };
  }
  return { text: stringField(out, 'additionalContext') ?? '' };
}

export const copilotFormat: AgentFormat = {
  id: 'copilot',
  displayName: 'GitHub Copilot',
  events: EVENTS,
  parse(event, raw) {
    const hook = mappedHook(copilotFormat, event);
    const p = parseWith('copilot', event, SCHEMAS[hook], raw);
    const call: BridgeCall = { hook, sessionId: p.sessionId as string, cwd: p.cwd as string, fields: fieldsOf(hook, p) };
    return hook === '_Stop' ? { ...call, afterObjection: p.stop_hook_active === true } : call;
  },
  answer,
  payload,
  read,
  // Copilot's shell tool is `bash` ({command, description}); its naming of MCP tools is not documented, so they keep Sprout's names.
  tools: { equivalents: [{ sprout: SPROUT_SHELL_TOOL, agent: 'bash' }] },
  config: {
    workspaceFiles: AGENT_CONFIG_FILES.copilot.workspace,
    userFiles: AGENT_CONFIG_FILES.copilot.user,
    layout: 'flat',
    entryBase: { type: 'command' },
    commandKey: 'bash',
    timeout: { key: 'timeoutSec', unit: 's' },
    fileBase: { version: 1 },
  },
  setupNotes: [
    'Copilot reads .github/hooks/*.json from the folder it runs in; the cloud agent only from the default branch.',
    'Copilot drops the output of userPromptSubmitted command hooks, so a _UserPromptSubmit hook is told the prompt but cannot add to it.',
  ],
};
