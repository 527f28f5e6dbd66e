/**
 * One `tools/call` over an SDK client, the way the MCP spec expects a careful client to make it: a
 * progress token on every call (progress reaches the caller, which resets its idle timeout), and for
 * tools that declare `execution.taskSupport` on a server that offers tasks, a task-augmented call:
 * created, polled (each status is reported like progress), its result fetched, and cancelled with
 * `tasks/cancel` when the caller gives up. The core owns timeouts, so the SDK's own never fire.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolProgress } from '../agent/ports';
import type { RawToolResult } from './toolResults';

/** setTimeout's ceiling: the core owns call timeouts, so the SDK's own 60 s default must never fire. */
const NO_TIMEOUT = 2_147_483_647;
/** A `tasks/cancel` of an abandoned task gets this long; the call has already returned by then. */
const CANCEL_TASK_TIMEOUT_MS = 5000;
/** Progress messages are server text shown on a tool card: long ones are cut. */
const MAX_PROGRESS_MESSAGE = 500;

export interface ToolCallPlan {
  name: string;
  args: Record<string, unknown>;
  meta?: Record<string, unknown>;
  /** Run as a task (the tool supports it and the server offers tasks for tools/call). */
  asTask: boolean;
  signal: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
}

/** The server answered the call with a JSON-RPC error (not a lost connection or a timeout). */
export function isServerAnswer(error: unknown): error is McpError {
  return error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout;
}

/** Whether the server said it runs `tools/call` as tasks (capability `tasks.requests.tools.call`). */
export function serverRunsToolTasks(client: Client): boolean {
  return client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

export async function callToolOverClient(client: Client, plan: ToolCallPlan): Promise<RawToolResult> {
  const params = { name: plan.name, arguments: plan.args, ...(plan.meta !== undefined ? { _meta: plan.meta } : {}) };
  const onprogress = (p: { progress: number; total?: number; message?: string }): void =>
    plan.onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message.slice(0, MAX_PROGRESS_MESSAGE) } : {}) });
  const options = { signal: plan.signal, timeout: NO_TIMEOUT, onprogress };
  // callTool (not a bare request) so the SDK still checks structured content against the tool's outputSchema.
  if (!plan.asTask) return (await client.callTool(params, CallToolResultSchema, options)) as RawToolResult;
  let taskId: string | undefined;
  try {
    const stream = client.experimental.tasks.callToolStream(params, CallToolResultSchema, { ...options, task: {} });
    for await (const message of stream) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      else if (message.type === 'taskStatus') plan.onProgress?.(taskStatusProgress(message.task.status, message.task.statusMessage));
      else if (message.type === 'result') return message.result as RawToolResult;
      else throw message.error instanceof McpError ? message.error : new Error(String(message.error));
    }
    throw new Error(`the task of ${plan.name} ended without a result`);
  } finally {
    if (plan.signal.aborted && taskId !== undefined) cancelTask(client, taskId);
  }
}

function taskStatusProgress(status: string, statusMessage: string | undefined): ToolProgress {
  return { message: (statusMessage !== undefined && statusMessage !== '' ? `${status}: ${statusMessage}` : status).slice(0, MAX_PROGRESS_MESSAGE) };
}

/** Best effort: the server may already be gone, and nobody waits for the answer. */
function cancelTask(client: Client, taskId: string): void {
  void client.experimental.tasks.cancelTask(taskId, { timeout: CANCEL_TASK_TIMEOUT_MS }).catch(() => undefined);
}
