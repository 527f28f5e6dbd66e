/**
 * Configuration of the FakeHookServer (test/fakes/hookServer.ts) and typed builders for tests: which
 * tools it exposes, how each hook behaves, where it logs. The server reads this as JSON from the
 * HOOK_SERVER_CONFIG env var (or `--config <file>`), so a test describes a hostile server in one value.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { McpServerConfig } from '../../../src/mcp/config';

export type HookBehaviour =
  /** Object with `text` the first `times` calls (counted in the state file, so across restarts), then empty. Omit `times` to always object. `{n}` in text is the 1-based objection count. */
  | { kind: 'object'; text: string; times?: number }
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  /** Wait, then answer `text` (default empty). */
  | { kind: 'delay'; ms: number; text?: string }
  | { kind: 'hang' }
  /** Exit the process when called (after writing `stderr`, a line, when given). */
  | { kind: 'crash'; exitCode?: number; stderr?: string }
  /** Answer `text` as content and `structured` as structuredContent (an error result with `isError`). */
  | { kind: 'structured'; text: string; structured: Record<string, unknown>; isError?: boolean }
  /** Write half a JSON-RPC line to stdout, then exit. */
  | { kind: 'exitMidCall'; exitCode?: number }
  | { kind: 'isError'; text?: string }
  | { kind: 'whitespace' }
  /** Write these raw lines to stdout (logs a server should have sent to stderr), then answer `text`. */
  | { kind: 'printThen'; lines: string[]; text: string }
  | { kind: 'image'; mimeType?: string; bytes?: number }
  /** A text block of `bytes` (default 100 KB). */
  | { kind: 'bigText'; bytes?: number }
  /** Quotes, newlines, `</hook_output>`, fake role headers. */
  | { kind: 'hostile' }
  /** Start a grandchild in the server's process group (pid written to `pidFile`), then hang (default) or answer empty. */
  | { kind: 'spawnGrandchild'; pidFile: string; then?: 'hang' | 'empty' }
  /** Start a grandchild that calls setsid (leaves the group), optionally orphaned at once or with an empty environment; answer empty. */
  | { kind: 'spawnEscapee'; pidFile: string; orphan?: boolean; clearEnv?: boolean }
  /** Answer the server's environment as JSON (to prove what reached it). */
  | { kind: 'env' }
  /** One line of `bytes` on stdout with no line break (no message at all), then hang. */
  | { kind: 'floodLine'; bytes: number }
  /** Flood: `bytes` of junk to stderr and non-JSON-RPC lines to stdout, then answer `text` (default empty) or hang. */
  | { kind: 'flood'; bytes?: number; text?: string; then?: 'answer' | 'hang' }
  /** Ask the client a yes/no question (`input_required`, or on a 2025-era connection the SDK's elicitation request), then answer with what came back. */
  | { kind: 'askInput'; message: string }
  /**
   * A test runner's `_Stop`, as the bundled `tests` server answers: the first `times` calls (every call
   * when omitted) object with the failures as text and as `structuredContent` (status `failed`), then it
   * answers empty with status `passed`. Counted in the state file like `object`.
   */
  | { kind: 'testVerdict'; failures: Array<{ name: string; file?: string; line?: number; message: string }>; passed?: number; times?: number }
  /** Behave as `then` when `_meta["sprout/hook"][key]` equals `value` (JSON equality), else as `else` (default: empty). */
  | { kind: 'ifMeta'; key: string; value: unknown; then: HookBehaviour; else?: HookBehaviour };

export interface FakeToolSpec {
  name: string;
  description?: string;
  annotations?: Record<string, unknown>;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  behaviour?: HookBehaviour;
}

export interface HookServerConfig {
  /** Raw lines written to stdout before serving (a banner or log lines meant for stderr). */
  stdoutLines?: string[];
  /** The server's self-reported name (serverInfo). */
  serverName?: string;
  /** Which protocol eras it serves: both (default), only 2026-07-28 (`initialize` refused), only the 2025 `initialize` one. */
  era?: 'dual' | 'modern' | 'legacy';
  /**
   * Exit at once on a `server/discover`, as legacy servers that refuse anything before `initialize`
   * do: with this code, after writing `stderr` (a line; none when omitted: it exits silently).
   */
  exitOnDiscover?: { code: number; stderr?: string };
  /** JSON lines: every request's method, every call (tool, arguments, _meta), every cancellation received, each start. */
  logFile?: string;
  /** Counters that survive a kill and restart (objections given per tool). */
  stateFile?: string;
  /** Expose the visible `echo` tool (default true). */
  echo?: boolean;
  /** Hook tools by bare name (`_Stop`, `_PreToolUse`, ..., or any `_X`) and their behaviour. */
  hooks?: Record<string, HookBehaviour>;
  extraTools?: FakeToolSpec[];
  /** Listed as given, to prove bad names are reported, not dropped silently. */
  invalidToolNames?: string[];
  /** Adds visible tools `tool_0 .. tool_<n-1>`. */
  manyTools?: number;
  /** tools/list page size (default: everything in one page). */
  pageSize?: number;
  /** The last tools/list page still names a `nextCursor`, the one it was asked with (a cursor that never advances). */
  repeatCursor?: boolean;
  /** On every start but the first (counted in the state file), wait this long before answering initialize. */
  restartDelayMs?: number;
  /** On every start, wait this long before answering initialize (a server silent at start-up). */
  startDelayMs?: number;
  /** On every start, answer initialize only once this file exists (a server silent at start-up until the test lets it go). */
  startWhenExists?: string;
  /** Answer tools/list only after this long (a server that answers initialize, then goes quiet). */
  listToolsDelayMs?: number;
  /** Keep running on SIGTERM (only SIGKILL stops it). */
  ignoreSigterm?: boolean;
  /** After each tools/call, add a tool `added_<n>` and send notifications/tools/list_changed. */
  listChangedAfterCall?: boolean;
}

/** Builds a config with the defaults tests usually want; override anything. */
export function hookServerConfig(overrides: HookServerConfig = {}): HookServerConfig {
  return { echo: true, ...overrides };
}

export const objectTimes = (text: string, times?: number): HookBehaviour =>
  times === undefined ? { kind: 'object', text } : { kind: 'object', text, times };

export const HOOK_SERVER_ENV = 'HOOK_SERVER_CONFIG';
export const HOOK_SERVER_ENTRY = join(__dirname, '..', 'hookServer.ts');

/** The McpServerConfig that launches the fake as a real child process under node + tsx. */
export function hookServerMcpConfig(
  name: string,
  config: HookServerConfig,
  extra: { env?: Record<string, string>; cwd?: string } = {},
): McpServerConfig {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return {
    name,
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', tsx, HOOK_SERVER_ENTRY],
      env: { ...extra.env, [HOOK_SERVER_ENV]: JSON.stringify(config) },
      ...(extra.cwd !== undefined ? { cwd: extra.cwd } : {}),
    },
  };
}
