/**
 * The two shapes a bundled tool answers with: text, or an error the model can read and act on.
 * Errors are results (isError), not thrown protocol errors, so the model sees why a call failed.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../agent/errorMessage';

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs a tool body and turns a thrown error into an error result with its message. */
export async function guarded(body: () => Promise<CallToolResult> | CallToolResult): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return errorResult(errorMessage(error));
  }
}
