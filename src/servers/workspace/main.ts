/**
 * Stdio entry point of the `workspace` server (dist/servers/workspace.js, bin `sprout-mcp-workspace`).
 * Usage: sprout-mcp-workspace [--root DIR] [--state-dir DIR] [--protected-paths JSON] [--allow-protected-writes]
 */
import { ensurePrivateDir } from '../../platform/privateState';
import { killAllCommands } from '../common/processGroup';
import { runStdioServer } from '../common/runStdioServer';
import { flagOption, parseServerArgs, stringListOption } from '../common/serverArgs';
import { createWorkspaceServer } from './workspaceServer';

const USAGE = `Usage: sprout-mcp-workspace [--root DIR] [--state-dir DIR] [--protected-paths JSON] [--allow-protected-writes]

An MCP server on stdio: read, list, search, write and edit files and run commands, confined to the root.
  --root DIR                 the workspace root (default: the current directory)
  --state-dir DIR            where saved command output goes (default: a private per-root folder
                             under $XDG_STATE_HOME/sprout-agent or ~/.local/state/sprout-agent)
  --protected-paths JSON     more protected path globs, a JSON array (added to .git/**, .vscode/**, ...)
  --allow-protected-writes   write protected paths too (refused by default)
  -h, --help                 show this help
`;

runStdioServer('workspace', () => {
  const args = parseServerArgs(process.argv.slice(2), { usage: USAGE, extraOptions: ['protected-paths', 'allow-protected-writes'] });
  const server = createWorkspaceServer({
    root: args.root,
    stateDir: ensurePrivateDir(args.stateDir),
    protectedPaths: stringListOption(args, 'protected-paths'),
    allowProtectedWrites: flagOption(args, 'allow-protected-writes'),
  });
  return { server, onShutdown: killAllCommands };
});
