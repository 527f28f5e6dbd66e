/**
 * The `tests` MCP server: `run_tests` for the model, and a `_Stop` hook that keeps the agent from
 * finishing on a red suite while always answering within its budget (see TestsController).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guarded, textResult } from '../shared/toolResults';
import { realRoot } from '../shared/safePath';
import { renderTestResult } from './renderTestResult';
import { TestsController } from './testsController';

export interface TestsServerOptions {
  root: string;
  stateDir: string;
  command?: string;
  /** How long `_Stop` may take, well inside the agent's hook timeout (2500 ms by default). */
  hookBudgetMs?: number;
  runTimeoutMs?: number;
}

export const DEFAULT_HOOK_BUDGET_MS = 1500;
export const DEFAULT_RUN_TIMEOUT_MS = 10 * 60_000;

export function createTestsServer(options: TestsServerOptions): { server: McpServer; controller: TestsController } {
  const controller = new TestsController({
    rootReal: realRoot(options.root),
    stateDir: options.stateDir,
    command: options.command,
    hookBudgetMs: options.hookBudgetMs ?? DEFAULT_HOOK_BUDGET_MS,
    runTimeoutMs: options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
  });
  const server = new McpServer({ name: 'sprout-tests', version: '0.1.0' });
  const command = controller.testCommand();
  server.registerTool(
    'run_tests',
    {
      description:
        `Run the workspace's test suite${command ? ` (\`${command}\`)` : ''} and get a compact result: pass/fail counts, ` +
        'failing tests with the first lines of their messages, the command, exit code and duration.',
      inputSchema: {},
      annotations: { title: 'Run tests', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => guarded(async () => textResult(renderTestResult(await controller.runTests()))),
  );
  server.registerTool(
    '_Stop',
    {
      description: 'Lifecycle hook: objects to ending the turn while the tests fail or have not been run on the current state.',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    () => guarded(async () => textResult(await controller.stopHook())),
  );
  return { server, controller };
}
