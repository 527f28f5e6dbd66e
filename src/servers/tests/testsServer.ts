/**
 * The `tests` MCP server: `run_tests` for the model, and lifecycle hooks that keep the agent from
 * finishing on a red suite while always answering within their budget (see TestsController): `_Stop`
 * objects while the suite is red or unrun, and `_PostToolUse` starts a background run after a tool
 * that may have changed files, so `_Stop` usually answers from a fresh result. Both tools return text for the model plus `structuredContent` (declared by an
 * `outputSchema`) for hosts that show failures as data: counts, command, exit code, duration and
 * each failing test with its file, line and message. A new hook is one more entry in `hooks`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodType } from 'zod';
import { guarded } from '../common/toolResults';
import { realRoot } from '../common/safePath';
import { renderTestResult } from './renderTestResult';
import { TestsController } from './testsController';
import { stopResultShape, testResultShape, toStructured } from './testResult';

export interface TestsServerOptions {
  root: string;
  stateDir: string;
  command?: string;
  /** How long `_Stop` may take, well inside the agent's hook timeout (2500 ms by default). */
  hookBudgetMs?: number;
  runTimeoutMs?: number;
  /** Debounce of background runs after edits; 0 turns watching off. */
  watchDebounceMs?: number;
}

export const DEFAULT_HOOK_BUDGET_MS = 1500;
export const DEFAULT_RUN_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_WATCH_DEBOUNCE_MS = 1000;

function structuredResult(text: string, structured: Record<string, unknown>): CallToolResult {
  // The text block is always there (empty means "no objection"): a client that flattens a result
  // without content to its JSON would otherwise read the structured data as an objection.
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** The part of a tool call's context a hook reads: `_meta["sprout/hook"]` carries the agent's context. */
interface HookCall {
  _meta?: Record<string, unknown>;
}

interface HookDefinition {
  description: string;
  /** Declared when the hook answers with structured content too. */
  outputSchema?: Record<string, ZodType>;
  run: (call: HookCall) => Promise<CallToolResult>;
}

/** Tools that only read, by the verbs of their bare names: after them there is nothing to retest. */
const READ_ONLY_TOOL = /^(read|list|search|find|get|show|view|grep|glob|stat|describe|run_tests)([_-]|$)/i;

/** `_PostToolUse`'s view of the call that ran: its bare tool name, when `_meta` carries one. */
function ranToolName(call: HookCall): string | undefined {
  const context = call._meta?.['sprout/hook'];
  const name = context !== null && typeof context === 'object' ? (context as Record<string, unknown>)['toolName'] : undefined;
  return typeof name === 'string' ? name : undefined;
}

function hooks(controller: TestsController): Record<string, HookDefinition> {
  return {
    _Stop: {
      description: 'Lifecycle hook: objects to ending the turn while the tests fail or have not been run on the current state.',
      outputSchema: stopResultShape,
      run: async () => {
        const answer = await controller.stopHook();
        return structuredResult(answer.text, answer.structured);
      },
    },
    _PostToolUse: {
      description: 'Lifecycle hook: after a tool that may have changed files, starts a test run in the background so _Stop answers from a fresh result.',
      run: (call) => {
        const tool = ranToolName(call);
        // Answers at once: the run (started only if the workspace really changed) goes on in the background.
        if (tool !== undefined && !READ_ONLY_TOOL.test(tool)) void controller.runInBackground();
        return Promise.resolve({ content: [{ type: 'text', text: '' }] });
      },
    },
  };
}

export function createTestsServer(options: TestsServerOptions): { server: McpServer; controller: TestsController } {
  const debounce = options.watchDebounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS;
  const controller = new TestsController({
    rootReal: realRoot(options.root),
    stateDir: options.stateDir,
    command: options.command,
    hookBudgetMs: options.hookBudgetMs ?? DEFAULT_HOOK_BUDGET_MS,
    runTimeoutMs: options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
    ...(debounce > 0 ? { watchDebounceMs: debounce } : {}),
  });
  const server = new McpServer({ name: 'sprout-tests', version: '0.2.0' });
  const command = controller.testCommand();
  server.registerTool(
    'run_tests',
    {
      description:
        `Run the workspace's test suite${command ? ` (\`${command}\`)` : ''} and get a compact result: pass/fail counts, ` +
        'each failing test with its file:line and the first lines of its message (expected/actual), the command, exit code and duration.',
      inputSchema: {},
      outputSchema: testResultShape,
      annotations: { title: 'Run tests', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        const result = await controller.runTests();
        return structuredResult(renderTestResult(result), toStructured(result));
      }),
  );
  for (const [name, hook] of Object.entries(hooks(controller))) {
    server.registerTool(
      name,
      {
        description: hook.description,
        inputSchema: {},
        ...(hook.outputSchema ? { outputSchema: hook.outputSchema } : {}),
        annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
      },
      (_args, extra) => guarded(() => hook.run(extra)),
    );
  }
  return { server, controller };
}
