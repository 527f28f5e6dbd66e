/**
 * A provider that still refuses the number of tools (a limit below the 128 a round keeps to,
 * src/agent/toolLimit.ts, or a gateway's own) ends the prompt with an error that names the servers the
 * tools came from and how to narrow them, not only the provider's "array too long". The words are
 * those providers use: OpenAI's "Invalid 'tools': array too long. Expected an array with maximum length
 * 128" (https://github.com/vishalmysore/Tools4AI/issues/16), and "too many tools" / "maximum number of
 * tools" from gateways. Pure.
 */
import { ModelError } from '../agent/ports';
import { splitQualifiedName } from '../agent/toolNames';

const TOOL_COUNT = /'tools'[^\n]{0,20}array too long|array_above_max_length[^\n]*tools|tools[^\n]{0,40}maximum length \d+|too many tools|maximum number of tools|tools? (?:count|limit) exceeded/i;

export function isToolCountRefusal(said: string): boolean {
  return TOOL_COUNT.test(said);
}

/** `server (n), ...` for the real tool names of a request, in their order. */
export function toolsByServer(toolNames: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of toolNames) {
    const server = splitQualifiedName(name)?.server ?? name;
    counts.set(server, (counts.get(server) ?? 0) + 1);
  }
  return [...counts].map(([server, n]) => `${server} (${n})`).join(', ');
}

/** The refusal as an error that names the servers, or undefined when `said` is not about the tool count. */
export function toolCountError(said: string, toolNames: readonly string[], where: string, status?: number): ModelError | undefined {
  if (toolNames.length === 0 || !isToolCountRefusal(said)) return undefined;
  const first = said.split('\n')[0]?.trim() ?? '';
  return new ModelError(
    'bad_request',
    `${where} refused the request's ${toolNames.length} tools (it said: ${first}). They come from the MCP servers ${toolsByServer(toolNames)}. ` +
      'Turn off the servers or tools this task does not need (in the editor, the tools button of the message box, Sprout: Pick Tools; ' +
      'on the command line, --tools with the servers or tools to keep), or lower sprout.tools.searchThreshold (SPROUT_AGENT_TOOL_SEARCH_THRESHOLD) ' +
      'below the provider\'s limit, and send the prompt again.',
    status,
  );
}
