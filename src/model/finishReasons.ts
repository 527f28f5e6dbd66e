/**
 * A server's finish reason in the loop's words. OpenAI says `stop`, `length`, `tool_calls` or
 * `content_filter`; other servers say the same things in their own words (Together `eos`, TGI and
 * watsonx `eos_token`, gateways `end`, Anthropic-style relays `end_turn`, `stop_sequence` and
 * `max_tokens`), and some end a stream with a reason that says the server failed: `error`
 * (OpenRouter, Mistral, watsonx, Cohere in capitals, with its `ERROR_LIMIT` and `ERROR_TOXIC`),
 * DeepSeek `insufficient_system_resource`, vLLM `abort`. Those are read as whole words, so a word
 * that only contains one (`resource_ok`) is not a failure. Sources in docs/model-servers.md. Pure.
 */

/** The reply ended because the server failed, not because the model finished. */
const FAILED = /^(error|error_limit|error_toxic|insufficient_system_resource|abort)$/i;
/** The reply was cut at the token limit. */
const CUT = /^(length|max_tokens|max_output_tokens|model_length|token_limit)$/i;
/** The reply was withheld by a filter. */
const FILTERED = /^(content_filter|safety|recitation|blocklist|prohibited_content)$/i;

/** Whether a finish reason says the server failed (then a reply with nothing in it is a failure). */
export function finishedInFailure(said: string | null): boolean {
  return said !== null && FAILED.test(said);
}

/**
 * The finish reason the loop reads: `length` and `content_filter` (whatever the server called them),
 * `tool_calls` when calls came, and `stop` for every other ordinary end, a server's own word or none.
 */
export function loopFinishReason(said: string | null, calls: number): string {
  if (said !== null && CUT.test(said)) return 'length';
  if (said !== null && FILTERED.test(said)) return 'content_filter';
  // Ollama and Gemini say "stop" after streaming tool calls; the calls are what happened.
  if (calls > 0) return 'tool_calls';
  return 'stop';
}
