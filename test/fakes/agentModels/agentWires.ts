/**
 * One scripted model reply (text, or one tool call) rendered as each agent's model API streams it:
 * Anthropic Messages SSE (message_start ... message_stop), OpenAI Responses SSE (response.created ...
 * response.completed) and Gemini `streamGenerateContent` SSE (candidates chunks). Shapes follow the
 * three APIs' streaming references.
 */

/**
 * `namespace` is the Responses API's: a call to a function of a `namespace` tool (Codex offers each MCP
 * server's tools as one) names the namespace and the function apart. The other wires have none.
 */
export type ScriptedReply = { text: string } | { tool: { name: string; input: Record<string, unknown>; namespace?: string } };

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_${(counter += 1)}`;

function sse(event: string | undefined, data: unknown): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

export function anthropicStream(reply: ScriptedReply, model: string): string[] {
  const usage = { input_tokens: 12, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const out = [sse('message_start', { type: 'message_start', message: { id: nextId('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } })];
  if ('text' in reply) {
    out.push(sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
    out.push(sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply.text } }));
  } else {
    out.push(sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: nextId('toolu'), name: reply.tool.name, input: {} } }));
    out.push(sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.tool.input) } }));
  }
  out.push(sse('content_block_stop', { type: 'content_block_stop', index: 0 }));
  out.push(sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'text' in reply ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: 8 } }));
  out.push(sse('message_stop', { type: 'message_stop' }));
  return out;
}

export function responsesStream(reply: ScriptedReply, model: string): string[] {
  const id = nextId('resp');
  const item =
    'text' in reply
      ? { type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }
      : {
          type: 'function_call',
          id: nextId('fc'),
          call_id: nextId('call'),
          ...(reply.tool.namespace === undefined ? {} : { namespace: reply.tool.namespace }),
          name: reply.tool.name,
          arguments: JSON.stringify(reply.tool.input),
          status: 'completed',
        };
  const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 8, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 20 };
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model };
  const out = [sse('response.created', { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } })];
  out.push(sse('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', ...('content' in item ? { content: [] } : {}) } }));
  if ('text' in reply) out.push(sse('response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: reply.text }));
  out.push(sse('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }));
  out.push(sse('response.completed', { type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } }));
  return out;
}

export function geminiStream(reply: ScriptedReply): string[] {
  const part = 'text' in reply ? { text: reply.text } : { functionCall: { name: reply.tool.name, args: reply.tool.input } };
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 8, totalTokenCount: 20 },
    modelVersion: 'gemini-2.5-flash',
  };
  return [sse(undefined, chunk)];
}
