/**
 * Starts a bundled server on stdio and shuts it down cleanly: when the client is gone (stdin closed or
 * the parent process dead, even mid-call: lifeline.ts) or sends SIGTERM/SIGINT, `onShutdown` runs (to
 * kill child processes the server started) and the process exits. Startup errors go to stderr, never
 * stdout, which belongs to the protocol, and are neutralised for a terminal (they may quote a path);
 * `--help` prints the usage on stdout and exits 0 before any protocol starts. The server is served in
 * both protocol eras (the 2026-07-28 `server/discover` opening and the older `initialize` handshake),
 * so `server` is a factory: the SDK builds the instance for the era the client opens with (twice when a
 * probe falls back), which is why what lives across instances (state, watchers) is made once in
 * `build`, outside the factory.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { errorMessage } from '../../agent/errorMessage';
import { terminalWriter } from '../../platform/terminalText';
import { holdLifeline } from './lifeline';
import { useLinearRegexEngine } from './linearRegex';
import { HelpRequested } from './serverArgs';

export interface StdioServerParts {
  /** A fresh instance over the server's shared state; cheap, no side effects. */
  server: () => McpServer;
  onShutdown?: () => void;
}

/**
 * `toolsCanChange`: whether the server's tool list can change while it runs. The SDK's McpServer
 * always advertises `tools.listChanged`; a fixed list says it does not, so clients need not watch.
 */
export function runStdioServer(name: string, build: () => StdioServerParts, toolsCanChange = false): void {
  const stderr = terminalWriter(process.stderr);
  useLinearRegexEngine();
  let built: StdioServerParts;
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
  serveStdio(
    () => {
      const server = built.server();
      if (!toolsCanChange) server.server.registerCapabilities({ tools: { listChanged: false } });
      return server;
    },
    { onerror: (error) => stderr.write(`sprout-mcp-${name}: ${errorMessage(error)}\n`) },
  );
}
