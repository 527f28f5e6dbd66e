/**
 * The editor's own MCP server, `editor`: what VS Code knows, as read-only tools (the Problems panel,
 * document and workspace symbols, definitions, usages), the language server's rename (`rename_symbol`,
 * a write: renameSymbol.ts), and the Problems completion check as hooks:
 * `_UserPromptSubmit` snapshots the diagnostics, `_PostToolUse` notes the paths tools named, its own
 * edits note every file they change (with those files' diagnostics from just before), and `_Stop` objects while files the turn changed have errors that were not there before (with the same
 * structured `failures` as the tests server, so the chat's rows open the file at the line). It is an
 * SDK McpServer on an in-memory transport pair inside the extension host, reached through the same hub,
 * allowlist and approvals as every server; its hooks run only when `sprout.hooks.servers` names it.
 */
import { InMemoryTransport, McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import type { McpServerConfig } from '../../mcp/config';
import { newErrors, type Problem } from '../../agent/newProblems';
import { ProblemsWatch, relativeFile } from './problemsWatch';
import { EDITOR_SERVER_NAME } from './editorServerName';
import { renameSymbol, type EditPort } from './renameSymbol';
import { OPEN_FILE_HINT, searchWorkspaceSymbols, symbolName, unansweredText } from './workspaceSymbols';

export { EDITOR_SERVER_NAME } from './editorServerName';
/** At most this many rows in one tool answer (the rest is counted in a note). */
const MAX_ROWS = 200;
/** At most this many new errors are listed in an objection. */
const MAX_OBJECTION_ROWS = 50;
/** How long `workspace_symbols` waits for the language servers. */
const SYMBOL_BOUND_MS = 15_000;

export interface EditorServerOptions {
  workspaceFolder: string;
  /** How long `_Stop` may wait for diagnostics to settle (inside the hook timeout). */
  settleBudgetMs: () => number;
  log?: (message: string) => void;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const failure = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }], isError: true });
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function sessionOf(meta: Record<string, unknown> | undefined): { session: string; fields: Record<string, unknown> } {
  const hook = meta?.['sprout/hook'];
  const fields = hook !== null && typeof hook === 'object' ? (hook as Record<string, unknown>) : {};
  return { session: typeof fields['sessionId'] === 'string' ? fields['sessionId'] : '', fields };
}

function capped(rows: string[], what: string): string {
  if (rows.length === 0) return `No ${what}.`;
  const shown = rows.slice(0, MAX_ROWS);
  return shown.join('\n') + (rows.length > MAX_ROWS ? `\n[${rows.length - MAX_ROWS} more ${what} not shown: narrow the request]` : '');
}

function problemRow(p: Problem): string {
  return `${p.file}:${p.line}:${p.column} ${p.severity}${p.source ? ` ${p.source}` : ''}${p.code ? `(${p.code})` : ''}: ${p.message}`;
}

export class EditorServer implements vscode.Disposable {
  readonly watch: ProblemsWatch;

  constructor(private readonly options: EditorServerOptions) {
    this.watch = new ProblemsWatch(options.workspaceFolder, options.log);
  }

  dispose(): void {
    this.watch.dispose();
  }

  /** The hub's configuration for this server: each connection gets a fresh SDK server on a linked pair. */
  config(): McpServerConfig {
    return {
      name: EDITOR_SERVER_NAME,
      transport: {
        type: 'inProcess',
        connect: async () => {
          const [client, server] = InMemoryTransport.createLinkedPair();
          await this.server().connect(server);
          return client;
        },
      },
    };
  }

  private uri(path: string): vscode.Uri {
    return vscode.Uri.file(isAbsolute(path) ? path : join(this.options.workspaceFolder, path));
  }

