/**
 * The chat's small notes about hooks and servers, in plain words: what happened, what it means for the
 * turn, and the setting or command to reach for. A hook check that passed says nothing here (the turn's
 * footer lists it); only what a user may need to act on becomes a line of its own. A hook that fails or
 * takes too long never changes the turn (hooks are advisory), and its note says so in the words of what
 * that hook does (hookText.ts, which the CLI prints too).
 */
import type { AgentEvent } from '../../agent/events';
import { KILL_AFTER_TIMEOUTS } from '../../agent/hookCaller';
import { limitedServersText } from '../../agent/toolLimit';
import { quotedName } from '../../agent/nameText';
import { EDITOR_SERVER_NAME } from '../editorServer/editorServerName';
import { hookFailedText, hookLabel, hookTimedOutText } from '../../shared/hookText';

export interface Note {
  level: 'info' | 'warning' | 'error';
  text: string;
  /** Files the note names, each opened from the chat (the instruction files that apply). */
  files?: string[];
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** A changed request shape, said once: what changed, for which endpoint and model, and why. */
function adaptedText(event: Extract<AgentEvent, { type: 'model_adapted' }>): string {
  const where = `${event.endpoint} (${event.model})`;
  if (event.learnedFrom === 'memory') return `For ${where} Sprout is ${event.change}, as this endpoint taught it earlier.`;
  if (event.learnedFrom === 'host') return `For ${where} Sprout is ${event.change}: ${event.said ?? ''}.`;
  const why = event.learnedFrom === 'rejection' ? `it refused the request ("${firstLine(event.said ?? '')}"), so it was sent again` : 'its reply showed it';
  return `Adapted to ${where}: ${event.change}; ${why}. Remembered for this endpoint and model.`;
}

/** "the MCP server a" / "the MCP servers a, b". */
const LIST = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

/** "the MCP server a", "the MCP servers a and b": names read as a sentence, not a code list. */
function serversText(servers: readonly string[]): string {
  return `the MCP ${servers.length === 1 ? 'server' : 'servers'} ${LIST.format(servers)}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "3 instructions: AGENTS.md (at the workspace root), …" when what applies changes, with what could not be used. */
function instructionsNote(event: Extract<AgentEvent, { type: 'instructions' }>): Note | undefined {
  const n = event.applied.length;
  const files = n === 0 ? 'No instruction files apply.' : `${n} ${n === 1 ? 'instruction' : 'instructions'}: ${event.applied.map((a) => `${a.path} (${a.why})`).join(', ')}.`;
  if (n === 0 && event.notes.length === 0) return undefined;
  return { level: event.notes.length > 0 ? 'warning' : 'info', text: [files, ...event.notes].join(' '), ...(n === 0 ? {} : { files: event.applied.map((a) => a.path) }) };
}

/** "2 skills: context-map, pytest-coverage." when the skills offered change, with the SKILL.md files that could not be used. */
function skillsNote(event: Extract<AgentEvent, { type: 'skills' }>): Note | undefined {
  const n = event.skills.length;
  if (n === 0 && event.notes.length === 0) return undefined;
  const names = n === 0 ? 'No skills.' : `${n} ${n === 1 ? 'skill' : 'skills'}: ${event.skills.map((s) => s.name).join(', ')}.`;
  return { level: event.notes.length > 0 ? 'warning' : 'info', text: [names, ...event.notes].join(' ') };
}

/** The note an event deserves, or undefined (most events have an entry of their own, or need none). */
export function noteFor(event: AgentEvent): Note | undefined {
  switch (event.type) {
    case 'hook_finished':
      return event.result === 'error' ? { level: 'warning', text: hookFailedText(event.hook, event.server, firstLine(event.text)) } : undefined;
    case 'tool_denied':
      return deniedNote(event);
    case 'hook_timed_out':
      return { level: 'warning', text: hookTimedOutText(event.hook, event.server, event.consecutive, KILL_AFTER_TIMEOUTS) };
    case 'server_killed':
      return { level: 'error', text: `Sprout stopped the server ${event.server} (${event.reason}). It starts again when next needed; what it kept in memory (a todo list, say) is gone.` };
    case 'server_restarted':
      return { level: 'info', text: `The server ${event.server} restarted (attempt ${event.attempt}).` };
    case 'server_error':
      return { level: 'error', text: `The server ${event.server} failed: ${event.message}` };
    case 'tools_limited':
    case 'tools_loaded':
      return toolSearchNote(event);
    case 'tools_unmatched':
      return { level: 'warning', text: `The tool selection names ${event.names.map(quotedName).join(', ')}, which no MCP server lists; the other names still apply.` };
    case 'hooks_not_enabled':
      // Sprout's own editor server always runs; its Problems check is one command away, not a misconfiguration.
      if (event.server === EDITOR_SERVER_NAME) return { level: 'info', text: 'The Problems check is off: run "Sprout: Enable Problems Hook" to keep the agent from finishing while files it changed have new errors.' };
      return {
        level: 'warning',
        text: `The server ${event.server} offers hooks (${event.hooks.map(hookLabel).join(', ')}) that do not run: it is not in sprout.hooks.servers. Run "Sprout: Configure Hook Servers" to turn them on.`,
      };
    case 'servers_waiting': {
      const one = event.servers.length === 1;
      return { level: 'info', text: `Waiting up to ${Math.round(event.waitMs / 100) / 10} s for the MCP ${one ? 'server' : 'servers'} ${event.servers.join(', ')} to be ready; the agent goes on without ${one ? 'it' : 'them'} after that.` };
    }
    case 'servers_waited': {
      const ready = event.servers.filter((s) => !event.late.includes(s));
      const took = Math.round(event.waitedMs / 100) / 10;
      const lateText = event.late.length === 0 ? '' : `The agent went on without ${serversText(event.late)} (not ready after ${took} s); ${event.late.length === 1 ? 'its tools join when it is' : 'their tools join when they are'} ready.`;
      const readyText = ready.length === 0 ? '' : `${capitalised(serversText(ready))} ${ready.length === 1 ? 'was' : 'were'} ready after ${took} s.`;
      return { level: event.late.length === 0 ? 'info' : 'warning', text: [readyText, lateText].filter(Boolean).join(' ') };
    }
    case 'retry':
      return { level: 'info', text: `The model call failed (${event.reason}); trying again in ${Math.round(event.delayMs / 100) / 10} s (attempt ${event.attempt}).` };
    case 'model_adapted':
      return { level: 'info', text: adaptedText(event) };
    case 'instructions':
      return instructionsNote(event);
    case 'url_elicitation':
      return { level: 'info', text: `The server ${event.server} asked you to open ${event.url}: ${event.action === 'accept' ? 'opened' : event.action === 'decline' ? 'declined' : 'cancelled'}.` };
    case 'sampling_requested':
    case 'sampling_answered':
      return samplingNote(event);
    case 'skills':
      return skillsNote(event);
    case 'resource_watch':
      return resourceWatchNote(event);
    case 'agent':
      return { level: event.notes.length > 0 ? 'warning' : 'info', text: [`Working as the agent ${event.name} (${event.source}).`, ...event.notes].join(' ') };
    default:
      return undefined;
  }
}

function toolSearchNote(event: Extract<AgentEvent, { type: 'tools_limited' | 'tools_loaded' }>): Note {
  if (event.type === 'tools_loaded') return { level: 'info', text: `The tool search for "${event.query}" loaded ${event.names.join(', ')}.` };
  return {
    level: 'warning',
    text:
      `The MCP servers list ${event.listed} tools, more than one request to the model may carry (${event.limit}). The model finds the tools of ${limitedServersText(event.servers)} ` +
      'with the tool search as it needs them. To choose yourself, turn off the servers or tools this chat does not need with the tools button in the message box (Sprout: Pick Tools).',
  };
}

function samplingNote(event: Extract<AgentEvent, { type: 'sampling_requested' | 'sampling_answered' }>): Note {
  if (event.type === 'sampling_requested') {
    const r = event.request;
    const limit = r.cappedTo === undefined ? `up to ${r.maxTokens} tokens` : `up to ${r.cappedTo} tokens (it asked for ${r.maxTokens}: capped)`;
    return { level: 'info', text: `The server ${r.server} asks the chat's model for a reply (MCP sampling, ${limit}): "${firstLine(r.messages[0]?.text ?? '')}"` };
  }
  if (event.outcome === 'refused') {
    return { level: 'info', text: event.by === 'abort' ? `The server ${event.server} withdrew its sampling request.` : `The sampling request of the server ${event.server} was refused; the server was told so.` };
  }
  if (event.outcome === 'failed') return { level: 'warning', text: `The sampling request of the server ${event.server} failed: ${firstLine(event.message ?? '')}` };
  const tokens = event.usage === undefined ? '' : ` (${event.usage.totalTokens} tokens)`;
  return { level: 'info', text: `The model ${event.model ?? ''} answered the sampling request of the server ${event.server}${tokens}.${event.message === undefined ? '' : ` Note: ${event.message}.`}` };
}

