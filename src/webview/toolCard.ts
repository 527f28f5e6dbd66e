/**
 * A tool call's card: one line (status icon, a readable title, the argument it is about, the actions),
 * the full arguments and result when expanded, and, while the call waits for the user, the approval
 * question with its answers. The card has one place for status lines under its head (`statusLine`) and
 * one for actions (`.tool-actions`), so a new kind of status (progress, a hook's denial) or a new
 * action is one call here. Arguments and results are model and tool text: text only.
 */
import { showHidden } from '../shared/visibleText';
import { progressText, type ChatEntry, type ToolStatus } from '../shared/protocol';
import { button, el, icon } from './dom';
import { prettyArgs, toolServer, toolSummary, toolTitle } from './toolSummary';

export type ToolEntry = Extract<ChatEntry, { kind: 'tool' }>;
export type ToolSend = (
  message: { type: 'approve'; approvalId: string; scope: 'once' | 'chat' | 'workspace' | 'rule' } | { type: 'deny'; approvalId: string } | { type: 'openDiff'; entryId: string } | { type: 'showTerminal'; entryId: string },
) => void;

const STATUS: Record<ToolStatus, { icon: string; text: string }> = {
  running: { icon: 'loading codicon-modifier-spin', text: 'Running' },
  awaiting_approval: { icon: 'shield', text: 'Waiting for your approval' },
  ok: { icon: 'check', text: 'Done' },
  error: { icon: 'error', text: 'Failed' },
  denied: { icon: 'circle-slash', text: 'Denied' },
  cancelled: { icon: 'debug-stop', text: 'Cancelled' },
};

/** A line under the card's head: progress, a hook's denial, anything the call's state needs to say. */
export function statusLine(kind: string, text: string, testid: string): HTMLElement {
  return el('div', { class: `tool-status-line ${kind}`, 'data-testid': testid }, text);
}

function approvalBlock(e: ToolEntry, approvalId: string, send: ToolSend): HTMLElement {
  const block = el('div', { class: 'approval', role: 'group', 'aria-label': 'Approve this tool call', 'data-testid': 'approval' });
  const question = el('div', { class: 'approval-question' });
  const what = toolSummary(e.args);
  question.append(icon('shield'), document.createTextNode('Allow Sprout to '), el('strong', {}, toolTitle(e.name).toLowerCase()));
  if (what) question.append(document.createTextNode(' '), el('code', {}, what));
  question.append(document.createTextNode('?'));
  block.append(question);
  if (e.approvalWarning) block.append(el('div', { class: 'approval-warning', role: 'alert', 'data-testid': 'approval-warning' }, e.approvalWarning));
  const offered = e.approvalScopes ?? ['once', 'chat', 'workspace'];
  const row = el('div', { class: 'approval-buttons' });
  const approve = (scope: 'once' | 'chat' | 'workspace' | 'rule') => () => send({ type: 'approve', approvalId, scope });
  row.append(
    button({ label: 'Allow once', testid: 'tool-approve', cls: 'primary', onClick: approve('once') }),
    button({ label: 'Deny', testid: 'tool-deny', onClick: () => send({ type: 'deny', approvalId }) }),
  );
  block.append(row);
  // The wider answers, quieter: they change what is asked from now on.
  const wider = el('div', { class: 'approval-scopes' });
  if (offered.includes('chat')) wider.append(button({ label: 'Allow in this chat', testid: 'tool-approve-chat', cls: 'link-button', onClick: approve('chat') }));
  if (offered.includes('workspace')) wider.append(button({ label: 'Always allow in this workspace', testid: 'tool-approve-workspace', cls: 'link-button', onClick: approve('workspace') }));
  // The command's first words as a rule in the user's settings (model text: a text node, never markup).
  if (offered.includes('rule') && e.approvalRule) wider.append(button({ label: `Always allow “${e.approvalRule}” (a command rule in your user settings)`, text: `Always allow “${e.approvalRule}”`, testid: 'tool-approve-rule', cls: 'link-button', onClick: approve('rule') }));
  if (wider.childElementCount > 0) block.append(wider);
  return block;
}

