/**
 * How the CLI shows the agent's event stream. `--json`: every event as one JSON line on stdout, for
 * machines (an image as its type, name, size and byte count, not its bytes). Otherwise readable text: the streamed reply, tool calls as short lines, hook objections
 * clearly marked and the outcome on stdout; diagnostics (retries, server trouble) on stderr.
 * Model and hook text is untrusted: the CLI's streams neutralise it (platform/terminalText.ts), and the
 * lines here flatten it first so one event stays one line.
 */
import { RECLASSIFIED_TEXT_NOTE, type AgentEvent, type UnresolvedCause } from '../agent/events';
import { neutralizeTerminalText as sanitizeForTerminal, terminalSafeJson } from '../platform/terminalText';
import type { WritableLike } from '../runtime/streamLogger';
import { withoutImageBytes } from '../runtime/transcriptImages';
import { KILL_AFTER_TIMEOUTS } from '../agent/hookCaller';
import { limitedServersText } from '../agent/toolLimit';
import { SEARCH_TOOL_NAME } from '../agent/toolSearch';
import { quotedName } from '../agent/nameText';
import { hookFailedText, hookTimedOutText } from '../shared/hookText';
import { UsageTotals } from './usageTotals';

export type EventPrinter = (event: AgentEvent) => void;

export function jsonEventPrinter(out: WritableLike): EventPrinter {
  const totals = new UsageTotals();
  return (event) => {
    totals.see(event);
    // Just before each prompt's outcome (which stays its last line): the run's tokens so far, the model's calls and MCP sampling apart (usageTotals.ts).
    if (event.type === 'outcome') out.write(`${terminalSafeJson(totals.line())}\n`);
    out.write(`${terminalSafeJson(withoutImageBytes(event))}\n`);
  };
}

function oneLine(text: string, max = 200): string {
  const flat = sanitizeForTerminal(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
}

function indent(text: string): string {
  return sanitizeForTerminal(text)
    .split('\n')
    .map((line) => `  | ${line}`)
    .join('\n');
}

interface TextState {
  midLine: boolean;
  /** Streamed text not printed yet (output that is not a terminal). */
  held: string;
}

const LIST = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

const UNRESOLVED_CAUSE: Record<UnresolvedCause, string> = {
  budget_exhausted: 'budget spent, and the final verdict still objects',
  declined: 'the model declined',
  max_rounds: 'max rounds reached',
};

/** The stdout narrative for one event, or undefined when it belongs on stderr or nowhere. */
function narrative(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'tool_started':
      return `-> ${event.name} ${oneLine(event.arguments, 120)}`;
    case 'tool_finished':
      return `<- ${event.name}${event.isError ? ' (error)' : ''}: ${oneLine(event.text)}`;
    case 'tool_progress':
      return `.. ${event.name}${progressAmount(event.progress, event.total)}${event.message !== undefined ? `: ${oneLine(event.message, 160)}` : ''}`;
    case 'hook_objected':
      return `!! HOOK OBJECTION from ${event.server} (${event.hook} ${event.rejectionsUsed}/${event.maxRejections}):\n${indent(event.text)}`;
    case 'tool_denied':
      return `xx ${event.name} blocked by ${event.server} (_PreToolUse ${event.denialsUsed}/${event.denialBudget}):\n${indent(event.text)}`;
    case 'hook_injected':
      return `++ ${event.hook} from ${event.server}: ${oneLine(event.text)}`;
    case 'objection_resolved':
      return `-- objection from ${event.servers.join(', ')}: ${event.resolution}`;
    case 'compaction':
      return `-- history compacted (${event.trigger}${event.fallback ? ', fallback truncation' : ''}, ${event.droppedMessages} messages dropped)${
        event.injected.length > 0 ? `; _PostCompact from ${event.injected.map((i) => i.server).join(', ')}` : ''
      }`;
    case 'outcome': {
      const o = event.outcome;
      // An error's message goes to stderr (runCli), so a terminal shows it once.
      const detail = o.message && o.reason !== 'error' ? `: ${oneLine(o.message, 500)}` : '';
      const lines = [`== ${o.reason} after ${o.rounds} round${o.rounds === 1 ? '' : 's'}${detail}`];
      if (o.unresolved) {
        lines.push(`!! the turn ended with an unresolved hook objection (${UNRESOLVED_CAUSE[o.unresolved.cause]}):`);
        for (const objection of o.unresolved.objections) lines.push(`  ${objection.server}:`, indent(objection.text));
        lines.push('   run again with a new prompt to continue anyway.');
      }
      return lines.join('\n');
    }
    default:
      return undefined;
  }
}

