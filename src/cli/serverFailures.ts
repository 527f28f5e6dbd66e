/**
 * The CLI's verdict on a run, decided once, when the prompt's outcome arrives: the outcome itself plus
 * the failed MCP servers the run needed (MCP_HOOK_SERVERS names it, so its hooks never ran; or the
 * model tried its tools), read from the hub at that moment. The printed outcome carries exactly that
 * list and the exit code is derived from the printed outcome alone (exitCodeForOutcome), so the two
 * can never disagree, however late a crash is noticed: one noticed after the outcome is not in it.
 */
import type { AgentEvent, Outcome } from '../agent/events';
import type { HookAllowlist } from '../agent/settings';
import type { ServerStatus } from '../mcp/mcpHub';
import { quotedName } from '../agent/nameText';

export interface NeededFailure {
  server: string;
  why: string;
  error: string;
}

/** The outcome as the CLI prints it and derives its exit code from. */
export type RunOutcome = Outcome & { failedServers?: NeededFailure[] };

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

export interface RunVerdict {
  /** Passes every event through, the outcome with the failed servers the run needed added. */
  see(event: AgentEvent): AgentEvent;
  /** The outcome as printed, once it came. */
  readonly outcome: RunOutcome | undefined;
}

/** Watches a run's events; the hub's status is read once, as the outcome passes. */
export function runVerdict(status: () => readonly ServerStatus[], allowlist: HookAllowlist): RunVerdict {
  const called = new Set<string>();
  let decided: RunOutcome | undefined;
  return {
    see(event) {
      if (event.type === 'tool_started') called.add(event.name);
      if (event.type !== 'outcome') return event;
      const failures = neededServerFailures(status(), allowlist, called);
      decided = failures.length === 0 ? event.outcome : { ...event.outcome, failedServers: failures };
      return { ...event, outcome: decided };
    },
    get outcome() {
      return decided;
    },
  };
}

export function describeFailures(failures: readonly NeededFailure[]): string {
  return failures.map((f) => `sprout-agent: MCP server ${quotedName(f.server)} failed and this run needed it (${f.why}): ${f.error}\n`).join('');
}
