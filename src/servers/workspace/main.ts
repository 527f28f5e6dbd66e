/**
 * Stdio entry point of the `workspace` server (dist/servers/workspace.js, bin `sprout-mcp-workspace`).
 * Usage: sprout-mcp-workspace [--root DIR] [--state-dir DIR] [--protected-paths JSON] [--allow-protected-writes]
 */
import { ensurePrivateDir } from '../../platform/privateState';
import { killAllCommands } from '../shared/processGroup';
import { runStdioServer } from '../shared/runStdioServer';
import { flagOption, parseServerArgs, stringListOption } from '../shared/serverArgs';
import { createWorkspaceServer } from './workspaceServer';

runStdioServer('workspace', () => {
  const args = parseServerArgs(process.argv.slice(2));
  const server = createWorkspaceServer({
    root: args.root,
    stateDir: ensurePrivateDir(args.stateDir),
    protectedPaths: stringListOption(args, 'protected-paths'),
    allowProtectedWrites: flagOption(args, 'allow-protected-writes'),
  });
  return { server, onShutdown: killAllCommands };
});