/**
 * A subagent's event, nested under its delegate call: each line of the event's own narrative
 * prefixed with the subagent's id and name (its end is one line: the outcome words are the parent's).
 */
function subagentNarrative(event: Extract<AgentEvent, { type: 'subagent_event' }>): string | undefined {
  const inner = event.event;
  const prefix = `   [${event.subagent.id} ${oneLine(event.subagent.name, 60)}] `;
  if (inner.type === 'prompt_started') return `${prefix}started: ${oneLine(inner.text, 160)}`;
  const story = inner.type === 'outcome' ? `== ${inner.outcome.reason} after ${inner.outcome.rounds} round${inner.outcome.rounds === 1 ? '' : 's'}` : narrative(inner);
  return story?.split('\n').map((l) => `${prefix}${l}`).join('\n');
}

/** The stderr diagnostics for one event, or undefined. */
function diagnostic(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'retry':
      return `retrying the model call in ${event.delayMs} ms (attempt ${event.attempt}): ${oneLine(event.reason)}`;
    case 'model_adapted': {
      const where = `model endpoint ${oneLine(event.endpoint)} (${oneLine(event.model)})`;
      if (event.learnedFrom === 'memory') return `${where}: ${event.change} (remembered)`;
      return `${where}: ${event.change}${event.said === undefined ? '' : `; it said: ${oneLine(event.said)}`} (remembered for next time)`;
    }
    case 'hook_timed_out':
      return hookTimedOutText(event.hook, event.server, event.consecutive, KILL_AFTER_TIMEOUTS, true);
    case 'hook_finished':
      return event.result === 'error' ? hookFailedText(event.hook, event.server, oneLine(event.text), true) : undefined;
    case 'server_killed':
      return `server ${event.server} was killed (${oneLine(event.reason)}); its in-memory state is lost, it restarts on next use`;
    case 'server_restarted':
      return `server ${event.server} restarted (attempt ${event.attempt})`;
    case 'server_error':
      return `server ${event.server}: ${oneLine(event.message, 500)}`;
    case 'servers_waiting':
      return `waiting up to ${seconds(event.waitMs)} s for MCP server${event.servers.length === 1 ? '' : 's'} ${LIST.format(event.servers)} to be ready`;
    case 'servers_waited':
      return event.late.length === 0
        ? `MCP server${event.servers.length === 1 ? ` ${event.servers[0]} was` : `s ${LIST.format(event.servers)} were`} ready after ${seconds(event.waitedMs)} s`
        : `going on without MCP server${event.late.length === 1 ? '' : 's'} ${LIST.format(event.late)} (not ready after ${seconds(event.waitedMs)} s); ${event.late.length === 1 ? 'it joins' : 'they join'} when ready`;
    case 'elicitation_requested':
      return `server ${event.request.server} asks: ${oneLine(event.request.message, 300)}`;
    case 'elicitation_answered':
      return elicitationNote(event.server, event.action, event.by);
    case 'url_elicitation':
      return `${event.action === 'accept' ? 'the user opened' : event.action === 'decline' ? 'declined' : 'cancelled'} the URL server ${event.server} asked to open`;
    case 'sampling_requested':
      return `server ${event.request.server} asks the model for a reply (sampling, maxTokens ${event.request.maxTokens}${event.request.cappedTo === undefined ? '' : `, capped to ${event.request.cappedTo}`})`;
    case 'sampling_answered':
      return samplingNote(event);
    case 'tools_limited':
      return toolsLimitedLine(event);
    case 'tools_unmatched':
      return `--tools: no MCP server lists ${oneLine(event.names.map(quotedName).join(', '), 500)} (a server name, server/tool, server__tool or a tool set of .vscode/*.toolsets.jsonc, read with --trust-workspace); the other names still apply`;
    case 'tools_loaded':
      return `tool search "${oneLine(event.query, 200)}" loaded ${oneLine(event.names.join(', '), 500)}`;
    case 'instructions':
      // Notes only (a file that could not be used, an untrusted workspace); the files themselves with --verbose.
      return event.notes.length === 0 ? undefined : event.notes.map((n) => `instructions: ${oneLine(n, 500)}`).join('\nsprout-agent: ');
    case 'resource_watch':
      return resourceWatchLine(event);
    case 'skills':
      // Notes only (a SKILL.md that could not be used, an untrusted workspace); `sprout-agent skills` lists them.
      return event.notes.length === 0 ? undefined : event.notes.map((n) => `skills: ${oneLine(n, 500)}`).join('\nsprout-agent: ');
    case 'agent':
      // The notes only (a tool it names that no server lists); `sprout-agent agents` lists the agents.
      return event.notes.length === 0 ? undefined : event.notes.map((n) => `agent ${event.name}: ${oneLine(n, 500)}`).join('\nsprout-agent: ');
    case 'hooks_not_enabled':
      return (
        `server ${event.server} has hooks (${event.hooks.join(', ')}) but is not in MCP_HOOK_SERVERS, so they are not enabled ` +
        `(to enable them: MCP_HOOK_SERVERS=${event.server})`
      );
    default:
      return undefined;
  }
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

