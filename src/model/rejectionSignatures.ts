/**
 * What a rejected request means, read from the server's own words: one table of signatures (HTTP
 * status, error code or type, message pattern, each taken from what the real servers send; sources in
 * docs/model-servers.md). A signature either names a request transformation (adaptations.ts: the
 * request can succeed in another shape, so it is retried once in that shape and the shape is
 * remembered for the endpoint) or gives a verdict on the error: billing (never retried, it is not
 * rate limiting), a server that must be set up for tools (never retried; says what to change), or a
 * malformed tool call the model produced (the round is retried once). Checked in order; pure.
 */
import { ADAPTATIONS, undoesLearned, type AdaptationId } from './adaptations';
import type { DialectRules } from './dialect';

/** A rejected request as the client saw it: the HTTP status, the body's code and type, every text it held. */
export interface Rejection {
  status: number | undefined;
  code?: string;
  type?: string;
  text: string;
  /** The request carried images as parts: only then can a refusal of images be about them. */
  sentImages?: boolean;
  /**
   * The answer said when to try again in a structured form (a `Retry-After` header, Google's
   * `RetryInfo`): a structured hint outranks words, so words alone cannot make it final.
   */
  retryHint?: boolean;
}

interface Signature {
  /** The statuses it comes with; any when absent (SGLang answers a template error with 500). */
  status?: readonly number[];
  /** Tested against the body's `code` and `type`. */
  code?: RegExp;
  /** Tested against the provider's words. */
  said?: RegExp;
  /** Only for a request that carried images. */
  sentImages?: true;
  /** Words only: not when the answer carries a structured retry hint (which outranks them). */
  wordsOnly?: true;
}

function matches(signature: Signature, r: Rejection): boolean {
  if (signature.status !== undefined && (r.status === undefined || !signature.status.includes(r.status))) return false;
  if (signature.code !== undefined && !signature.code.test(`${r.code ?? ''} ${r.type ?? ''}`)) return false;
  if (signature.sentImages === true && r.sentImages !== true) return false;
  if (signature.wordsOnly === true && r.retryHint === true) return false;
  return signature.said === undefined || signature.said.test(r.text);
}

const REQUEST = [400, 422];
/** How servers word "this field is not allowed here" (pydantic, Azure, Cerebras, generic). */
const REFUSED = '(extra_forbidden|extra inputs are not permitted|unrecognized request argument|unknown (parameter|field)|not permitted|is unsupported|not supported)';
const refused = (field: string): RegExp => new RegExp(`${field}[\\s\\S]*${REFUSED}|${REFUSED}[\\s\\S]*${field}`, 'i');

/**
 * How servers say the model takes no images (sources in docs/model-servers.md); the VS Code models'
 * client reads it too (Copilot's provider: `model "gpt-4.1" not supported for vision`).
 */
export const IMAGE_REFUSAL =
  /image input is not supported|model is not multimodal|at most 0 image\(s\) may be provided|missing data required for image input|does not support images?\b|no endpoints found that support image input|image_url is only supported by certain models|does not support image input|vision is not supported|not supported for vision/i;

/** A template or gateway that refuses the system role or two turns of one role in a row. */
const ROLES_MUST_ALTERNATE = /system role not supported|conversation roles must alternate|must alternate between (the )?user and assistant/i;

