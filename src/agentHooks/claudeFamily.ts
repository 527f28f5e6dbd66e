/**
 * The hook wire Claude Code introduced and Codex and Gemini CLI follow: a JSON payload with
 * `session_id`, `cwd`, `hook_event_name` and per-event snake_case fields on stdin; an answer as JSON on
 * stdout (`decision`/`reason`, or `hookSpecificOutput` with `permissionDecision` or
 * `additionalContext`), or exit 2 with the reason on stderr. The three differ in event names, in the
 * word that blocks a stop (`block`, Gemini `deny`), in how a tool call is denied and in the field that
 * carries the model's closing text; a FamilyOptions value says which.
 *
 * Sources: Claude Code's hook input schemas as its 2.1.332 binary validates them (SessionStart
 * `source` startup|resume|clear|compact|fork; Stop `stop_hook_active`, `last_assistant_message`) and
 * its documented answers (code.claude.com/docs/en/hooks); Codex 0.171.0's embedded JSON schemas
 * (`stop.command.input`, `pre-tool-use.command.output`, ...: the same fields); Gemini CLI's
 * docs/hooks/reference.md (base input `timestamp`; AfterAgent `prompt`, `prompt_response`, `decision: "deny"`).
 */
import { z } from 'zod';
import { EMPTY_ANSWER, jsonAnswer, mappedHook, type AgentAnswer, type AgentFormat, type AgentId, type BridgeCall, type HookConfigShape, type HookReply, type SproutAnswer } from './agentFormat';
import { argumentsObject, failedHook, objectField, parseWith, responseIsError, resultText, sessionSource, stdoutJson, stringField, toolFields } from './payloadFields';
import type { ToolNaming } from './agentToolNames';
import type { HookName } from '../agent/events';

export interface FamilyOptions {
  id: AgentId;
  displayName: string;
  /** The agent's event name for each Sprout hook it has. */
  names: Partial<Record<HookName, string>>;
  /** The Stop payload field with the model's closing text. */
  closingTextField: 'last_assistant_message' | 'prompt_response';
  /** The `decision` value that sends the agent back to work (and denies a tool call, for `decision` style). */
  blockWord: 'block' | 'deny';
  /** How a tool call is denied: Claude's `hookSpecificOutput.permissionDecision`, or a top-level `decision`. */
  denyStyle: 'permissionDecision' | 'decision';
  /** Gemini CLI's base input: an ISO 8601 `timestamp` in every payload, and the user's `prompt` in the Stop one. */
  geminiFields?: true;
  /** How the agent names the tools Sprout calls (its shell tool, its MCP naming). */
  tools: ToolNaming;
  config: HookConfigShape;
  setupNotes: readonly string[];
}

const base = z.looseObject({ session_id: z.string().min(1), cwd: z.string(), hook_event_name: z.string(), transcript_path: z.string().nullish() });
const tool = { tool_name: z.string().min(1), tool_input: z.unknown(), tool_use_id: z.string().nullish() };

/** Built once per hook and field name: a zod schema compiles its checks on first use, and the hook host parses a payload per event. */
const schemas = new Map<string, z.ZodType<Record<string, unknown>>>();

function schemaFor(hook: HookName, closingTextField: FamilyOptions['closingTextField']): z.ZodType<Record<string, unknown>> {
  const key = `${hook} ${closingTextField}`;
  let schema = schemas.get(key);
  if (schema === undefined) schemas.set(key, (schema = buildSchema(hook, closingTextField)));
  return schema;
}

function buildSchema(hook: HookName, closingTextField: FamilyOptions['closingTextField']): z.ZodType<Record<string, unknown>> {
  switch (hook) {
    case '_SessionStart':
    case '_PostCompact':
      return base.extend({ source: z.string().optional() });
    case '_UserPromptSubmit':
      return base.extend({ prompt: z.string() });
    case '_PreToolUse':
      return base.extend(tool);
    case '_PostToolUse':
      return base.extend({ ...tool, tool_response: z.unknown() });
    case '_Stop':
      return base.extend({ stop_hook_active: z.boolean().optional(), [closingTextField]: z.string().nullish() });
    // Claude Code's SubagentStop: the Stop fields plus which subagent (code.claude.com/docs/en/hooks#subagentstop).
    case '_SubagentStop':
      return base.extend({ stop_hook_active: z.boolean().optional(), [closingTextField]: z.string().nullish(), agent_id: z.string().nullish(), agent_type: z.string().nullish() });
    case '_SessionEnd':
      return base.extend({ reason: z.string().optional() });
  }
}

/** A SubagentStop payload's subagent, as Sprout's `_meta.agent` names one. */
function subagentOf(p: Record<string, unknown>): { id: string; name: string } {
  const name = typeof p.agent_type === 'string' && p.agent_type !== '' ? p.agent_type : 'subagent';
  return { id: typeof p.agent_id === 'string' && p.agent_id !== '' ? p.agent_id : name, name };
}

