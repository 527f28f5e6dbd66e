/**
 * Stdio entry point of the `tests` server (dist/servers/tests.js, bin `sprout-mcp-tests`).
 * Usage: sprout-mcp-tests [--root DIR] [--state-dir DIR] [--command "npm test"]
 *                         [--hook-budget-ms 1500] [--timeout-ms 600000]
 *                         [--watch on|off] [--watch-debounce-ms 1000]
 */
import { killAllCommands } from '../common/processGroup';
import { runStdioServer } from '../common/runStdioServer';
import { intOption, parseServerArgs } from '../common/serverArgs';
import { createTestsServer, DEFAULT_HOOK_BUDGET_MS, DEFAULT_RUN_TIMEOUT_MS, DEFAULT_WATCH_DEBOUNCE_MS } from './testsServer';

const USAGE = `Usage: sprout-mcp-tests [--root DIR] [--state-dir DIR] [--command CMD] [--hook-budget-ms N] [--timeout-ms N]
                        [--watch on|off] [--watch-debounce-ms N]

An MCP server on stdio: a test runner (tool "run_tests") whose _Stop hook objects while the suite fails.
  --root DIR           the workspace root (default: the current directory)
  --state-dir DIR      where the last result is kept (default: a private per-root folder under
                       $XDG_STATE_HOME/sprout-agent or ~/.local/state/sprout-agent)
  --command CMD        the test command (default: detected: npm test, pytest, cargo test, go test, make test)
  --hook-budget-ms N   how long _Stop may take to answer (default: ${DEFAULT_HOOK_BUDGET_MS})
  --timeout-ms N       the longest one test run may take (default: ${DEFAULT_RUN_TIMEOUT_MS})
  --watch on|off       run the suite in the background once edits settle (default: on)
  --watch-debounce-ms N  how long edits must settle first (default: ${DEFAULT_WATCH_DEBOUNCE_MS})
  -h, --help           show this help
`;

runStdioServer('tests', () => {
  const args = parseServerArgs(process.argv.slice(2), { usage: USAGE, extraOptions: ['command', 'hook-budget-ms', 'timeout-ms', 'watch', 'watch-debounce-ms'] });
  const command = args.options.get('command')?.trim();
  const watch = args.options.get('watch') ?? 'on';
  if (watch !== 'on' && watch !== 'off') throw new Error(`--watch must be "on" or "off", got "${watch}"`);
  const { server, controller } = createTestsServer({
    root: args.root,
    stateDir: args.stateDir,
    command: command === '' ? undefined : command,
    hookBudgetMs: intOption(args, 'hook-budget-ms', DEFAULT_HOOK_BUDGET_MS),
    runTimeoutMs: intOption(args, 'timeout-ms', DEFAULT_RUN_TIMEOUT_MS),
    watchDebounceMs: watch === 'off' ? 0 : intOption(args, 'watch-debounce-ms', DEFAULT_WATCH_DEBOUNCE_MS),
  });
  controller.startWatching();
  return {
    server,
    onShutdown: () => {
      controller.stop();
      killAllCommands();
    },
  };
});
