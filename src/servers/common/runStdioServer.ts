/**
 * Starts a bundled server on stdio and shuts it down cleanly: when the client is gone (stdin closed or
 * the parent process dead, even mid-call: lifeline.ts) or sends SIGTERM/SIGINT, `onShutdown` runs (to
 * kill child processes the server started) and the process exits. Startup errors go to stderr, never
 * stdout, which belongs to the protocol, and are neutralised for a terminal (they may quote a path);
 * `--help` prints the usage on stdout and exits 0 before any protocol starts.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { errorMessage } from '../../agent/errorMessage';
import { terminalWriter } from '../../platform/terminalText';
import { holdLifeline } from './lifeline';
import { useLinearRegexEngine } from './linearRegex';
import { HelpRequested } from './serverArgs';

/**
 * `toolsCanChange`: whether the server's tool list can change while it runs. The SDK's McpServer
 * always advertises `tools.listChanged`; a fixed list says it does not, so clients need not watch.
 */
export function runStdioServer(name: string, build: () => { server: McpServer; onShutdown?: () => void }, toolsCanChange = false): void {
  const stderr = terminalWriter(process.stderr);
  useLinearRegexEngine();
  let built: { server: McpServer; onShutdown?: () => void };
  try {
    built = build();
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(error.usage);
      process.exit(0);
    }
    stderr.write(`sprout-mcp-${name}: ${errorMessage(error)}\n`);
    process.exit(2);
  }
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    try {
      built.onShutdown?.();
    } finally {
      process.exit(0);
    }
  };
  holdLifeline(stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (!toolsCanChange) built.server.server.registerCapabilities({ tools: { listChanged: false } });
  built.server.connect(new StdioServerTransport()).catch((error: unknown) => {
    stderr.write(`sprout-mcp-${name}: ${errorMessage(error)}\n`);
    process.exit(1);
  });
}
