/**
 * What `sprout-agent hooks check` sends and what it says: sample `_meta` for each hook, shaped like a
 * real run's and marked `dryRun: true`, and the report of what each server answered, how long it took
 * against the hook timeout, and what that answer would do in a real run. Pure: the runner (hooksCheck.ts)
 * does the I/O.
 */
import type { HookCallResult, HookName } from '../agent/events';
import type { HookSettings } from '../agent/settings';
import { neutralizeTerminalText as sanitizeForTerminal } from '../platform/terminalText';
import { visibleNames } from '../agent/nameText';

/** The tool call `_PreToolUse` and `_PostToolUse` are told about (`--tool`, `--args`). */
export interface SampleCall {
  tool: string;
  server: string;
  toolName: string;
  arguments: Record<string, unknown>;
}

export const DEFAULT_SAMPLE_CALL: SampleCall = { tool: 'workspace__run_command', server: 'workspace', toolName: 'run_command', arguments: { command: 'npm test' } };

/** The fields a real run would put in `_meta["sprout/hook"]` for `hook` (besides event and sessionId). */
export function sampleFields(hook: HookName, call: SampleCall, hooks: HookSettings): Record<string, unknown> {
  const callFields = { tool: call.tool, server: call.server, toolName: call.toolName, arguments: call.arguments, callId: 'call_hooks_check_1' };
  const budget = { rejectionsUsed: 0, rejectionBudget: hooks.stopMaxRejections, afterObjection: false };
  const prompt = 'Fix the failing test. (A sample prompt from sprout-agent hooks check.)';
  // docs/hooks.md#instructions-in-_meta: a sample file, as a run in a repository with an AGENTS.md sends it.
  const instructions = [{ path: 'AGENTS.md', sha256: '0'.repeat(64) }];
  switch (hook) {
    case '_SessionStart':
      return { source: 'new', instructions };
    case '_UserPromptSubmit':
      return { prompt, mode: 'agent', instructions };
    case '_PreToolUse':
      return { ...callFields, denialsUsed: 0, denialBudget: hooks.preToolUseMaxDenials };
    case '_PostToolUse':
      return { ...callFields, isError: false, durationMs: 42, result: 'sample tool result' };
    case '_Stop':
      return { ...budget, toolCalls: [{ tool: call.tool, isError: false }], lastAssistantText: 'Done: the test passes now.', prompt, mode: 'agent', instructions };
    // docs/hooks.md#_subagentstop: `_Stop`'s fields (a subagent's task is its prompt), and which agent.
    case '_SubagentStop':
      return { ...budget, toolCalls: [{ tool: call.tool, isError: false }], lastAssistantText: 'Done: the test passes now.', prompt, mode: 'agent', instructions, agent: { id: 'sub-1', name: 'general' } };
    case '_PostCompact':
      return budget;
    case '_SessionEnd':
      return { reason: 'exit' };
  }
}

/** What non-empty text from each hook does in a real run. */
const EFFECT: Record<HookName, string> = {
  _SessionStart: 'injected after the first prompt',
  _UserPromptSubmit: 'injected after the prompt',
  _PreToolUse: 'the call would be denied',
  _PostToolUse: 'injected after the round\'s tool results',
  _Stop: 'an objection: the agent would keep working',
  _SubagentStop: 'an objection: the subagent would keep working',
  _PostCompact: 'injected into the fresh context',
  _SessionEnd: 'ignored: nothing reaches a model',
};

export interface CheckedCall {
  hook: HookName;
  result: HookCallResult;
  text: string;
  durationMs: number;
  /** A reply (even `isError`) came back within the hook timeout. */
  answered: boolean;
}

export interface ServerReport {
  name: string;
  allowlisted: boolean;
  /** The protocol it spoke ("MCP 2026-07-28 (modern era)"), once it was up. */
  protocol?: string;
  /** The lifecycle hooks it exposes, in lifecycle order. */
  hooks: HookName[];
  /** `_` tools that are no hook Sprout calls (a typo, say). */
  otherHookTools: string[];
  error?: string;
  killed: boolean;
  calls: CheckedCall[];
}

export interface CheckReport {
  timeoutMs: number;
  servers: ServerReport[];
  /** Allowlist entries that name no server here (a run exits 2 on them). */
  unknownAllowlisted: string[];
  /** Every chosen hook was called at least once and every call answered within the timeout. */
  ok: boolean;
}

function quote(text: string): string {
  const flat = sanitizeForTerminal(text).replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 160 ? `${flat.slice(0, 160)}...` : flat);
}

function describeCall(call: CheckedCall, timeoutMs: number): string {
  const head = `${call.hook}  ${call.durationMs} ms`;
  switch (call.result) {
    case 'timeout':
      return `${head}  TIMED OUT (limit ${timeoutMs} ms): no effect in a real run; a second timeout in a row kills the server`;
    case 'cancelled':
      return `${head}  cancelled`;
    case 'error':
      return call.answered
        ? `${head}  answered isError within ${timeoutMs} ms: no effect (fail open): ${quote(call.text)}`
        : `${head}  FAILED (no reply): ${quote(call.text)}`;
    case 'no_objection':
      return `${head}  answered empty within ${timeoutMs} ms: no effect`;
    case 'objection':
      return `${head}  answered within ${timeoutMs} ms: ${EFFECT[call.hook]}: ${quote(call.text)}`;
  }
}

function describeServer(server: ServerReport, timeoutMs: number): string[] {
  // A server that started with no hooks has nothing to enable: no advice to allowlist it.
  const toolsOnly = server.hooks.length === 0 && server.error === undefined;
  const allowed = server.allowlisted ? 'allowlisted' : toolsOnly ? 'not allowlisted (nothing to enable)' : 'NOT allowlisted, so a real run ignores its hooks; add it to MCP_HOOK_SERVERS';
  const lines = [`${server.name}: ${allowed}`];
  if (server.protocol !== undefined) lines.push(`  speaks ${server.protocol}`);
  if (server.error !== undefined) lines.push(`  failed to start: ${sanitizeForTerminal(server.error)}`);
  lines.push(server.hooks.length > 0 ? `  hooks: ${server.hooks.join(', ')}` : '  no lifecycle hooks');
  if (server.otherHookTools.length > 0) lines.push(`  ignored "_" tools (no hook of that name): ${server.otherHookTools.join(', ')}`);
  for (const call of server.calls) lines.push(`  ${describeCall(call, timeoutMs)}`);
  if (server.killed) lines.push('  killed after two timeouts in a row, as a real run would; it restarts on next use');
  return lines;
}

export function formatReport(report: CheckReport, allowlist: string): string {
  const lines = [`Hook timeout ${report.timeoutMs} ms (SPROUT_AGENT_HOOK_TIMEOUT_MS); MCP_HOOK_SERVERS=${allowlist}`, ''];
  if (report.unknownAllowlisted.length > 0) {
    lines.push(`MCP_HOOK_SERVERS names ${visibleNames(report.unknownAllowlisted)}, which is no server here: a run would stop with a configuration error.`, '');
  }
  for (const server of report.servers) lines.push(...describeServer(server, report.timeoutMs), '');
  const calls = report.servers.flatMap((s) => s.calls);
  const answered = calls.filter((c) => c.answered).length;
  lines.push(
    calls.length === 0
      ? 'No hook was called: no server exposes the chosen hooks.'
      : `${calls.length} call${calls.length === 1 ? '' : 's'}: ${answered} answered within the timeout, ${calls.length - answered} did not.`,
  );
  lines.push(report.ok ? 'OK' : 'NOT OK');
  return `${lines.join('\n')}\n`;
}
