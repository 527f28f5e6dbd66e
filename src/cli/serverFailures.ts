/**
 * Which failed MCP servers this run needed, so the CLI can end with exit 2 and their errors instead of
 * a success that hides them (a `--json` `server_error` line alone is easy to miss in CI). A server was
 * needed when MCP_HOOK_SERVERS names it (its hooks never ran), or when the model tried its tools.
 */
import type { AgentEvent } from '../agent/events';
import type { HookAllowlist } from '../agent/settings';
import type { ServerStatus } from '../mcp/mcpHub';

export interface NeededFailure {
  server: string;
  why: string;
  error: string;
}

/** Collects the tool names the model asked for during a run. */
export function calledToolsRecorder(): { listener: (event: AgentEvent) => void; names: Set<string> } {
  const names = new Set<string>();
  return { names, listener: (event) => void (event.type === 'tool_started' && names.add(event.name)) };
}

export function neededServerFailures(status: readonly ServerStatus[], allowlist: HookAllowlist, calledTools: ReadonlySet<string>): NeededFailure[] {
  const failures: NeededFailure[] = [];
  for (const server of status) {
    // Down with an error of its own (a failed start, a crash, a restart cap); a kill for hook timeouts is ours, not a failure.
    if ((server.state !== 'failed' && server.state !== 'restarting') || server.error === undefined) continue;
    const called = [...calledTools].some((name) => name.startsWith(`${server.name}__`));
    const allowlisted = allowlist.kind === 'names' && allowlist.names.includes(server.name);
    if (!called && !allowlisted) continue;
    const why = allowlisted ? 'it is allowlisted in MCP_HOOK_SERVERS, so its hooks did not run' : 'the model tried to use its tools';
    failures.push({ server: server.name, why, error: server.error ?? 'it failed to start' });
  }
  return failures;
}

export function describeFailures(failures: readonly NeededFailure[]): string {
  return failures.map((f) => `sprout-agent: MCP server "${f.server}" failed and this run needed it (${f.why}): ${f.error}\n`).join('');
}