/**
 * The server and tool of a call. Gemini CLI's MCP name `mcp_<server>_<tool>` cannot be split (either
 * part may hold `_`), so its `mcp_context` says which; the others' `mcp__<server>__<tool>` can.
 */
function namedTool(o: FamilyOptions, p: Record<string, unknown>): { tool: string; server: string; toolName: string } {
  const context = o.geminiFields ? objectField(p, 'mcp_context') : undefined;
  const server = stringField(context, 'server_name');
  const toolName = stringField(context, 'tool_name');
  if (server && toolName) return { tool: p.tool_name as string, server, toolName };
  return toolFields(o.id, p.tool_name as string);
}

function fieldsOf(o: FamilyOptions, hook: HookName, p: Record<string, unknown>): Record<string, unknown> {
  switch (hook) {
    case '_SessionStart':
      return { source: sessionSource(p.source as string | undefined) };
    case '_UserPromptSubmit':
      return { prompt: p.prompt };
    case '_PreToolUse':
    case '_PostToolUse': {
      const call = { ...namedTool(o, p), arguments: argumentsObject(p.tool_input), callId: p.tool_use_id ?? '' };
      return hook === '_PreToolUse' ? call : { ...call, isError: responseIsError(p.tool_response), result: resultText(p.tool_response) };
    }
    case '_Stop':
      return { lastAssistantText: typeof p[o.closingTextField] === 'string' ? p[o.closingTextField] : '', ...(typeof p.prompt === 'string' ? { prompt: p.prompt } : {}) };
    case '_SubagentStop':
      return { lastAssistantText: typeof p[o.closingTextField] === 'string' ? p[o.closingTextField] : '', agent: subagentOf(p) };
    case '_SessionEnd':
      return { reason: p.reason === 'clear' ? 'new_chat' : 'exit' };
    case '_PostCompact':
      return {};
  }
}

function parse(o: FamilyOptions, format: AgentFormat, event: string, payload: unknown): BridgeCall {
  let hook = mappedHook(format, event);
  const p = parseWith(o.id, event, schemaFor(hook, o.closingTextField), payload);
  // A session that starts again after compaction is where these agents let a hook re-inject state.
  if (hook === '_SessionStart' && p.source === 'compact') hook = '_PostCompact';
  const call: BridgeCall = { hook, sessionId: p.session_id as string, cwd: p.cwd as string, fields: fieldsOf(o, hook, p) };
  return hook === '_Stop' || hook === '_SubagentStop' ? { ...call, afterObjection: p.stop_hook_active === true } : call;
}

function answer(o: FamilyOptions, event: string, decided: SproutAnswer): AgentAnswer {
  switch (decided.kind) {
    case 'none':
      return decided.notice === undefined ? EMPTY_ANSWER : jsonAnswer({ systemMessage: decided.notice });
    case 'object':
      return jsonAnswer({ decision: o.blockWord, reason: decided.text });
    case 'deny':
      return o.denyStyle === 'decision'
        ? jsonAnswer({ decision: o.blockWord, reason: decided.text })
        : jsonAnswer({ hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: decided.text } });
    case 'inject':
      return jsonAnswer({ hookSpecificOutput: { hookEventName: event, additionalContext: decided.text } });
  }
}

/** `tool_name`, `tool_input`, and for an MCP tool Gemini CLI's `mcp_context` (the parts Sprout knows truthfully). */
function toolPart(o: FamilyOptions, f: Record<string, unknown>): Record<string, unknown> {
  const mcp = objectField(f, 'mcp');
  const context = o.geminiFields && mcp !== undefined ? { mcp_context: { server_name: mcp.server, tool_name: mcp.tool } } : {};
  return { tool_name: f.tool, tool_input: f.arguments, ...context };
}

function payload(o: FamilyOptions, event: string, call: BridgeCall): Record<string, unknown> {
  const f = call.fields;
  const common = { session_id: call.sessionId, transcript_path: null, cwd: call.cwd ?? '', hook_event_name: event, ...(o.geminiFields ? { timestamp: new Date().toISOString() } : {}) };
  switch (call.hook) {
    case '_SessionStart':
      return { ...common, source: f.source === 'resume' ? 'resume' : 'startup' };
    case '_PostCompact':
      return { ...common, source: 'compact' };
    case '_UserPromptSubmit':
      return { ...common, prompt: f.prompt };
    case '_PreToolUse':
      return { ...common, ...toolPart(o, f), tool_use_id: f.callId };
    case '_PostToolUse':
      return { ...common, ...toolPart(o, f), tool_use_id: f.callId, tool_response: f.result };
    case '_Stop':
      return { ...common, stop_hook_active: call.afterObjection === true, [o.closingTextField]: f.lastAssistantText, ...(o.geminiFields ? { prompt: typeof f.prompt === 'string' ? f.prompt : '' } : {}) };
    case '_SubagentStop': {
      const agent = objectField(f, 'agent');
      return { ...common, stop_hook_active: call.afterObjection === true, [o.closingTextField]: f.lastAssistantText, agent_id: agent?.id ?? '', agent_type: agent?.name ?? '', agent_transcript_path: null };
    }
    case '_SessionEnd':
      return { ...common, reason: f.reason === 'new_chat' ? 'clear' : 'other' };
  }
}