/** An attached resource's watch, said once: whether its changes reach the agent (a refresh itself is not a note). */
function resourceWatchNote(event: Extract<AgentEvent, { type: 'resource_watch' }>): Note | undefined {
  const what = `#resource:${event.server}:${event.uri}`;
  if (event.state === 'subscribed') return { level: 'info', text: `Watching ${what}: when the server says it changed, the next round reads it again.` };
  if (event.state === 'unsupported') return { level: 'info', text: `${what} is sent as it was when attached: MCP server ${quotedName(event.server)} offers no subscriptions.` };
  if (event.state === 'failed') return { level: 'warning', text: `${what} is sent as it was when attached: ${event.message ?? 'the subscription failed'}` };
  return undefined;
}

/** The card says what was blocked; the note says once that the rest of the prompt is not checked. */
function deniedNote(event: Extract<AgentEvent, { type: 'tool_denied' }>): Note | undefined {
  if (event.denialsUsed !== event.denialBudget) return undefined;
  return {
    level: 'warning',
    text: `Tool checks have blocked ${event.denialBudget} ${event.denialBudget === 1 ? 'call' : 'calls'} in this prompt, the most sprout.hooks.preToolUseMaxDenials allows: the prompt's other tool calls run without a tool check (asking for approval as usual).`,
  };
}
