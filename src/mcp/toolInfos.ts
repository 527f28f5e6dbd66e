/**
 * Turns a server's raw `tools/list` entries into the core's ToolInfo, namespaced with
 * qualifyToolName. A tool with a bad or duplicate name is skipped and reported through `report`,
 * never dropped silently.
 */
import { isHookName, qualifyToolName, ToolNameError } from '../agent/toolNames';
import type { ToolAnnotations, ToolInfo } from '../agent/messages';
import { quotedName } from '../agent/nameText';

export interface RawTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  execution?: { taskSupport?: unknown };
}

const BOOLEAN_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

function pickAnnotations(raw: Record<string, unknown> | undefined): ToolAnnotations {
  const out: ToolAnnotations = {};
  if (!raw) return out;
  if (typeof raw.title === 'string') out.title = raw.title;
  for (const hint of BOOLEAN_HINTS) if (typeof raw[hint] === 'boolean') out[hint] = raw[hint];
  return out;
}

function taskSupport(tool: RawTool): ToolInfo['taskSupport'] {
  const value = tool.execution?.taskSupport;
  return value === 'required' || value === 'optional' ? value : undefined;
}

/** Marks a placeholder input schema (toolListWire.ts) with the reason the server's own could not be used. */
export const REFUSED_SCHEMA_KEY = 'x-sprout-refused';

/**
 * A tool's arguments are always an object; what a server lists is read so. A schema with no `type`
 * (a top-level `anyOf`/`oneOf` of object arms, only a `$schema`, nothing at all) is an object schema
 * that did not say so: `type: "object"` is added. A schema whose type cannot be an object
 * (`"string"`, `"array"`) describes no arguments a tool can take: the tool is refused, in words.
 */
export function objectInputSchema(schema: unknown): { schema: Record<string, unknown> } | { refused: string } {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return { schema: { type: 'object', properties: {} } };
  const given = schema as Record<string, unknown>;
  const type = given.type;
  if (typeof given[REFUSED_SCHEMA_KEY] === 'string') return { refused: given[REFUSED_SCHEMA_KEY] };
  if (type === 'object') return { schema: given };
  const combined = ['anyOf', 'oneOf', 'allOf'].some((k) => Array.isArray(given[k]));
  const properties = given.properties !== undefined || combined ? {} : { properties: {} };
  if (type === undefined) return { schema: { ...given, type: 'object', ...properties } };
  if (Array.isArray(type) && type.includes('object')) return { schema: { ...given, type: 'object', ...properties } };
  return { refused: `its inputSchema has type ${JSON.stringify(type)}, and a tool's arguments must be an object schema (type "object")` };
}

/**
 * `runsTasks`: the server offers tasks for tools/call. A tool that requires a task on a server that
 * does not offer them could never succeed, so it is left out with a reason instead of failing every call.
 */
export function toToolInfos(server: string, raw: readonly RawTool[], report: (message: string) => void, runsTasks = false): ToolInfo[] {
  const seen = new Set<string>();
  const tools: ToolInfo[] = [];
  for (const tool of raw) {
    let qualifiedName: string;
    try {
      qualifiedName = qualifyToolName(server, tool.name);
    } catch (error) {
      if (!(error instanceof ToolNameError)) throw error;
      report(error.message);
      continue;
    }
    if (seen.has(tool.name)) {
      report(`MCP server ${quotedName(server)} lists the tool ${quotedName(tool.name)} twice; only the first is used.`);
      continue;
    }
    seen.add(tool.name);
    const input = objectInputSchema(tool.inputSchema);
    if ('refused' in input) {
      report(`MCP server ${quotedName(server)}: the tool ${quotedName(tool.name)} is not offered to the model: ${input.refused}.`);
      continue;
    }
    const tasks = taskSupport(tool);
    if (tasks === 'required' && !runsTasks) {
      report(
        `MCP server ${quotedName(server)}: the tool ${quotedName(tool.name)} must run as a task, but the server does not offer tasks for tools/call; ` +
          'it is not offered to the model.',
      );
      continue;
    }
    tools.push({
      server,
      bareName: tool.name,
      qualifiedName,
      description: tool.description ?? '',
      inputSchema: input.schema,
      annotations: pickAnnotations(tool.annotations),
      isHook: isHookName(tool.name),
      ...(tasks !== undefined && runsTasks ? { taskSupport: tasks } : {}),
    });
  }
  return tools;
}
