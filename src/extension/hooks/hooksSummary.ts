/**
 * The hooks in one line, for the chat's header and its empty state: which servers check the agent's
 * work before it finishes, how many objections are left, and whether something is wrong with one of
 * them (killed, failing, out of objections). Read from the Hooks view's state, so the line and the view
 * never disagree. vscode-free (unit-tested under node).
 */
import type { HookAllowlist } from '../../agent/settings';
import { budgetText } from '../../shared/budgetText';
import { hookLabel } from '../../shared/hookText';
import type { HooksSummary } from '../../shared/protocol';
import type { HooksViewState } from './hooksViewState';

const OFF_TOOLTIP =
  'No hooks are on: no MCP server checks the agent\'s work before it finishes. "Sprout: Enable Test-Runner Hook" makes the bundled test runner one; "Sprout: Configure Hook Servers" picks others (sprout.hooks.servers).';

/** The servers that run completion checks: the running ones offering `_Stop`, or (before they start) the allowlist. */
function checkingServers(view: HooksViewState, allowlist: HookAllowlist): string[] | 'all' {
  // Another agent's hook file is named by its path, as the Hooks view shows it.
  const running = [...view.servers.values()].filter((s) => s.allowlisted && s.hooks.includes('_Stop')).map((s) => s.file ?? s.name);
  if (running.length > 0 || view.serversStarted) return running;
  return allowlist.kind === 'all' ? 'all' : allowlist.names;
}

export function hooksSummary(view: HooksViewState, allowlist: HookAllowlist = view.hookAllowlist): HooksSummary {
  const files = [...view.servers.values()].some((s) => s.file !== undefined);
  if (allowlist.kind === 'names' && allowlist.names.length === 0 && !files) return { state: 'off', text: 'No completion checks', tooltip: OFF_TOOLTIP };
  const servers = checkingServers(view, allowlist);
  if (servers !== 'all' && servers.length === 0) {
    return { state: 'off', text: 'No completion checks', tooltip: 'The hook servers in sprout.hooks.servers offer no completion check (_Stop).' };
  }
  const who = servers === 'all' ? 'any allowed server' : servers.join(', ');
  const budget = budgetText(view.budget);
  const troubled = [...view.servers.values()].filter((s) => s.allowlisted && s.hooks.length > 0 && (s.health === 'killed' || s.health === 'error'));
  const text = `${hookLabel('_Stop')}: ${who}${budget.line ? ` · ${budget.line}` : ''}`;
  const problems = troubled.map((s) => `${s.name} is ${s.health}${s.detail ? ` (${s.detail})` : ''}.`);
  const tooltip = [`Before the agent finishes, ${who} may object and send it back to work.`, ...problems, budget.tooltip].filter(Boolean).join('\n');
  return { state: troubled.length > 0 || budget.spent ? 'warning' : 'on', text, tooltip };
}
