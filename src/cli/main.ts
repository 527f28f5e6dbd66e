/**
 * The `sprout-agent` executable (dist/cliMain.js, loaded by the launcher dist/cli.js). Owns the process:
 * signals, exit codes and the guarantee that no child outlives us. The first SIGINT/SIGTERM cancels the
 * run (runCli then saves and closes the servers); a second one closes the servers at once and exits.
 * Signals the launcher caught before this file was loaded count as if they arrived here.
 */
import packageJson from '../../package.json';
import { defaultDistDir, runCli } from './runCli';
import { EXIT_ERROR, EXIT_INTERRUPTED } from './exitCodes';
import type { AgentRuntime } from '../runtime/createAgentRuntime';
import { terminalWriter } from '../platform/terminalText';
import { answerLocally } from './bridge/bridgeProcess';
import type { BridgeRequest, BridgeResponse } from './bridge/bridgeHandler';

function flushAndExit(code: number): void {
  // Pipes are synchronous on Linux, but wait for the write callbacks anyway so nothing is cut off.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

/** Signals caught by the launcher while this bundle loaded, and how to stop catching them there. */
export interface EarlySignals {
  seen: readonly NodeJS.Signals[];
  release(): void;
}

export async function main(early?: EarlySignals): Promise<void> {
  const interrupt = new AbortController();
  let runtime: AgentRuntime | undefined;
  let signals = 0;
  const onSignal = (): void => {
    signals += 1;
    interrupt.abort();
    if (signals > 1) {
      void (runtime?.dispose() ?? Promise.resolve()).finally(() => process.exit(EXIT_INTERRUPTED));
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  early?.release();
  for (let i = 0; i < (early?.seen.length ?? 0); i++) onSignal();
  const stdout = terminalWriter(process.stdout);
  const stderr = terminalWriter(process.stderr);
  // Servers run in their own process groups, so a crash would orphan them: close them, then exit 1.
  const onCrash = (error: unknown): void => {
    stderr.write(`sprout-agent: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    void (runtime?.dispose() ?? Promise.resolve()).finally(() => process.exit(EXIT_ERROR));
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  // A consumer closing our stdout (`| head`) must not crash us with EPIPE before the servers are closed.
  process.stdout.on('error', () => interrupt.abort());
  const code = await runCli({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout,
    stdoutIsTerminal: process.stdout.isTTY === true,
    stderr,
    version: packageJson.version,
    distDir: defaultDistDir(__dirname),
    interrupt: interrupt.signal,
    onRuntime: (r) => (runtime = r),
  });
  flushAndExit(code);
}

/** For dist/hookBridge.js: a `hooks run` event the hook host could not take, run in this process. */
export function answerBridgeLocally(request: BridgeRequest): Promise<BridgeResponse> {
  return answerLocally(request, defaultDistDir(__dirname), packageJson.version, new AbortController().signal);
}

// Run directly (node dist/cliMain.js, or tsx in development): no launcher, no early signals.
if (require.main === module) void main();
