/**
 * Starts a bundled server on stdio and shuts it down cleanly: when the client closes stdin or sends
 * SIGTERM/SIGINT, `onShutdown` runs (to kill child processes the server started) and the process exits.
 * Startup errors go to stderr, never stdout, which belongs to the protocol; `--help` prints the usage
 * on stdout and exits 0 before any protocol starts.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { errorMessage } from '../../agent/errorMessage';
import { HelpRequested } from './serverArgs';

export function runStdioServer(name: string, build: () => { server: McpServer; onShutdown?: () => void }): void {
  let built: { server: McpServer; onShutdown?: () => void };
  try {
    built = build();
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(error.usage);
      process.exit(0);
    }
    process.stderr.write(`sprout-mcp-${name}: ${errorMessage(error)}\n`);
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
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  built.server.connect(new StdioServerTransport()).catch((error: unknown) => {
    process.stderr.write(`sprout-mcp-${name}: ${errorMessage(error)}\n`);
    process.exit(1);
  });
}
