/**
 * The native "Hooks" tree: the current chat's `_Stop` budget, each MCP server (a short row: health and
 * what it checks; allowlisting, calls and p50/p95 latency in its tooltip) with a row per hook it exposes
 * (its calls and p50/p95), and the timeline of objections. It renders HooksViewState and refreshes
 * whenever that state changes, so it moves live during a run. Selecting an objection opens its
 * full text, and an objection that carries failing tests lists them (each opens its file at the line)
 * with a way to the Testing view; a server with hooks that is not allowlisted offers a one-click fix.
 */
import * as vscode from 'vscode';
import type { HookFailure } from '../../agent/hookEvidence';
import { budgetText } from '../../shared/budgetText';
import { failuresAreTests } from '../../shared/editorServerName';
import { OBJECTION_OUTCOME_TEXT, hookLabel } from '../../shared/hookText';
import { hooksSummary } from './hooksSummary';
import { healthText, hookRows, percentile, type CallStats, type HooksViewState, type ObjectionView, type ServerView } from './hooksViewState';
import { quotedName } from '../../agent/nameText';

export type HookNode =
  | { kind: 'budget' }
  | { kind: 'servers' }
  | { kind: 'files' }
  | { kind: 'server'; server: ServerView }
  | { kind: 'hook'; server: ServerView; hook: string; stats: CallStats }
  | { kind: 'timeline' }
  | { kind: 'objection'; objection: ObjectionView; index: number }
  | { kind: 'failure'; failure: HookFailure }
  | { kind: 'showInTesting' }
  | { kind: 'notice'; text: string };