  private async lineText(uri: vscode.Uri, line: number): Promise<string> {
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      return line < doc.lineCount ? doc.lineAt(line).text.trim().slice(0, 300) : '';
    } catch {
      return '';
    }
  }

  private async locationRows(locations: readonly (vscode.Location | vscode.LocationLink)[]): Promise<string[]> {
    const rows: string[] = [];
    for (const loc of locations.slice(0, MAX_ROWS)) {
      const uri = 'targetUri' in loc ? loc.targetUri : loc.uri;
      const range = 'targetUri' in loc ? (loc.targetSelectionRange ?? loc.targetRange) : loc.range;
      rows.push(`${relativeFile(this.options.workspaceFolder, uri)}:${range.start.line + 1}:${range.start.character + 1}: ${await this.lineText(uri, range.start.line)}`);
    }
    return rows;
  }

  private position(args: { path: string; line: number; column: number }): { uri: vscode.Uri; position: vscode.Position } {
    return { uri: this.uri(args.path), position: new vscode.Position(Math.max(0, args.line - 1), Math.max(0, args.column - 1)) };
  }

  private server(): McpServer {
    const server = new McpServer({ name: 'sprout-editor', version: '0.1.0' });
    this.registerProblems(server);
    this.registerSymbols(server);
    this.registerRename(server);
    this.registerHooks(server);
    return server;
  }

  private registerProblems(server: McpServer): void {
    server.registerTool(
      'get_problems',
      {
        description: "The editor's Problems (VS Code diagnostics from the language servers and linters: ts, eslint, ...), as file:line:column severity source: message. Only files the editor has checked (open files, mostly) have problems.",
        inputSchema: z.object({ paths: z.array(z.string()).optional().describe('Only these files (relative to the workspace)'), severity: z.enum(['error', 'warning', 'info', 'hint']).optional().describe('This severity and worse') }),
        annotations: { title: 'Get problems', ...READ_ONLY },
      },
      (args) => {
        const rank = ['error', 'warning', 'info', 'hint'];
        const limit = rank.indexOf(args.severity ?? 'hint');
        const wanted = args.paths?.map((p) => relativeFile(this.options.workspaceFolder, this.uri(p)));
        const problems = this.watch.all().filter((p) => rank.indexOf(p.severity) <= limit && (wanted === undefined || wanted.includes(p.file)));
        return text(capped(problems.map(problemRow), 'problems'));
      },
    );
  }

  private registerSymbols(server: McpServer): void {
    const at = { path: z.string().describe('File path, relative to the workspace folder'), line: z.number().int().min(1).describe('1-based line'), column: z.number().int().min(1).describe('1-based column') };
    server.registerTool(
      'document_symbols',
      { description: "The symbols (classes, functions, ...) of one file from the editor's language server, as file:line kind name.", inputSchema: z.object({ path: at.path }), annotations: { title: 'Document symbols', ...READ_ONLY } },
      async (args) => {
        const uri = this.uri(args.path);
        const symbols = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', uri);
        if (symbols === undefined) return failure(`No symbol provider answered for ${args.path}: is it a file a language server knows (and does it exist)?`);
        const rows: string[] = [];
        const file = relativeFile(this.options.workspaceFolder, uri);
        const walk = (list: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[], depth: number): void => {
          for (const s of list) {
            const range = 'location' in s ? s.location.range : s.selectionRange;
            rows.push(`${file}:${range.start.line + 1} ${'  '.repeat(depth)}${vscode.SymbolKind[s.kind]} ${s.name}`);
            if ('children' in s) walk(s.children, depth + 1);
          }
        };
        walk(symbols, 0);
        return text(capped(rows, 'symbols'));
      },
    );
    server.registerTool(
      'workspace_symbols',
      { description: 'Symbols across the workspace whose names match a query (a name or part of one), from the language servers, as file:line kind name.', inputSchema: z.object({ query: z.string().min(1) }), annotations: { title: 'Workspace symbols', ...READ_ONLY } },
      async (args, ctx) => {
        const search = await searchWorkspaceSymbols(args.query, { boundMs: SYMBOL_BOUND_MS, enough: (found) => found.length > 0, signal: ctx.mcpReq.signal });
        if (search.unanswered) return failure(unansweredText(args.query, SYMBOL_BOUND_MS));
        if (search.symbols.length === 0) return text(`No symbols match "${args.query}" (${OPEN_FILE_HINT}).`);
        return text(capped(search.symbols.map((s) => `${relativeFile(this.options.workspaceFolder, s.location.uri)}:${s.location.range.start.line + 1} ${vscode.SymbolKind[s.kind]} ${symbolName(s)}${s.containerName ? ` (in ${s.containerName})` : ''}`), 'symbols'));
      },
    );
    server.registerTool(
      'go_to_definition',
      { description: 'Where the symbol at path:line:column is defined, as file:line:column with the line text.', inputSchema: z.object(at), annotations: { title: 'Go to definition', ...READ_ONLY } },
      async (args) => {
        const { uri, position } = this.position(args);
        const found = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>('vscode.executeDefinitionProvider', uri, position)) ?? [];
        return text(capped(await this.locationRows(found), 'definitions'));
      },
    );
    server.registerTool(
      'find_usages',
      { description: 'Every reference to the symbol at path:line:column (its definition included), as file:line:column with the line text.', inputSchema: z.object(at), annotations: { title: 'Find usages', ...READ_ONLY } },
      async (args) => {
        const { uri, position } = this.position(args);
        const found = (await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uri, position)) ?? [];
        return text(capped(await this.locationRows(found), 'usages') + (found.length > MAX_ROWS ? `\n[${found.length - MAX_ROWS} more usages not shown]` : ''));
      },
    );
  }

  private registerRename(server: McpServer): void {
    server.registerTool(
      'rename_symbol',
      {
        description: "Renames the symbol at path:line:column everywhere it is used, with the editor's language server (one workspace edit, saved; undoable from the chat). Prefer it to editing each usage by hand.",
        inputSchema: z.object({ path: z.string().describe('File path, relative to the workspace folder'), line: z.number().int().min(1).describe('1-based line'), column: z.number().int().min(1).describe('1-based column'), newName: z.string().describe('The new name') }),
        annotations: { title: 'Rename symbol', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      (args, ctx) => renameSymbol(this.options.workspaceFolder, args, this.edits(), ctx.mcpReq.signal),
    );
  }

  /** How this server's tools apply a workspace edit: through the Problems watch, which records every file it changes. */
  private edits(): EditPort {
    return {
      prepare: (uris, signal) => this.watch.beforeEdit(uris, this.options.settleBudgetMs(), signal),
      apply: (edit) => this.watch.apply(edit),
    };
  }

  private registerHooks(server: McpServer): void {
    const hook = { inputSchema: z.object({}), annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false } };
    server.registerTool('_UserPromptSubmit', { description: 'Lifecycle hook: remembers the Problems known when the prompt starts (answers nothing).', ...hook }, (_args, ctx) => {
      this.watch.snapshot(sessionOf(ctx.mcpReq._meta).session);
      return text('');
    });
    server.registerTool('_PostToolUse', { description: 'Lifecycle hook: notes the file a tool call named, as changed by the turn (answers nothing).', ...hook }, (_args, ctx) => {
      const { session, fields } = sessionOf(ctx.mcpReq._meta);
      const args = fields['arguments'];
      const path = args !== null && typeof args === 'object' ? (args as Record<string, unknown>)['path'] : undefined;
      if (typeof path === 'string' && path !== '' && fields['isError'] !== true) this.watch.touched(session, path);
      return text('');
    });
    server.registerTool(
      '_Stop',
      {
        description: 'Lifecycle hook: objects to ending the turn while files the turn changed have errors (Problems) that were not there when the prompt started.',
        ...hook,
        outputSchema: z.object({ failures: z.array(z.object({ name: z.string(), file: z.string(), line: z.number(), message: z.string() })), settled: z.boolean() }),
      },
      (_args, ctx) => this.stop(sessionOf(ctx.mcpReq._meta).session, ctx.mcpReq.signal),
    );
  }

  /** `_Stop`: the new errors of the changed files, once their diagnostics settled (or the budget ran out). */
  private async stop(session: string, signal: AbortSignal): Promise<CallToolResult> {
        const turn = this.watch.turn(session);
        if (turn === undefined || turn.changed.size === 0) return { content: [{ type: 'text', text: '' }], structuredContent: { failures: [], settled: true } };
        const changed = this.watch.toSettle(turn);
        const settle = await this.watch.settle(changed, this.options.settleBudgetMs(), signal);
        if (!settle.settled) this.options.log?.(`editor _Stop: the diagnostics of ${changed.length} changed file(s) did not settle within ${settle.waitedMs} ms; judged on what the language servers reported so far.`);
        const found = newErrors(turn.problems, this.watch.all(), turn.changed);
        const failures = found.slice(0, MAX_OBJECTION_ROWS).map((p) => ({ name: `${p.source ?? 'error'}${p.code ? `(${p.code})` : ''}`, file: p.file, line: p.line, message: p.message }));
        if (found.length === 0) return { content: [{ type: 'text', text: '' }], structuredContent: { failures: [], settled: settle.settled } };
        const rows = found.slice(0, MAX_OBJECTION_ROWS).map(problemRow);
        const more = found.length > rows.length ? `\n[${found.length - rows.length} more new errors not shown]` : '';
        const unsettled = settle.settled ? '' : '\n(The language servers had not finished checking every changed file; this is what they reported so far.)';
        return {
          content: [{ type: 'text', text: `The files you changed have ${found.length} new error(s) in the editor's Problems, which were not there before this prompt. Fix them before you finish:\n${rows.join('\n')}${more}${unsettled}` }],
          structuredContent: { failures, settled: settle.settled },
        };
  }
}
