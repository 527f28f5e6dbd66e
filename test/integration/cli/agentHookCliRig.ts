// The rig of the CLI tests that run other agents' hook files (`--agent-hooks`): a temporary folder, a
// `work` MCP server (the fake hook server, logging its calls), a fake model server per CLI run (the
// previous one closed first; the last after each test), fixture workspaces, and what the fixture hook
// script (test/fixtures/agentHooks/hook.mjs) logged of each call. Call it at a file's top level: it
// registers that file's before/afterEach/after hooks.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, afterEach, before } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { startFakeOpenAi, type FakeOpenAi, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig } from '../../fakes/hookServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, ensureBuilt, parseEvents, REPO_ROOT, runCli, writeMcpConfig } from './cliHarness';
import { scaledMs } from '../../loadScale';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'agentHooks', 'hook.mjs');
/** The fixture hook script as an agent's hook command: `mode` is what it does (deny-rm, stop-once, ...). */
export const hookCommand = (agent: string, mode: string): string => `node ${HOOK} ${agent} ${mode}`;

/** One call of the fixture hook script, as it logged it. */
export interface HookCall {
  agent: string;
  mode: string;
  payload: Record<string, unknown>;
  env: string[];
  pid: number;
}

export interface CliRun {
  code: number | null;
  stderr: string;
  events: AgentEvent[];
}

export interface AgentHookCliRig {
  /** The temporary folder everything lives in. */
  readonly dir: string;
  /** The `--mcp-config` file that defines the `work` server. */
  readonly work: string;
  /** The last CLI run's model server. */
  readonly fake: FakeOpenAi | undefined;
  /** A fresh folder holding `files` (objects written as JSON, strings as they are). */
  folder(files: Record<string, unknown>): string;
  hookCalls(ws: string): HookCall[];
  /** A new model server answering `responses` (the previous one closed first; the last after each test). */
  model(responses: FakeResponse[]): Promise<FakeOpenAi>;
  /** `sprout-agent --json --mcp-config <work> --cwd <ws> ...args <prompt>` against a new model server. */
  run(ws: string, responses: FakeResponse[], args: string[], env?: Record<string, string>, prompt?: string): Promise<CliRun>;
}

export function agentHookCliRig(prefix: string): AgentHookCliRig {
  let fake: FakeOpenAi | undefined;
  let dir = '';
  let work = '';
  let count = 0;
  const closeFake = async (): Promise<void> => {
    if (fake) assertAllRequestsValid(fake.requests);
    await fake?.close();
    fake = undefined;
  };
  before(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), prefix));
    work = writeMcpConfig(join(dir, 'work.json'), [hookServerMcpConfig('work', hookServerConfig({ logFile: join(dir, 'work.log') }))]);
  });
  afterEach(closeFake);
  after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    get dir() {
      return dir;
    },
    get work() {
      return work;
    },
    get fake() {
      return fake;
    },
    folder(files) {
      const root = join(dir, `ws${++count}`);
      for (const [name, content] of Object.entries(files)) {
        mkdirSync(dirname(join(root, name)), { recursive: true });
        writeFileSync(join(root, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      }
      mkdirSync(root, { recursive: true });
      return root;
    },
    hookCalls(ws) {
      const file = join(ws, 'hook-calls.jsonl');
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as HookCall);
    },
    async model(responses) {
      // A test that runs the CLI twice closes the first run's model server here.
      await closeFake();
      fake = await startFakeOpenAi({ responses });
      return fake;
    },
    async run(ws, responses, args, env = {}, prompt = 'fix the bug') {
      const fake = await this.model(responses);
      const result = await runCli(['--json', '--mcp-config', work, '--cwd', ws, ...args, prompt], { env: { ...baseEnv(fake.url), ...env }, timeoutMs: scaledMs(60_000) });
      return { code: result.code, stderr: result.stderr, events: parseEvents(result.stdout) };
    },
  };
}
