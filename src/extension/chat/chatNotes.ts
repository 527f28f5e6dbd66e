/**
 * The chat's small notes about hooks and servers, in plain words: what happened, what it means for the
 * turn, and the setting or command to reach for. A completion check that passed says nothing here (the
 * turn's footer lists it); only what a user may need to act on becomes a line of its own.
 */
import type { AgentEvent } from '../../agent/events';
import { KILL_AFTER_TIMEOUTS } from '../../agent/hookCaller';
import { hookBy, hookLabel } from '../../shared/hookText';

export interface Note {
  level: 'info' | 'warning' | 'error';
  text: string;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The note an event deserves, or undefined (most events have an entry of their own, or need none). */
export function noteFor(event: AgentEvent): Note | undefined {
  switch (event.type) {
    case 'hook_finished':
      return event.result === 'error' ? { level: 'warning', text: `${hookBy(event.hook, event.server)} failed, so it counts as no objection: ${firstLine(event.text)}` } : undefined;
    case 'hook_timed_out':
      return {
        level: 'warning',
        text: `${hookBy(event.hook, event.server)} took too long (${event.consecutive} of ${KILL_AFTER_TIMEOUTS} in a row stops the server), so it counts as no objection.`,
      };
    case 'server_killed':
      return { level: 'error', text: `Sprout stopped the server ${event.server} (${event.reason}). It starts again when next needed; what it kept in memory (a todo list, say) is gone.` };
    case 'server_restarted':
      return { level: 'info', text: `The server ${event.server} restarted (attempt ${event.attempt}).` };
    case 'server_error':
      return { level: 'error', text: `The server ${event.server} failed: ${event.message}` };
    case 'hooks_not_enabled':
      return {
        level: 'warning',
        text: `The server ${event.server} offers hooks (${event.hooks.map(hookLabel).join(', ')}) that do not run: it is not in sprout.hooks.servers. Run "Sprout: Configure Hook Servers" to turn them on.`,
      };
    case 'servers_waiting': {
      const one = event.servers.length === 1;
      return { level: 'info', text: `Waiting up to ${Math.round(event.waitMs / 100) / 10} s for the MCP ${one ? 'server' : 'servers'} ${event.servers.join(', ')} to be ready; the agent goes on without ${one ? 'it' : 'them'} after that.` };
    }
    case 'retry':
      return { level: 'info', text: `The model call failed (${event.reason}); trying again in ${Math.round(event.delayMs / 100) / 10} s (attempt ${event.attempt}).` };
    default:
      return undefined;
  }
}
