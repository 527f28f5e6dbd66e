/**
 * One malformed tool never takes its server's other tools down. The SDK refuses a whole `tools/list`
 * when one tool breaks the schema (an `inputSchema` with a top-level `anyOf` and no `type`, only a
 * `$schema`, `type: "string"`; an `outputSchema` of type `"array"`), and then the server looks
 * connected with no tools. So each tool of a `tools/list` answer is made readable as it arrives,
 * before the SDK sees it: an input schema that is an object schema without saying so gets
 * `type: "object"`; one that cannot be an object keeps a readable placeholder marked with the reason,
 * which `toToolInfos` reports (naming the server, the tool and the field) and leaves out; an
 * outputSchema that is not an object schema is dropped (it is optional), and said.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { quotedName } from '../agent/nameText';
import { objectInputSchema, REFUSED_SCHEMA_KEY } from './toolInfos';

function readableTool(tool: unknown, notes: string[]): unknown {
  if (tool === null || typeof tool !== 'object' || typeof (tool as { name?: unknown }).name !== 'string') return tool;
  const given = tool as Record<string, unknown> & { name: string };
  const input = objectInputSchema(given.inputSchema);
  const inputSchema = 'schema' in input ? input.schema : { type: 'object', properties: {}, [REFUSED_SCHEMA_KEY]: input.refused };
  const output = given.outputSchema;
  const outputOk = output === undefined || (output !== null && typeof output === 'object' && (output as { type?: unknown }).type === 'object');
  if (!outputOk) notes.push(`the tool ${quotedName(given.name)} has an outputSchema that is not an object schema (type ${JSON.stringify((output as { type?: unknown } | null)?.type)}); it is ignored`);
  const { outputSchema: _dropped, ...rest } = given;
  return { ...(outputOk ? given : rest), inputSchema };
}

function readableMessage(message: JSONRPCMessage, notes: string[]): JSONRPCMessage {
  const result = (message as { result?: unknown }).result;
  if (result === null || typeof result !== 'object') return message;
  const tools = (result as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return message;
  return { ...message, result: { ...result, tools: tools.map((tool) => readableTool(tool, notes)) } } as JSONRPCMessage;
}

/** Makes every `tools/list` answer on this connected transport readable; `note` hears what was changed and why. */
export function readToolListsLeniently(transport: Transport, note: (what: string) => void): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    const notes: string[] = [];
    const readable = readableMessage(message, notes);
    for (const what of notes) note(what);
    deliver.call(transport, readable, extra);
  };
}
