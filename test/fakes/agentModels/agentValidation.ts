/**
 * What each model API refuses about a conversation, checked on every request the agents send the
 * fake (the returned text is the 400's message): a request with no messages, an Anthropic history
 * that does not start with the user or whose tool results answer no tool call of the turn before, a
 * Responses input whose function_call_output names a call it never made, a Gemini history whose
 * function response follows no function call. Enough to catch a hook answer that broke a history.
 */

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

export function validateAnthropic(body: Json): string | undefined {
  if (typeof body.model !== 'string' || typeof body.max_tokens !== 'number') return 'model and max_tokens are required';
  const messages = list(body.messages);
  if (messages.length === 0) return 'messages: at least one message is required';
  if (messages[0]?.role !== 'user') return 'messages: the first message must use the "user" role';
  for (let i = 1; i < messages.length; i += 1) {
    const blocks = list(messages[i]?.content);
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    if (results.length === 0) continue;
    const calls = new Set(list(messages[i - 1]?.content).filter((b) => b.type === 'tool_use').map((b) => b.id));
    const orphan = results.find((id) => !calls.has(id));
    if (orphan !== undefined) return `messages.${i}: unexpected tool_use_id ${String(orphan)} in tool_result blocks: each tool_result must have a tool_use in the previous message`;
  }
  return undefined;
}

export function validateResponses(body: Json): string | undefined {
  if (typeof body.model !== 'string') return 'model is required';
  const input = typeof body.input === 'string' ? [] : list(body.input);
  if (typeof body.input !== 'string' && input.length === 0) return 'input: at least one item is required';
  const calls = new Set<unknown>();
  for (const item of input) {
    if (item.type === 'function_call') calls.add(item.call_id);
    if (item.type === 'function_call_output' && !calls.has(item.call_id)) return `No tool call found for function call output with call_id ${String(item.call_id)}.`;
  }
  return undefined;
}

export function validateGemini(body: Json): string | undefined {
  const contents = list(body.contents);
  if (contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  for (let i = 0; i < contents.length; i += 1) {
    const responses = list(contents[i]?.parts).filter((p) => p.functionResponse !== undefined);
    if (responses.length === 0) continue;
    const calls = list(contents[i - 1]?.parts).filter((p) => p.functionCall !== undefined);
    if (calls.length === 0) return `contents.${i}: a function response turn must come right after a function call turn`;
  }
  return undefined;
}
