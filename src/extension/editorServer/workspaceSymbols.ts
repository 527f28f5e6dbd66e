/**
 * Workspace symbols from VS Code's symbol providers, asked the same way by the `editor` server's
 * `workspace_symbols`, the `#symbol:` mention and its `#` menu completion. What VS Code's TypeScript
 * extension does (extensions/typescript-language-features/src/languageFeatures/workspaceSymbols.ts and
 * src/tsServer/server.ts in microsoft/vscode) decides the shape of this file:
 * - it labels functions and methods `name()`, so a symbol's name is compared without that suffix;
 * - it answers from tsserver's `navto` over the projects of the TS/JS files open in the editor only (none
 *   open: an empty answer), and while a project loads the request goes to the syntax server, which knows
 *   the open files alone: an answer without the wanted symbol may be early (seen here: empty for the
 *   first seconds after a file opened). So an answer that is not enough is asked once more when the
 *   servers are ready, and that answer is final: ready is when tsserver has answered a semantic request
 *   (semantic diagnostics, through the extension's `typescript.tsserverRequest` command) for each open
 *   TS/JS file, which it queues behind the loading of that file's project. Without such files or that
 *   extension, the first answer is final: the other providers answered what they know;
 * - a request waits in tsserver's queue behind the project's loading: each ask is bounded, and a search
 *   no provider answered says so. The bound is a hang guard: a known or unknown name is answered as
 *   soon as the servers have.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as vscode from 'vscode';

/** The languages of the files whose projects VS Code's TypeScript server searches. */
const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

export interface SymbolSearch {
  symbols: vscode.SymbolInformation[];
  /** No provider answered the last ask within the bound (the symbols are then empty). */
  unanswered: boolean;
}

/** A symbol's name without the `()` VS Code's TypeScript extension adds to functions and methods. */
export function symbolName(s: vscode.SymbolInformation): string {
  return s.name.replace(/\(\)$/, '');
}

/** A search query without that `()` either (tsserver's `navto` matches identifiers). */
export function symbolQuery(query: string): string {
  return query.trim().replace(/\(\)$/, '');
}

/** Resolves after `ms`, or at once when `signal` aborts (it never rejects); `cancel` stops the timer. */
function delay(ms: number, signal: AbortSignal): { done: Promise<void>; cancel: () => void } {
  const stop = new AbortController();
  const done = sleep(ms, undefined, { signal: AbortSignal.any([signal, stop.signal]) }).catch(() => undefined);
  return { done, cancel: () => stop.abort() };
}

/** One ask of every workspace symbol provider; undefined when none answered within `ms`. */
async function askOnce(query: string, ms: number, signal: AbortSignal): Promise<vscode.SymbolInformation[] | undefined> {
  const late = delay(ms, signal);
  try {
    const asked = Promise.resolve(vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)).then((found) => found ?? []);
    return await Promise.race([asked, late.done.then(() => undefined)]);
  } finally {
    late.cancel();
  }
}

/**
 * Resolves once VS Code's TypeScript server has loaded the projects of the open TS/JS files (it
 * answered a semantic request for each), at once when none is open; a failed request (no such
 * command: the extension is off) counts as answered; `ms` or `signal` ends the wait.
 */
async function serversReady(ms: number, signal: AbortSignal): Promise<void> {
  const files = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && TS_LANGUAGES.has(d.languageId)).map((d) => d.uri);
  if (files.length === 0) return;
  const ended = delay(ms, signal);
  try {
    // Just after a file opened the extension may still be activating (its command not registered yet).
    const activated = Promise.resolve(vscode.extensions.getExtension('vscode.typescript-language-features')?.activate()).catch(() => undefined);
    await Promise.race([activated, ended.done]);
    const asked = files.map((file) => Promise.resolve(vscode.commands.executeCommand('typescript.tsserverRequest', 'semanticDiagnosticsSync', { file })).catch(() => undefined));
    await Promise.race([Promise.all(asked), ended.done]);
  } finally {
    ended.cancel();
  }
}

/**
 * The workspace symbols for `query`. When the first answer is not `enough`, it is asked once more
 * when the servers are ready (see above) and that answer is returned; `boundMs` bounds the whole
 * search as a hang guard.
 */
export async function searchWorkspaceSymbols(query: string, options: { boundMs: number; enough: (found: vscode.SymbolInformation[]) => boolean; signal?: AbortSignal }): Promise<SymbolSearch> {
  const bound = AbortSignal.timeout(options.boundMs);
  const signal = options.signal ? AbortSignal.any([options.signal, bound]) : bound;
  const deadline = Date.now() + options.boundMs;
  const first = await askOnce(symbolQuery(query), options.boundMs, signal);
  if (first === undefined) return { symbols: [], unanswered: true };
  if (options.enough(first) || signal.aborted) return { symbols: first, unanswered: false };
  await serversReady(Math.max(0, deadline - Date.now()), signal);
  if (signal.aborted) return { symbols: first, unanswered: false };
  const second = await askOnce(symbolQuery(query), Math.max(0, deadline - Date.now()), signal);
  return { symbols: second ?? first, unanswered: false };
}

/** What to tell the user or the model when nothing matched. */
export const OPEN_FILE_HINT = "language servers such as VS Code's TypeScript server search only the projects of files open in the editor: open a file of the symbol's project and ask again";

/** What to say when no provider answered within the bound. */
export function unansweredText(query: string, boundMs: number): string {
  return `No language server answered the workspace symbol search for "${query}" within ${Math.round(boundMs / 1000)} s (it may still be loading the project): ask again in a moment.`;
}
