/**
 * Stdio entry point of the `todo` server (dist/servers/todo.js, bin `sprout-mcp-todo`).
 * Usage: sprout-mcp-todo [--root DIR] [--state-dir DIR]   (the list lives in <state-dir>/todo.json)
 */
import { runStdioServer } from '../shared/runStdioServer';
import { parseServerArgs } from '../shared/serverArgs';
import { createTodoServer } from './todoServer';

runStdioServer('todo', () => createTodoServerFromArgs());

function createTodoServerFromArgs(): { server: ReturnType<typeof createTodoServer> } {
  const args = parseServerArgs(process.argv.slice(2));
  return { server: createTodoServer({ stateDir: args.stateDir }) };
}
