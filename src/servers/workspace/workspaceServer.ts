/**
 * The `workspace` MCP server: read, list, search, write, edit files and run commands, all confined to
 * the workspace root. Read tools carry `readOnlyHint`, changing tools `destructiveHint`, so a host can
 * ask for confirmation on the latter. Writes to protected paths (`.git/**`, `.vscode/**`, ...) are
 * refused unless the request's `_meta` approves that exact path or the server runs with
 * `allowProtectedWrites` (writeGuard.ts).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { guarded, textResult, errorResult } from '../common/toolResults';
import { protectedRule } from '../common/protectedPaths';
import { realRoot } from '../common/safePath';
import { readWorkspaceFile, READ_MAX_BYTES } from './readFile';
import { listWorkspaceFiles, LIST_DEFAULT_MAX } from './listFiles';
import { searchWorkspaceText, SEARCH_DEFAULT_MAX } from './searchText';
import { editWorkspaceFile, writeWorkspaceFile } from './editFile';
import { runWorkspaceCommand, runCommandInput } from './runCommand';
import { writeGuard, type WriteGuard } from './writeGuard';

export interface WorkspaceServerOptions {
  root: string;
  stateDir: string;
  /** Patterns protected on top of the defaults (the host's setting). */
  protectedPaths?: readonly string[];
  /** Write protected paths without a per-call approval in `_meta` (the CLI's --allow-protected-writes). */
  allowProtectedWrites?: boolean;
}

const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
const changing = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
const pathArg = z.string().min(1).describe('Path relative to the workspace root (or absolute inside it)');

function registerReadTools(server: McpServer, rootReal: string): void {
  server.registerTool(
    'read_file',
    {
      description: `Read a text file of the workspace, optionally a line range (1-based, inclusive). At most ${READ_MAX_BYTES} bytes per call.`,
      inputSchema: z.object({
        path: pathArg,
        startLine: z.number().int().min(1).optional(),
        endLine: z.number().int().min(1).optional(),
        maxBytes: z.number().int().min(1).max(READ_MAX_BYTES).optional(),
      }),
      annotations: { title: 'Read file', ...readOnly },
    },
    (input) => guarded(() => textResult(readWorkspaceFile(rootReal, input))),
  );
  server.registerTool(
    'list_files',
    {
      description:
        'List workspace files matching a glob (`**`, `*`, `?`, `{a,b}`; a pattern without "/" matches file names at any depth). Honours .gitignore; skips .git and node_modules.',
      inputSchema: z.object({
        pattern: z.string().optional().describe('Glob, default "**" (everything)'),
        path: z.string().optional().describe('Directory to list, default the root'),
        maxResults: z.number().int().min(1).max(10_000).optional().describe(`Default ${LIST_DEFAULT_MAX}`),
      }),
      annotations: { title: 'List files', ...readOnly },
    },
    (input) => guarded(async () => textResult(await listWorkspaceFiles(rootReal, input))),
  );
  server.registerTool(
    'search_text',
    {
      description:
        'Search workspace text files with a regular expression (JavaScript syntax, matched in linear time: no look-around or back-references). Returns "path:line: text". Honours .gitignore.',
      inputSchema: z.object({
        pattern: z.string().min(1).describe('Regular expression'),
        path: z.string().optional().describe('File or directory to search, default the root'),
        include: z.string().optional().describe('Glob of files to search, e.g. "*.ts"'),
        caseSensitive: z.boolean().optional().describe('Default true'),
        maxResults: z.number().int().min(1).max(5000).optional().describe(`Default ${SEARCH_DEFAULT_MAX}`),
      }),
      annotations: { title: 'Search text', ...readOnly },
    },
    (input) => guarded(async () => textResult(await searchWorkspaceText(rootReal, input))),
  );
}

function registerChangingTools(server: McpServer, rootReal: string, stateDir: string, guard: WriteGuard): void {
  server.registerTool(
    'write_file',
    {
      description: 'Create or overwrite a workspace file with the given content (parent folders are created).',
      inputSchema: z.object({ path: pathArg, content: z.string() }),
      annotations: { title: 'Write file', ...changing },
    },
    (input, ctx) => guarded(() => textResult(writeWorkspaceFile(rootReal, input.path, input.content, guard, ctx.mcpReq._meta))),
  );
  server.registerTool(
    'edit_file',
    {
      description:
        'Replace an exact string in a workspace file. Fails if oldString is missing, or occurs more than once unless replaceAll is set.',
      inputSchema: z.object({ path: pathArg, oldString: z.string(), newString: z.string(), replaceAll: z.boolean().optional() }),
      annotations: { title: 'Edit file', ...changing },
    },
    (input, ctx) => guarded(() => textResult(editWorkspaceFile(rootReal, input, guard, ctx.mcpReq._meta))),
  );
  server.registerTool(
    'run_command',
    {
      description:
        'Run a shell command in the workspace. Returns the exit code and the tail of the output; the full output is saved to a file named in the result.',
      inputSchema: runCommandInput,
      annotations: { title: 'Run command', ...changing, openWorldHint: true },
    },
    (input) =>
      guarded(async () => {
        const { text, failed } = await runWorkspaceCommand(rootReal, stateDir, input);
        return failed ? errorResult(text) : textResult(text);
      }),
  );
}

/** A factory of server instances (one per connection and protocol era) over one confined root. */
export function createWorkspaceServer(options: WorkspaceServerOptions): () => McpServer {
  const rootReal = realRoot(options.root);
  const guard = writeGuard({ rootReal, rule: protectedRule(options.protectedPaths), allowAll: options.allowProtectedWrites === true });
  return () => {
    const server = new McpServer({ name: 'sprout-workspace', version: '0.1.0' });
    registerReadTools(server, rootReal);
    registerChangingTools(server, rootReal, options.stateDir, guard);
    return server;
  };
}
