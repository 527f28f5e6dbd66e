/**
 * Reads what a prompt's `#` mentions name (src/agent/contextMentions.ts decides which and words them):
 * the Problems of the workspace, the working tree's changes through VS Code's built-in git extension,
 * a folder's files, the active terminal's last command (shell integration), a workspace symbol's
 * code, a server's resource. Each is read when the prompt is sent; what cannot be read says why.
 */
import * as vscode from 'vscode';
import type { PromptAttachment } from '../../agent/promptAttachments';
import { capText, changesText, folderText, mentionLabel, parseMentions, problemsText, MAX_FOLDER_ENTRIES, type Mention, type Problem } from '../../agent/contextMentions';
import { contentsText, type ResourceHost } from '../../agent/resources';
import { errorMessage } from '../../agent/errorMessage';
import { gitChanges } from './gitChanges';
import { lastTerminalCommand } from './terminalCommands';
import { OPEN_FILE_HINT, searchWorkspaceSymbols, symbolName, symbolQuery, unansweredText } from '../editorServer/workspaceSymbols';

const SEVERITY: Record<vscode.DiagnosticSeverity, Problem['severity']> = { 0: 'error', 1: 'warning', 2: 'info', 3: 'hint' };

function workspaceFolder(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** Every diagnostic of a file inside the workspace folder. */
export function workspaceProblems(): Problem[] {
  const folder = workspaceFolder();
  return vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) => {
    if (uri.scheme !== 'file' || (folder !== undefined && !uri.path.startsWith(`${folder.path}/`))) return [];
    const file = vscode.workspace.asRelativePath(uri, false);
    return diagnostics.map((d) => ({ file, line: d.range.start.line + 1, severity: SEVERITY[d.severity], ...(d.source ? { source: d.source } : {}), message: d.message }));
  });
}

async function folderListing(path: string): Promise<string> {
  const folder = workspaceFolder();
  if (folder === undefined) return '(not attached: no workspace folder is open)';
  const uri = path === '.' ? folder : vscode.Uri.joinPath(folder, path);
  if (uri.path !== folder.path && !uri.path.startsWith(`${folder.path}/`)) return '(not attached: outside the workspace folder)';
  try {
    if ((await vscode.workspace.fs.stat(uri)).type !== vscode.FileType.Directory) return `(not attached: ${path} is not a folder)`;
  } catch {
    return `(not attached: no folder ${path} in the workspace)`;
  }
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(uri, '**/*'), '**/{node_modules,.git}/**', MAX_FOLDER_ENTRIES + 1);
  return folderText(path, found.map((u) => vscode.workspace.asRelativePath(u, false)), found.length > MAX_FOLDER_ENTRIES);
}

/** How long a `#symbol:` mention waits for the language servers. */
const SYMBOL_BOUND_MS = 20_000;

/** The workspace symbol named exactly `name` (the first of several, the others said), with its code. */
async function symbolText(mentioned: string): Promise<string> {
  const name = symbolQuery(mentioned);
  const search = await searchWorkspaceSymbols(name, { boundMs: SYMBOL_BOUND_MS, enough: (found) => found.some((s) => symbolName(s) === name) });
  if (search.unanswered) return `(not attached: ${unansweredText(name, SYMBOL_BOUND_MS)})`;
  const exact = search.symbols.filter((s) => symbolName(s) === name);
  const best = exact[0];
  if (best === undefined) {
    const close = [...new Set(search.symbols.map(symbolName))].slice(0, 10);
    return `(not attached: no workspace symbol is named ${name}${close.length > 0 ? `; close names: ${close.join(', ')}` : `; ${OPEN_FILE_HINT}`})`;
  }
  const doc = await vscode.workspace.openTextDocument(best.location.uri);
  const range = best.location.range;
  const where = (s: vscode.SymbolInformation): string => `${vscode.workspace.asRelativePath(s.location.uri, false)}:${s.location.range.start.line + 1}`;
  const code = doc.getText(new vscode.Range(range.start.line, 0, range.end.line, Number.MAX_SAFE_INTEGER));
  const others = exact.length > 1 ? `\n(${exact.length - 1} more named ${name}: ${exact.slice(1, 6).map(where).join(', ')})` : '';
  return `${vscode.SymbolKind[best.kind]} ${name} at ${where(best)}-${range.end.line + 1}:\n${capText(code)}${others}`;
}

async function resourceText(resources: ResourceHost | undefined, server: string, uri: string): Promise<string> {
  if (resources === undefined) return '(not attached: no MCP servers are started)';
  return capText(contentsText(server, uri, await resources.read(server, uri, AbortSignal.timeout(60_000))));
}

async function readMention(m: Mention, resources: ResourceHost | undefined): Promise<string> {
  switch (m.kind) {
    case 'problems':
      return problemsText(workspaceProblems());
    case 'changes':
      return changesText(await gitChanges(workspaceFolder()));
    case 'folder':
      return folderListing(m.path);
    case 'terminalLastCommand':
      return lastTerminalCommand();
    case 'symbol':
      return symbolText(m.name);
    case 'resource':
      return resourceText(resources, m.server, m.uri);
  }
}

/** The prompt's `#` mentions (not `#file:`), each read into an attachment; a failure is said in its place. */
export async function readMentions(prompt: string, resources: ResourceHost | undefined): Promise<PromptAttachment[]> {
  return Promise.all(
    parseMentions(prompt).map(async (m) => {
      try {
        return { label: mentionLabel(m), content: await readMention(m, resources) };
      } catch (error) {
        return { label: mentionLabel(m), content: `(could not be read: ${errorMessage(error)})` };
      }
    }),
  );
}