export class HooksTreeProvider implements vscode.TreeDataProvider<HookNode> {
  private readonly emitter = new vscode.EventEmitter<HookNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly hooks: HooksViewState) {
    hooks.onDidChange(() => this.emitter.fire(undefined));
  }

  getChildren(node?: HookNode): HookNode[] {
    if (!node) {
      const files: HookNode[] = this.fileServers().length > 0 ? [{ kind: 'files' }] : [];
      return [{ kind: 'budget' }, { kind: 'servers' }, ...files, { kind: 'timeline' }, ...this.hooks.notices.map((text): HookNode => ({ kind: 'notice', text }))];
    }
    if (node.kind === 'servers') return [...this.hooks.servers.values()].filter((s) => s.file === undefined).map((server): HookNode => ({ kind: 'server', server }));
    if (node.kind === 'files') return this.fileServers().map((server): HookNode => ({ kind: 'server', server }));
    if (node.kind === 'server') return hookRows(node.server).map(({ hook, stats }): HookNode => ({ kind: 'hook', server: node.server, hook, stats }));
    if (node.kind === 'timeline') return this.hooks.objections.map((objection, index): HookNode => ({ kind: 'objection', objection, index })).reverse();
    if (node.kind === 'objection' && node.objection.failures?.length) {
      const rows = node.objection.failures.map((failure): HookNode => ({ kind: 'failure', failure }));
      return failuresAreTests(node.objection.server) ? [...rows, { kind: 'showInTesting' }] : rows;
    }
    return [];
  }

  getTreeItem(node: HookNode): vscode.TreeItem {
    switch (node.kind) {
      case 'budget':
        return this.budgetItem();
      case 'servers': {
        const started = this.hooks.serversStarted;
        const item = new vscode.TreeItem('MCP servers', started ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
        // Two ids: VS Code keeps an item's collapsed state by id, and the not-started node has no children.
        item.id = started ? 'servers' : 'servers:not-started';
        item.description = started ? `${this.hooks.servers.size}` : 'not started yet';
        if (!started) {
          item.tooltip = 'Servers start with the first prompt (workspace-defined ones after your consent). Click to start them now and see their hooks.';
          item.command = { command: 'sprout.restartMcpServers', title: 'Start MCP Servers' };
          item.iconPath = new vscode.ThemeIcon('debug-start');
        }
        return item;
      }
      case 'files': {
        const item = new vscode.TreeItem('Other agents\' hook files', vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'files';
        item.description = `${this.fileServers().length}`;
        item.tooltip = 'Command hooks configured for other agents (sprout.agentHooks.formats), run as Sprout hooks: your own files as they are, a workspace\'s files after your consent.';
        return item;
      }
      case 'server':
        return node.server.file === undefined ? serverItem(node.server) : fileItem(node.server, node.server.file);
      case 'hook':
        return hookItem(node.server, node.hook, node.stats);
      case 'timeline': {
        const item = new vscode.TreeItem('Objections', vscode.TreeItemCollapsibleState.Expanded);
        item.description = this.hooks.objections.length === 0 ? 'none yet' : `${this.hooks.objections.length}`;
        return item;
      }
      case 'objection':
        return objectionItem(node.objection);
      case 'failure':
        return failureItem(node.failure);
      case 'showInTesting': {
        const item = new vscode.TreeItem('Show in Testing');
        item.iconPath = new vscode.ThemeIcon('beaker');
        item.command = { command: 'sprout.showTestResults', title: 'Show in Testing' };
        return item;
      }
      case 'notice': {
        const item = new vscode.TreeItem(node.text);
        item.iconPath = new vscode.ThemeIcon('warning');
        item.tooltip = node.text;
        return item;
      }
    }
  }

  private fileServers(): ServerView[] {
    return [...this.hooks.servers.values()].filter((s) => s.file !== undefined);
  }

  private budgetItem(): vscode.TreeItem {
    // No server checks completion: there is no budget to count, and the row says why (as the chat's header does).
    const summary = hooksSummary(this.hooks);
    if (summary.state === 'off') {
      const item = new vscode.TreeItem(summary.text);
      item.id = 'budget';
      item.tooltip = summary.tooltip;
      item.iconPath = new vscode.ThemeIcon('circle-slash');
      return item;
    }
    const budget = budgetText(this.hooks.budget);
    const item = new vscode.TreeItem(budget.label);
    item.id = 'budget';
    if (this.hooks.budget) {
      item.description = budget.detail;
      item.tooltip = budget.tooltip;
    }
    item.iconPath = new vscode.ThemeIcon(budget.spent ? 'error' : 'shield');
    return item;
  }
}

/** `p50 N ms, p95 M ms`, or nothing before the first call. */
function latencyText(latencies: readonly number[]): string {
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  return p50 === undefined ? '' : `p50 ${Math.round(p50)} ms, p95 ${Math.round(p95 ?? p50)} ms`;
}

/** `3 calls, p50 4 ms, p95 9 ms` */
function callsText(stats: CallStats): string {
  const latency = latencyText(stats.latencies);
  return `${stats.calls} ${stats.calls === 1 ? 'call' : 'calls'}${latency ? `, ${latency}` : ''}`;
}

/** Its hooks' rows show under an allowlisted server; a server whose hooks are off keeps them folded. */
function serverState(server: ServerView): vscode.TreeItemCollapsibleState {
  if (hookRows(server).length === 0) return vscode.TreeItemCollapsibleState.None;
  return server.allowlisted ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
}

function serverItem(server: ServerView): vscode.TreeItem {
  const item = new vscode.TreeItem(server.name, serverState(server));
  item.id = `server:${server.name}`;
  const health = healthText(server);
  // Short, so the row is not cut mid-word in a side bar: what it checks and whether it is well; each
  // hook has a row of its own below (so many hooks read as a count here), the rest is in the tooltip.
  const checks = server.hooks.length > 2 ? `${server.hooks.length} hooks` : server.hooks.map(hookLabel).join(', ');
  item.description = server.hooks.length === 0 ? `${health} · tools only` : server.allowlisted ? `${health} · ${checks}` : `${health} · hooks off`;
  item.tooltip = [
    server.detail,
    `Health: ${health}`,
    server.protocol !== undefined ? `Speaks ${server.protocol}` : undefined,
    server.hooks.length > 0 ? `Hooks: ${server.hooks.map((h) => `${hookLabel(h)} (${h})`).join(', ')}, ${server.allowlisted ? 'on (in sprout.hooks.servers)' : 'off (not in sprout.hooks.servers)'}` : 'No hooks',
    callsText(server),
  ]
    .filter(Boolean)
    .join('\n');
  item.iconPath = new vscode.ThemeIcon(server.health === 'ok' ? 'pass' : server.health === 'killed' || server.health === 'error' ? 'error' : 'circle-outline');
  item.contextValue = server.hooks.length > 0 && !server.allowlisted ? 'serverHooksDisabled' : 'server';
  if (item.contextValue === 'serverHooksDisabled') {
    item.description = `${health} · hooks off, click to turn on`;
    item.command = { command: 'sprout.configureHookServers', title: 'Enable hooks', arguments: [server.name] };
  }
  return item;
}

/** Another agent's hook file: named by its path, its hooks below as a server's are. */
function fileItem(server: ServerView, file: string): vscode.TreeItem {
  const item = new vscode.TreeItem(file, serverState(server));
  item.id = `file:${server.name}`;
  const health = healthText(server);
  item.description = `${health} · ${server.hooks.length > 2 ? `${server.hooks.length} hooks` : server.hooks.map(hookLabel).join(', ')}`;
  item.tooltip = [server.detail, `Runs as hook server ${quotedName(server.name)} (you allowed it, or it is your own file)`, `Health: ${health}`, `Hooks: ${server.hooks.map((h) => `${hookLabel(h)} (${h})`).join(', ')}`, callsText(server)].filter(Boolean).join('\n');
  item.iconPath = new vscode.ThemeIcon(server.health === 'killed' || server.health === 'error' ? 'error' : 'file-code');
  item.contextValue = 'hookFile';
  return item;
}

/** One hook of a server: its name in plain words, its calls and p50/p95 (the raw name in the tooltip). */
function hookItem(server: ServerView, hook: string, stats: CallStats): vscode.TreeItem {
  const item = new vscode.TreeItem(hookLabel(hook));
  item.id = `hook:${server.name}:${hook}`;
  item.description = callsText(stats);
  item.tooltip = `${hookLabel(hook)} (${hook}) of ${server.name}: ${callsText(stats)}${server.allowlisted ? '' : '. Not called: the server is not in sprout.hooks.servers.'}`;
  item.iconPath = new vscode.ThemeIcon('symbol-event');
  return item;
}

function objectionItem(o: ObjectionView): vscode.TreeItem {
  const first = o.text.split('\n', 1)[0] ?? '';
  const item = new vscode.TreeItem(`${o.server}: ${first}`);
  item.description = o.outcome === 'pending' ? 'open' : o.outcome === 'complied' ? 'acted on' : o.outcome;
  item.tooltip = `${new Date(o.at).toLocaleTimeString()}: ${o.server} objected (completion check). ${OBJECTION_OUTCOME_TEXT[o.outcome]}.\n\n${o.text}`;
  item.iconPath = new vscode.ThemeIcon(o.outcome === 'complied' ? 'check' : o.outcome === 'pending' ? 'loading~spin' : 'circle-slash');
  item.command = { command: 'sprout.showObjection', title: 'Show objection', arguments: [o.server, o.text] };
  if (o.failures?.length) {
    item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
    item.description = `${item.description} · ${o.failures.length} failing`;
  }
  return item;
}

function failureItem(f: HookFailure): vscode.TreeItem {
  const where = f.file ? `${f.file}${f.line !== undefined ? `:${f.line}` : ''}` : '';
  const item = new vscode.TreeItem(f.name);
  item.description = where;
  item.tooltip = [where, f.message].filter(Boolean).join('\n');
  item.iconPath = new vscode.ThemeIcon('testing-failed-icon');
  if (f.file) item.command = { command: 'sprout.openTestFailure', title: 'Open', arguments: [f.file, f.line] };
  return item;
}
