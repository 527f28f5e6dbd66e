/**
 * Stdio entry point of the `workspace` server (dist/servers/workspace.js, bin `sprout-mcp-workspace`).
 * Usage: sprout-mcp-workspace [--root DIR] [--state-dir DIR]
 */
import { killAllCommands } from '../shared/processGroup';
import { runStdioServer } from '../shared/runStdioServer';
import { parseServerArgs } from '../shared/serverArgs';
import { createWorkspaceServer } from './workspaceServer';

const USAGE = `Usage: sprout-mcp-workspace [--root DIR] [--state-dir DIR]

An MCP server on stdio: read, list, search, write and edit files and run commands, confined to the root.
  --root DIR         the workspace root (default: the current directory)
  --state-dir DIR    where saved command output goes (default: a per-root folder under the OS temp dir)
  -h, --help         show this help
`;

runStdioServer('workspace', () => {
  const args = parseServerArgs(process.argv.slice(2), { usage: USAGE });
  return { server: createWorkspaceServer(args), onShutdown: killAllCommands };
});
