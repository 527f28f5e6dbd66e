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
      inputSchema: tool.inputSchema,
      annotations: pickAnnotations(tool.annotations),
      isHook: isHookName(tool.name),
      ...(tasks !== undefined && runsTasks ? { taskSupport: tasks } : {}),
    });
  }
  return tools;
}
