/**
 * A tool call's `arguments` as the model wrote them (JSON text) and as the history may hold them.
 * A model sometimes writes text that is not a JSON object (cut off, a stray quote); the call cannot run,
 * and sent back verbatim that text makes a strict endpoint (vLLM, llama.cpp) refuse every later
 * request of the session. So the history keeps `{}` in its place, and the tool result tells the model
 * what it sent and why it did not run, so it can call again.
 */
import { errorMessage } from './errorMessage';

/** An empty object: what a history holds for arguments that are not a JSON object. */
export const EMPTY_ARGUMENTS = '{}';

export function parseToolArguments(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  // Some models send an empty string for a call without arguments.
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `the arguments were not valid JSON (${errorMessage(error)})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the arguments must be a JSON object' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** True when the text is what every endpoint accepts back: a JSON object. */
export function isWireSafeArguments(raw: string): boolean {
  return raw.trim() !== '' && parseToolArguments(raw).ok;
}

/** The arguments as the history may hold them: the model's text when it is a JSON object, else `{}`. */
export function wireSafeArguments(raw: string): string {
  return isWireSafeArguments(raw) ? raw : EMPTY_ARGUMENTS;
}

/** How much of the model's own text the refusal quotes back to it. */
const QUOTED_MAX_CHARS = 2000;

/** The tool result for a call whose arguments could not be used: what was wrong, what the model sent, what to do. */
export function invalidArgumentsResult(tool: string, raw: string, error: string): string {
  const quoted = raw.length > QUOTED_MAX_CHARS ? `${raw.slice(0, QUOTED_MAX_CHARS)}... (${raw.length - QUOTED_MAX_CHARS} more characters)` : raw;
  return `invalid arguments for ${tool}: ${error}, so the call did not run. The arguments you sent: ${quoted}\nCall it again with the arguments as one JSON object.`;
}
