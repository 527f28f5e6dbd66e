/**
 * What a CLI command gets from its process: arguments, environment, working folder, standard streams,
 * where the bundled servers are, and the interrupt signal. main.ts fills it from the real process;
 * tests fill it with their own streams. Each command (a run, `hooks check`) reads it.
 */
import type { AgentRuntime } from '../runtime/createAgentRuntime';
import type { WritableLike } from '../runtime/streamLogger';
import type { PromptSource } from './cliSession';
import type { Env } from './cliSettings';

export interface CliIo {
  argv: readonly string[];
  env: Env;
  cwd: string;
  stdin: PromptSource;
  stdout: WritableLike;
  /** stdout is a terminal: readable output streams there (eventPrinters.ts `textEventPrinter`). */
  stdoutIsTerminal?: boolean;
  stderr: WritableLike;
  version: string;
  /** The folder holding the bundled servers (dist/). */
  distDir: string;
  /** Aborted on SIGINT/SIGTERM. */
  interrupt: AbortSignal;
  /** Called with the runtime once it exists, so a second signal can still close it. */
  onRuntime?: (runtime: AgentRuntime) => void;
}