/** A call a `_PreToolUse` hook denied never ran and nobody was asked: "Denied" would read as the user's answer. */
const BLOCKED = { icon: 'circle-slash', text: 'Blocked by a hook' };

function head(e: ToolEntry): HTMLElement {
  const status = e.blocked ? BLOCKED : STATUS[e.status];
  const summary = el('summary', { class: 'tool-head', 'aria-label': `${toolTitle(e.name)} ${toolSummary(e.args)}, ${status.text}` });
  summary.append(icon(status.icon, 'tool-status-icon'), el('span', { class: 'tool-title' }, toolTitle(e.name)));
  const what = toolSummary(e.args);
  if (what) summary.append(el('span', { class: 'tool-arg', title: what }, what));
  // A waiting card asks its question below, a blocked one says who blocked it below (so the head keeps
  // its room for what the call was); a finished one says nothing more than its icon.
  if (e.status !== 'ok' && e.status !== 'awaiting_approval' && !e.blocked) summary.append(el('span', { class: 'tool-state' }, status.text));
  return summary;
}

function body(e: ToolEntry): HTMLElement {
  const box = el('div', { class: 'tool-body' });
  const server = toolServer(e.name);
  box.append(el('div', { class: 'tool-label' }, `${showHidden(e.name)}${server ? ` (server ${server})` : ''}`), el('pre', { class: 'args' }, prettyArgs(e.args)));
  // A blocked call's result is only the hook's envelope: the status line says it in words.
  if (e.result !== undefined && !e.blocked) box.append(el('div', { class: 'tool-label' }, 'Result'), el('pre', { class: 'result' }, e.result));
  return box;
}

function subagentTag(s: NonNullable<ToolEntry['subagent']>): HTMLElement {
  const tag = el('div', { class: 'subagent-tag', 'data-testid': 'subagent-tag' }, `${showHidden(s.name)} (${s.id})`);
  if (s.model !== undefined) tag.append(' · ', el('span', { class: 'subagent-model', 'data-testid': 'subagent-model', title: `The model subagent ${showHidden(s.name)} ran on` }, showHidden(s.model)));
  return tag;
}

export function toolCard(e: ToolEntry, send: ToolSend): HTMLElement {
  const card = el('div', { class: `tool-card status-${e.status}${e.subagent ? ' subagent-call' : ''}`, 'data-testid': 'tool-card', 'data-status': e.status });
  // A subagent's call, nested under its delegate card: which agent made it and on which model (a custom agent's name and a listed model are outside text: text only).
  if (e.subagent) card.append(subagentTag(e.subagent));
  const details = el('details', { class: 'tool' });
  details.append(head(e), body(e));
  const actions = el('div', { class: 'tool-actions' });
  if (e.change) {
    if (e.change.undone) actions.append(el('span', { class: 'tag', 'data-testid': 'change-undone' }, 'undone'));
    actions.append(button({ label: `Open diff of ${e.change.path}`, testid: 'open-diff', icon: 'diff', iconOnly: true, onClick: () => send({ type: 'openDiff', entryId: e.id }) }));
  }
  if (e.terminal) actions.append(button({ label: 'Show the Sprout terminal this command runs in', testid: 'show-terminal', icon: 'terminal', iconOnly: true, onClick: () => send({ type: 'showTerminal', entryId: e.id }) }));
  card.append(details, actions);
  const progress = e.progress !== undefined && (e.status === 'running' || e.status === 'awaiting_approval') ? progressText(e.progress) : '';
  if (progress !== '') card.append(statusLine('progress', progress, 'tool-progress'));
  // Outside the collapsed details: who stopped the call, and why (hook output, as text), shows at once.
  if (e.blocked) card.append(statusLine('blocked', `Blocked by ${e.blocked.server}: ${e.blocked.text}`, 'tool-blocked'));
  if (e.status === 'awaiting_approval' && e.approvalId) {
    card.dataset['attention'] = `Approval needed: Sprout wants to ${toolTitle(e.name).toLowerCase()} ${toolSummary(e.args)}`.trim();
    card.append(approvalBlock(e, e.approvalId, send));
  }
  return card;
}