const ADAPTING: ReadonlyArray<Signature & { adapt: AdaptationId }> = [
  // Mistral: 422 extra_forbidden; older Azure api-versions: 400 "Unrecognized request argument supplied: stream_options".
  { adapt: 'no-stream-options', status: REQUEST, said: /stream_options/i },
  // Mistral 422 on unknown message fields; Cerebras "property 'messages.2.assistant.reasoning_content' is unsupported".
  { adapt: 'no-reasoning-field', said: refused('(reasoning_content|"reasoning"|\\.reasoning\\b)') },
  { adapt: 'no-extra-content', said: refused('extra_content') },
  // "Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9."
  { adapt: 'mistral-tool-call-ids', said: /tool call id was .* must be a-z, A-Z, 0-9, with a length of 9/i },
  // DeepSeek "Missing `reasoning_content` field ..." / "must be passed back"; Kimi "thinking is enabled but reasoning_content is missing ...".
  { adapt: 'send-reasoning-content', said: /reasoning_content[\s\S]*(missing|passed back)|missing[\s\S]*reasoning_content/i },
  // Gemini 3: "Function call is missing a thought_signature in functionCall parts."
  { adapt: 'send-thought-signatures', said: /thought_signature/i },
  // Gemma and other templates (vLLM 400, SGLang 500, llama-cpp-python, mlx): "System role not supported";
  // Mistral v0.1 and Llama 2 templates: "Conversation roles must alternate user/assistant/user/assistant/...".
  { adapt: 'instructions-as-user', said: ROLES_MUST_ALTERNATE },
  // Once the instructions are in the first user message, the same refusal is about two turns of one role in
  // a row (an answer, then a hook's call): Bedrock behind LiteLLM "A conversation must alternate between user
  // and assistant roles"; vLLM/Mistral "After the optional system message, conversation roles must alternate".
  { adapt: 'merge-consecutive-turns', said: /conversation roles must alternate|must alternate between (the )?user and assistant|roles must alternate/i },
  // Ollama "invalid message content type: <nil>"; LM Studio "'content' field must be a string or an array of objects".
  { adapt: 'tool-turn-empty-string', said: /invalid message content type: <nil>|'content' field must be a string|content[\s\S]{0,40}expected a string, got null/i },
  // Gemini "Unable to submit request because it has an empty text parameter"; NVIDIA NIM (vLLM) "Empty content is not allowed for assistant messages".
  { adapt: 'tool-turn-null', said: /empty text parameter|empty content is not allowed for assistant/i },
  // Gemini: "Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters'",
  // "Proto field is not repeating, cannot start list" (a type array); Cerebras "Unsupported JSON schema fields".
  { adapt: 'reduced-tool-schemas', said: /unknown name "[^"]+" at '[^']*(tools|function_declarations)|proto field is not repeating|unsupported json schema (fields|keywords?)|(tools|parameters)[^\n]{0,80}(\$schema|\$ref|\$defs|additionalProperties)[^\n]{0,40}(not supported|unsupported|not allowed)/i },
  // A model without vision, in each server's words: llama.cpp (500) "image input is not supported - hint: if this is
  // unexpected, you may need to provide the mmproj"; vLLM "The model is not multimodal" / "At most 0 image(s) may be
  // provided in one prompt"; Ollama (500) "this model is missing data required for image input"; LM Studio "Model does
  // not support images"; OpenRouter (404) "No endpoints found that support image input"; OpenAI, and LiteLLM relaying
  // it, "Invalid content type. image_url is only supported by certain models".
  { adapt: 'no-images', said: IMAGE_REFUSAL, sentImages: true },
  // Azure API Management: 401 "Access denied due to missing subscription key" (it ignores a Bearer header).
  { adapt: 'key-in-api-key-header', status: [401], said: /missing (application credentials or )?subscription key/i },
];

/** The transformation a rejection asks for, if the rules do not follow it yet and it undoes nothing learned. */
export function adaptationFor(rejection: Rejection, rules: DialectRules, learned: readonly AdaptationId[]): AdaptationId | undefined {
  const found = ADAPTING.find((s) => matches(s, rejection) && ADAPTATIONS[s.adapt].applies(rules) && !undoesLearned(s.adapt, learned));
  return found?.adapt;
}

/** What an error that no transformation fixes is: each decides whether (and how) it is retried. */
export type Verdict =
  | { kind: 'billing' }
  | { kind: 'setup'; advice: string }
  | { kind: 'malformed_tool_call' }
  /** The server cannot hold this request as it is (memory, context size): the same request fails again, so it is never retried unchanged. */
  | { kind: 'capacity'; what: 'memory' | 'context'; advice: string }
  /** A quota whose window outlasts any retry (per day): waiting seconds does not help. */
  | { kind: 'quota_window' };