/**
 * `"continue": false` stops the agent after the hooks run, before anything else in the answer (Claude
 * Code's hooks reference; Codex's output schemas carry the same field). A stop that is already
 * stopping goes through (no objection), a tool call is not run (a denial with the `stopReason`); where
 * a Sprout hook cannot end the run the answer takes no effect and says so, never a silent continue.
 */
function stopAnswer(o: FamilyOptions, hook: HookName, out: Record<string, unknown>): HookReply {
  const why = stringField(out, 'stopReason') ?? '';
  if (hook === '_Stop' || hook === '_SubagentStop') return { text: '' };
  if (hook === '_PreToolUse') return { text: `The hook stopped ${o.displayName} here ("continue": false)${why ? `: ${why}` : '.'}` };
  return { text: '', problem: `answered "continue": false${why ? ` (${why})` : ''}, which stops ${o.displayName}; a Sprout ${hook} hook cannot end the run, so nothing in this answer took effect` };
}

/** The text a hook's JSON answer makes take effect for `hook`, and what in it Sprout does not do. */
function jsonText(o: FamilyOptions, hook: HookName, out: Record<string, unknown>): HookReply {
  if (out.continue === false) return stopAnswer(o, hook, out);
  const specific = objectField(out, 'hookSpecificOutput');
  const reason = stringField(out, 'reason') ?? '';
  const blocks = out.decision === 'block' || out.decision === o.blockWord;
  if (hook === '_PreToolUse') {
    const denied = specific?.permissionDecision === 'deny' || blocks;
    const why = stringField(specific, 'permissionDecisionReason') ?? reason;
    const rewrite = specific?.updatedInput !== undefined && specific.updatedInput !== null ? specific.updatedInput : specific?.tool_input;
    if (rewrite !== undefined && rewrite !== null) return { text: why || 'The hook asked to rewrite the tool input.', problem: 'hooks may deny, never rewrite: the rewrite is a denial', rewrite: argumentsObject(rewrite) };
    return { text: denied ? why || 'Denied by a hook.' : '' };
  }
  if (hook === '_Stop' || hook === '_SubagentStop') return { text: blocks ? reason || 'A stop hook objected.' : '' };
  const context = stringField(specific, 'additionalContext') ?? '';
  if (blocks) return { text: [reason, context].filter(Boolean).join('\n'), problem: `a ${hook} hook cannot block in Sprout; its reason is passed on as context` };
  return { text: context };
}

function read(o: FamilyOptions, format: AgentFormat, event: string, res: AgentAnswer): HookReply {
  const hook = mappedHook(format, event);
  if (res.exitCode === 2) {
    // Exit 2 blocks with stderr as the reason; at session start and end it only reaches the user.
    return hook === '_SessionStart' || hook === '_SessionEnd' ? { text: '' } : { text: res.stderr.trim() || 'Blocked by a hook (exit 2).' };
  }
  if (res.exitCode !== 0) return failedHook(res);
  const out = stdoutJson(res.stdout);
  if (out !== undefined) return jsonText(o, hook, out);
  // Plain stdout: context where the agent adds it (a prompt, a session start), ignored elsewhere.
  const plain = res.stdout.trim();
  if (plain === '') return { text: '' };
  return hook === '_UserPromptSubmit' || hook === '_SessionStart' || hook === '_PostCompact' ? { text: plain } : { text: '', problem: 'stdout is not a JSON object' };
}

export function claudeFamilyFormat(o: FamilyOptions): AgentFormat {
  const events: Record<string, HookName> = {};
  for (const [hook, event] of Object.entries(o.names)) if (event !== undefined) events[event] = hook as HookName;
  const format: AgentFormat = {
    id: o.id,
    displayName: o.displayName,
    events,
    parse: (event, p) => parse(o, format, event, p),
    answer: (event, decided) => answer(o, event, decided),
    payload: (event, call) => payload(o, event, call),
    read: (event, res) => read(o, format, event, res),
    config: o.config,
    tools: o.tools,
    setupNotes: o.setupNotes,
  };
  return format;
}
