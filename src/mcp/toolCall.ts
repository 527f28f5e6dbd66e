/**
 * One `tools/call` over an SDK client, the way the MCP spec expects a careful client to make it: a
 * progress token on every call (progress reaches the caller, which resets its idle timeout), and for
 * tools that declare `execution.taskSupport` on a server that offers tasks, a task-augmented call:
 * created, polled (each status is reported like progress), its result fetched, and cancelled with
 * `tasks/cancel` when the caller gives up. The core owns timeouts, so the SDK's own never fire.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Client, type Tool } from '@modelcontextprotocol/client';
import { CancelTaskResultSchema, CreateTaskResultSchema, GetTaskResultSchema, CallToolResultSchema } from '@modelcontextprotocol/core';
import type { ToolProgress } from '../agent/ports';
import { checkStructuredContent } from './structuredCheck';
import type { RawToolResult } from './toolResults';

/** setTimeout's ceiling: the core owns call timeouts, so the SDK's own 60 s default must never fire. */
const NO_TIMEOUT = 2_147_483_647;
/** A `tasks/cancel` of an abandoned task gets this long; the call has already returned by then. */
const CANCEL_TASK_TIMEOUT_MS = 5000;
/** Progress messages are server text shown on a tool card: long ones are cut. */
const MAX_PROGRESS_MESSAGE = 500;
/** How often a task is polled when the server suggests nothing (and the bounds on what it suggests). */
const TASK_POLL = { defaultMs: 1000, minMs: 50, maxMs: 30_000 };

export interface ToolCallPlan {
  name: string;
  args: Record<string, unknown>;
  meta?: Record<string, unknown>;
  /** Run as a task (the tool supports it and the server offers tasks for tools/call). */
  asTask: boolean;
  /** A hook call: a server asking for input (`input_required`) gets no dialog, only a refusal. */
  isHook: boolean;
  signal: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  /**
   * The tool as listed: the SDK gets its input schema without the outputSchema (so it never throws a
   * result away), and the structured content is checked here against `outputSchema`, the mismatch said to `onMismatch`.
   */
  definition?: { inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> };
  onMismatch?: (why: string) => void;
}

/** The server answered the call with a JSON-RPC error (not a lost connection or a timeout, which are the SDK's own errors). */
export function isServerAnswer(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError;
}

/**
 * Whether the server said it runs `tools/call` as tasks (the 2025-11-25 capability
 * `tasks.requests.tools.call`; the 2026-07-28 tasks extension is not offered, so a modern server
 * answers inline).
 */
export function serverRunsToolTasks(client: Client): boolean {
  return client.getProtocolEra() !== 'modern' && client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/** What a hook's `input_required` answer becomes: no answer (an error result the hook caller ignores). */
export function hookAskedForInput(name: string): RawToolResult {
  return { isError: true, content: [{ type: 'text', text: `the hook ${name} asked for input (input_required); a hook cannot ask the user, so its answer is ignored` }] };
}

export async function callToolOverClient(client: Client, plan: ToolCallPlan): Promise<RawToolResult> {
  const params = { name: plan.name, arguments: plan.args, ...(plan.meta !== undefined ? { _meta: plan.meta } : {}) };
  const onprogress = (p: { progress: number; total?: number; message?: string }): void =>
    plan.onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message.slice(0, MAX_PROGRESS_MESSAGE) } : {}) });
  const options = { signal: plan.signal, timeout: NO_TIMEOUT, onprogress };
  if (plan.asTask) return callAsTask(client, params, plan, options);
  // callTool (not a bare request) for input_required and header mirroring; the listed definition without its
  // outputSchema, so a mismatching structured content is checked by checkStructuredContent instead of losing the result.
  const definition = plan.definition !== undefined ? { toolDefinition: { name: plan.name, inputSchema: plan.definition.inputSchema } as Tool } : {};
  const result = await client.callTool(params, { ...options, ...definition, ...(plan.isHook ? { allowInputRequired: true } : {}) });
  if (isInputRequired(result)) return hookAskedForInput(plan.name);
  return checkStructuredContent(result as RawToolResult, plan.definition?.outputSchema, (why) => plan.onMismatch?.(why));
}

function isInputRequired(result: CallToolResult): boolean {
  return (result as { resultType?: unknown }).resultType === 'input_required';
}

type CallParams = { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> };
type RequestOptions = { signal: AbortSignal; timeout: number; onprogress: (p: { progress: number; total?: number; message?: string }) => void };

/**
 * The 2025-11-25 task flow (the SDK's v2 client no longer drives it): create, poll `tasks/get` until
 * the task ends (or needs input, which `tasks/result` delivers while it waits), then `tasks/result`.
 */
async function callAsTask(client: Client, params: CallParams, plan: ToolCallPlan, options: RequestOptions): Promise<RawToolResult> {
  const created = await client.request({ method: 'tools/call', params: { ...params, task: {} } }, CreateTaskResultSchema, options);
  const taskId = created.task.taskId;
  try {
    for (let task = created.task; ; ) {
      plan.onProgress?.(taskStatusProgress(task.status, task.statusMessage));
      if (task.status === 'completed' || task.status === 'input_required') break;
      // The server's own verdict on the call, so the model gets it as an error result.
      if (task.status === 'failed' || task.status === 'cancelled') {
        throw new ProtocolError(ProtocolErrorCode.InternalError, `the task of ${plan.name} ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
      }
      await sleep(pollDelay(task.pollInterval), undefined, { signal: plan.signal });
      task = await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema, options);
    }
    return (await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema, options)) as RawToolResult;
  } finally {
    if (plan.signal.aborted) cancelTask(client, taskId);
  }
}

function pollDelay(suggested: number | undefined): number {
  const ms = suggested ?? TASK_POLL.defaultMs;
  return Math.min(TASK_POLL.maxMs, Math.max(TASK_POLL.minMs, ms));
}

function taskStatusProgress(status: string, statusMessage: string | undefined): ToolProgress {
  return { message: (statusMessage !== undefined && statusMessage !== '' ? `${status}: ${statusMessage}` : status).slice(0, MAX_PROGRESS_MESSAGE) };
}

/** Best effort: the server may already be gone, and nobody waits for the answer. */
function cancelTask(client: Client, taskId: string): void {
  void client.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema, { timeout: CANCEL_TASK_TIMEOUT_MS }).catch(() => undefined);
}

/**
 * The calls in flight to one server, so a question the server asks while only hook calls run is known
 * to come from a hook (on the 2025 era the SDK turns a hook's `input_required` into a question on the
 * wire, which says nothing of the call it belongs to). Such a question is declined, never shown, and
 * the hook calls it arrived during count as no answer, as they do on the 2026 era.
 */
export class CallsInFlight {
  private hooks = 0;
  private tools = 0;
  private hookQuestions = 0;

  /** A call starts; the returned function ends it (once; later calls only answer) and says whether a hook asked a question meanwhile. */
  begin(isHook: boolean): () => boolean {
    const kind = isHook ? 'hooks' : 'tools';
    this[kind]++;
    const questions = this.hookQuestions;
    let asked: boolean | undefined;
    return () => {
      if (asked === undefined) {
        this[kind]--;
        asked = isHook && this.hookQuestions !== questions;
      }
      return asked;
    };
  }

  /** Whether any call (a tool's or a hook's) is running. */
  get busy(): boolean {
    return this.hooks + this.tools > 0;
  }

  /** The server asks a question: true (and counted) when it can only come from a hook. */
  questionFromHook(): boolean {
    if (this.hooks === 0 || this.tools > 0) return false;
    this.hookQuestions++;
    return true;
  }
}
