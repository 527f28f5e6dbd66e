/**
 * Stdio entry point of the `workspace` server (dist/servers/workspace.js, bin `sprout-mcp-workspace`).
 * Usage: sprout-mcp-workspace [--root DIR] [--state-dir DIR]
 */
import { killAllCommands } from '../shared/processGroup';
import { runStdioServer } from '../shared/runStdioServer';
import { parseServerArgs } from '../shared/serverArgs';
import { createWorkspaceServer } from './workspaceServer';

runStdioServer('workspace', () => {
  const args = parseServerArgs(process.argv.slice(2));
  return { server: createWorkspaceServer(args), onShutdown: killAllCommands };
});
