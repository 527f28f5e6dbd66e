/**
 * Pieces every agent format shares: validating a payload with zod into a readable error, splitting an
 * agent's tool name into Sprout's `server`/`toolName` (MCP tools are `mcp__<server>__<tool>` in Claude
 * Code, Codex and Gemini CLI), turning a tool's input and response into the `arguments` object and
 * `result` text Sprout hooks are told about, and reading a command hook's stdout as JSON.
 */
import type { z } from 'zod';
import { PayloadError, type AgentAnswer, type AgentId, type HookReply } from './agentFormat';

export function parseWith<T extends z.ZodType>(agent: AgentId, event: string, schema: T, payload: unknown): z.infer<T> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.length > 0 ? i.path.join('.') : '(payload)'}: ${i.message}`);
  throw new PayloadError(agent, event, issues.join('; '));
}

const MCP_TOOL = /^mcp__(.+?)__(.+)$/;

/** `tool`, `server`, `toolName` for a tool the agent names: an MCP tool's server, else the agent itself. */
export function toolFields(agent: AgentId, name: string): { tool: string; server: string; toolName: string } {
  const mcp = MCP_TOOL.exec(name);
  return mcp?.[1] !== undefined && mcp[2] !== undefined ? { tool: name, server: mcp[1], toolName: mcp[2] } : { tool: name, server: agent, toolName: name };
}

/** Sprout hooks are told about an arguments object; an agent may send a JSON string or a bare value. */
export function argumentsObject(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { value: input };
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  return value === undefined ? {} : { value };
}

/** A tool's response as the text a `_PostToolUse` hook reads. */
export function resultText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (response === undefined || response === null) return '';
  return JSON.stringify(response);
}

/** An error marker in a tool response, where the agent has one. */
export function responseIsError(response: unknown): boolean {
  if (response === null || typeof response !== 'object') return false;
  const r = response as Record<string, unknown>;
  return r.is_error === true || r.isError === true || (r.error !== undefined && r.error !== null && r.error !== '');
}

/** A command hook's stdout as one JSON object, or undefined when it is empty or not JSON. */
export function stdoutJson(stdout: string): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (trimmed === '') return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function stringField(object: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' ? value : undefined;
}

export function objectField(object: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  const value = object?.[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** `_SessionStart`'s source from an agent's: only a resumed session is `resume`. */
export function sessionSource(source: string | undefined): 'new' | 'resume' {
  return source === 'resume' ? 'resume' : 'new';
}

/** A command hook that failed (a non-zero exit its agent does not read as a decision): no text, and why. */
export function failedHook(res: AgentAnswer): HookReply {
  const stderr = res.stderr.trim();
  return { text: '', problem: `exit ${res.exitCode}${stderr ? `: ${stderr.slice(0, 500)}` : ''}` };
}

/** The answer for stdout that is empty (no text) or not JSON (no text, and said). */
export function nonJsonReply(stdout: string): HookReply {
  return stdout.trim() === '' ? { text: '' } : { text: '', problem: 'stdout is not a JSON object' };
}