const VERDICTS: ReadonlyArray<Signature & { verdict: Verdict }> = [
  // OpenAI: 429 with code insufficient_quota ("You exceeded your current quota, please check your plan and billing details").
  { verdict: { kind: 'billing' }, code: /insufficient_quota|insufficient_credits|billing/i },
  // OpenRouter and gateways: 402 "Insufficient credits", "This request requires more credits, or fewer max_tokens".
  { verdict: { kind: 'billing' }, status: [402] },
  // Words only: Gemini words a per-minute quota "exceeded your current quota ... billing" and says when to retry (RetryInfo).
  { verdict: { kind: 'billing' }, wordsOnly: true, said: /exceeded your current quota|insufficient (credits|balance|funds)|requires more credits|more credits are required|credit balance is too low/i },
  // Gemini's QuotaFailure names the quota: a per-day one (`...PerDay...`) is not over in the seconds RetryInfo suggests.
  { verdict: { kind: 'quota_window' }, status: [429], said: /"?quotaId\\?"?\s*:\s*\\?"[A-Za-z-]*PerDay/ },
  // Groq: 400 tool_use_failed "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details."
  { verdict: { kind: 'malformed_tool_call' }, code: /tool_use_failed/i },
  {
    verdict: { kind: 'setup', advice: 'The server was started without tool calling: start vLLM with --enable-auto-tool-choice --tool-call-parser NAME (the parser that fits the model), or pick a model the provider serves with tool calling.' },
    said: /tool choice requires --enable-auto-tool-choice/i,
  },
  {
    verdict: { kind: 'setup', advice: 'llama-server needs its --jinja flag for tool calling: restart it with --jinja.' },
    said: /tools param requires --jinja|unsupported param: tools/i,
  },
  {
    verdict: { kind: 'setup', advice: 'This model cannot call tools on this server: pick one that can (for Ollama, `ollama show MODEL` lists "tools" among its capabilities).' },
    said: /does not support tools/i,
  },
  {
    // OpenRouter (404): no provider of this model serves tool calls (or the tool_choice Sprout sent).
    verdict: { kind: 'setup', advice: 'No provider behind this router serves tool calls for this model: pick a model that supports tools (OpenRouter lists them with supported_parameters=tools).' },
    said: /no endpoints found that support (tool use|the provided 'tool_choice')/i,
  },
  // Out of memory, in each server's words: Ollama "model requires more system memory (7.5 GiB) than is available",
  // "cudaMalloc failed: out of memory"; vLLM "CUDA out of memory"; llama.cpp "failed to allocate". A 500, yet the
  // same request fails the same way again.
  {
    verdict: { kind: 'capacity', what: 'memory', advice: 'The server does not have the memory for this model or request: pick a smaller model or quantization, lower its context size, or free memory on the server, then send the prompt again.' },
    said: /requires more system memory|out of memory|\bOOM\b|failed to allocate|OutOfMemoryError|insufficient (gpu |v)?ram/i,
  },
  // The request does not fit the context window: llama.cpp `exceed_context_size_error` (400, or 500 in older builds),
  // vLLM "maximum context length is N tokens", Anthropic "prompt is too long", Gemini "input token count exceeds".
  {
    verdict: { kind: 'capacity', what: 'context', advice: "The conversation does not fit the model's context window on this server: raise the server's context size (llama.cpp -c, Ollama num_ctx) or start a new chat." },
    code: /exceed_context_size_error|context_length_exceeded/i,
  },
  {
    verdict: { kind: 'capacity', what: 'context', advice: "The conversation does not fit the model's context window on this server: raise the server's context size (llama.cpp -c, Ollama num_ctx) or start a new chat." },
    said: /exceeds the available context size|maximum context length is|prompt is too long|input token count .*exceeds the maximum|context ?window ?exceeded|input is too long for requested model/i,
  },
];

export function verdictOf(rejection: Rejection): Verdict | undefined {
  return VERDICTS.find((s) => matches(s, rejection))?.verdict;
}