function progressAmount(progress: number | undefined, total: number | undefined): string {
  if (progress === undefined) return '';
  return total !== undefined && total > 0 ? ` ${progress}/${total}` : ` ${progress}`;
}

function samplingNote(event: Extract<AgentEvent, { type: 'sampling_answered' }>): string {
  const server = event.server;
  if (event.outcome === 'refused') {
    return event.by === 'abort' ? `the sampling request of server ${server} was withdrawn` : `refused the sampling request of server ${server} (--allow-sampling ${server} allows it)`;
  }
  if (event.outcome === 'failed') return `the sampling request of server ${server} failed: ${oneLine(event.message ?? '', 300)}`;
  const tokens = event.usage === undefined ? '' : `, ${event.usage.totalTokens} tokens`;
  return `answered the sampling request of server ${server} with ${event.model ?? 'the model'}${tokens}${event.message === undefined ? '' : ` (${oneLine(event.message, 300)})`}`;
}

function elicitationNote(server: string, action: string, by: string): string {
  if (by === 'abort') return `the question of server ${server} was withdrawn`;
  if (action === 'accept') return `answered the question of server ${server} from the --elicitation answers file`;
  return `${action === 'decline' ? 'declined' : 'cancelled'} the question of server ${server} (nobody to ask; --elicitation FILE answers questions)`;
}

/**
 * `live`: stdout is a terminal, where a person watches the reply stream; text that turns out to have
 * been thinking (`text_reclassified`: a lone `</think>`) cannot be taken back there, so a line says so.
 * Otherwise (a pipe, a file) each reply is held back until it is whole (its `message`, or the next
 * line), so what a script reads is the answer only.
 */
export function textEventPrinter(out: WritableLike, err: WritableLike, options: { live?: boolean } = {}): EventPrinter {
  const state: TextState = { midLine: false, held: '' };
  const text = (piece: string): void => {
    const shown = sanitizeForTerminal(piece);
    if (shown.length === 0) return;
    out.write(shown);
    state.midLine = !shown.endsWith('\n');
  };
  const release = (): void => {
    const held = state.held;
    state.held = '';
    text(held);
  };
  const line = (stream: WritableLike, story: string): void => {
    release();
    if (state.midLine) {
      out.write('\n');
      state.midLine = false;
    }
    stream.write(`${story}\n`);
  };
  return (event) => {
    if (event.type === 'text_delta') return options.live === true ? text(event.delta) : void (state.held += event.delta);
    if (event.type === 'text_reclassified') return reclassified(event.text, state, () => options.live === true && line(out, RECLASSIFIED_TEXT_NOTE));
    if (event.type === 'message') return release();
    const story = event.type === 'subagent_event' ? subagentNarrative(event) : narrative(event);
    if (story !== undefined) line(out, story);
    const note = diagnostic(event.type === 'subagent_event' ? event.event : event);
    if (note !== undefined) line(err, `sprout-agent: ${note}`);
  };
}

/** An attached resource's subscription, said once; a refresh is in --json only. */
function resourceWatchLine(event: Extract<AgentEvent, { type: 'resource_watch' }>): string | undefined {
  const what = `--resource ${oneLine(event.server, 200)}:${oneLine(event.uri, 500)}`;
  if (event.state === 'subscribed') return `${what}: watched; a change reaches the next round`;
  if (event.state === 'updated') return undefined;
  return `${what}: sent as attached (${event.state === 'unsupported' ? 'the server offers no subscriptions' : oneLine(event.message ?? '', 500)})`;
}

function toolsLimitedLine(event: Extract<AgentEvent, { type: 'tools_limited' }>): string {
  return (
    `the MCP servers list ${event.listed} tools, more than one request may carry (${event.limit}); the model finds the tools of ` +
    `${oneLine(limitedServersText(event.servers), 500)} with the tool search (${SEARCH_TOOL_NAME}). ` +
    'To choose yourself, name the servers or tools this task needs with --tools, or mark the others "disabled": true in the --mcp-config file'
  );
}

/** Held-back text loses what was thinking; on a terminal, where it was shown, a line says so. */
function reclassified(thinking: string, state: TextState, sayShown: () => void): void {
  if (state.held.endsWith(thinking)) state.held = state.held.slice(0, state.held.length - thinking.length);
  else sayShown();
}
