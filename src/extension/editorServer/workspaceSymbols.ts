/**
 * Workspace symbols from VS Code's symbol providers, asked the same way by the `editor` server's
 * `workspace_symbols`, the `#symbol:` mention and its `#` menu completion. What VS Code's TypeScript
 * extension does (extensions/typescript-language-features/src/languageFeatures/workspaceSymbols.ts and
 * src/tsServer/server.ts in microsoft/vscode) decides the shape of this file:
 * - it labels functions and methods `name()`, so a symbol's name is compared without that suffix;
 * - it answers from tsserver's `navto` over the projects of the TS/JS files open in the editor only (none
 *   open: an empty answer), and while a project loads the request goes to the syntax server, which knows
 *   the open files alone: an answer without the wanted symbol may be early (seen here: empty for the
 *   first seconds after a file opened). So an empty answer is asked again every few seconds and at each
 *   change of diagnostics (the semantic server reports them once the project is loaded), a partial one
 *   at each change of diagnostics only, until the answer is enough or the bound ends;
 * - a request waits in tsserver's queue behind the project's loading: each ask is bounded, and a search
 *   no provider answered says so.
 */
import * as vscode from 'vscode';

/** How long the servers may stay quiet (no diagnostics change) before a partial answer is taken as final, or an empty one asked again. */
const QUIET_MS = 3_000;

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

/** Resolves after `ms`, or at once when `signal` aborts; `cancel` stops the timer. */
function delay(ms: number, signal: AbortSignal): { done: Promise<void>; cancel: () => void } {
  let cancel = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const onAbort = (): void => resolve();
    if (signal.aborted) resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    cancel = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
  });
  return { done, cancel };
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

/** Resolves true at the next change of diagnostics, false after `quietMs` without one (or on abort). */
async function nextDiagnosticsChange(quietMs: number, signal: AbortSignal): Promise<boolean> {
  const quiet = delay(quietMs, signal);
  let changed = false;
  const listener = vscode.languages.onDidChangeDiagnostics(() => {
    changed = true;
    quiet.cancel();
  });
  try {
    await quiet.done;
    return changed;
  } finally {
    listener.dispose();
  }
}

/**
 * The workspace symbols for `query`. When the answer is not `enough`, it is asked again (see above)
 * until it is, or `boundMs` (which also bounds each ask) has passed; the last answer is returned.
 */
export async function searchWorkspaceSymbols(query: string, options: { boundMs: number; enough: (found: vscode.SymbolInformation[]) => boolean; signal?: AbortSignal }): Promise<SymbolSearch> {
  const bound = AbortSignal.timeout(options.boundMs);
  const signal = options.signal ? AbortSignal.any([options.signal, bound]) : bound;
  const deadline = Date.now() + options.boundMs;
  let last: vscode.SymbolInformation[] | undefined;
  for (;;) {
    const found = await askOnce(symbolQuery(query), Math.max(0, deadline - Date.now()), signal);
    if (found === undefined) return last ? { symbols: last, unanswered: false } : { symbols: [], unanswered: true };
    last = found;
    if (options.enough(found) || signal.aborted) return { symbols: found, unanswered: false };
    // An empty answer is asked again at each change or tick (a loading project reports no diagnostics
    // until it is loaded); a partial one only while the servers are at work.
    const changed = await nextDiagnosticsChange(Math.min(QUIET_MS, Math.max(0, deadline - Date.now())), signal);
    if ((!changed && found.length > 0) || signal.aborted) return { symbols: found, unanswered: false };
  }
}

/** What to tell the user or the model when nothing matched. */
export const OPEN_FILE_HINT = "language servers such as VS Code's TypeScript server search only the projects of files open in the editor: open a file of the symbol's project and ask again";

/** What to say when no provider answered within the bound. */
export function unansweredText(query: string, boundMs: number): string {
  return `No language server answered the workspace symbol search for "${query}" within ${Math.round(boundMs / 1000)} s (it may still be loading the project): ask again in a moment.`;
}
