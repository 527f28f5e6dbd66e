/**
 * Stdio entry point of the `todo` server (dist/servers/todo.js, bin `sprout-mcp-todo`).
 * Usage: sprout-mcp-todo [--root DIR] [--state-dir DIR]   (the lists live in <state-dir>: todoStore.ts)
 */
import { runStdioServer } from '../common/runStdioServer';
import { parseServerArgs } from '../common/serverArgs';
import { createTodoServer } from './todoServer';

const USAGE = `Usage: sprout-mcp-todo [--root DIR] [--state-dir DIR]

An MCP server on stdio: the model's task list (tool "todo"), with _Stop and _PostCompact hooks.
  --root DIR         the workspace root (default: the current directory)
  --state-dir DIR    where the lists are kept: one per session the calls name in _meta, todo.json for
                     calls that name none (default: a private per-root folder under
                     $XDG_STATE_HOME/sprout-agent or ~/.local/state/sprout-agent)
  -h, --help         show this help
`;

function createTodoServerFromArgs(): { server: ReturnType<typeof createTodoServer> } {
  const args = parseServerArgs(process.argv.slice(2), { usage: USAGE });
  return { server: createTodoServer({ stateDir: args.stateDir }) };
}

runStdioServer('todo', () => createTodoServerFromArgs());
