/**
 * The setup the CLI integration files share when they drive `node dist/cli.js` against the fake OpenAI
 * server: one temp folder per file (made before its tests, `setup` writes the files they read, removed
 * after), the fake server a test starts (closed after each test; with `checkRequests` every request it
 * saw is asserted valid first), the requests it recorded in wire form, and the environment of a run.
 * `everythingFixture` adds the reference server (@modelcontextprotocol/server-everything over stdio) in
 * the folder's mcp.json and a run that warms it up with an echo round.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before } from 'node:test';
import type { AgentEvent } from '../../../src/agent/events';
import { fakeReply, startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, ensureBuilt, parseEvents, runCli, type CliResult } from './cliHarness';

export interface WireRequest {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

export interface CliFixtureOptions {
  /** Writes what the file's tests read into the fresh folder. */
  setup?: (dir: string) => void;
  /** After each test, every request the fake saw must be valid. */
  checkRequests?: boolean;
  /** Added to every `env(...)` of this file. */
  env?: (dir: string) => Record<string, string>;
}

export interface CliFixture {
  /** The file's temp folder (set once its `before` ran). */
  readonly dir: string;
  /** The fake the running test started, if any. */
  readonly fake: FakeOpenAi | undefined;
  /** Starts the fake for this test; it is closed after the test. */
  startFake(options?: FakeOpenAiOptions): Promise<FakeOpenAi>;
  /** The index-th chat request the fake received, as sent. */
  requestAt(index: number): WireRequest;
  /** With the bundled workspace and todo servers, the state under the folder, and the file's own additions. */
  env(fakeUrl: string, extra?: Record<string, string>): Record<string, string>;
}

export const toolNames = (request: WireRequest): string[] => (request.tools ?? []).map((t) => t.function.name).sort();
export const systemText = (request: WireRequest): string => String(request.messages[0]?.content);
export const finishedTools = (events: AgentEvent[]): Array<Extract<AgentEvent, { type: 'tool_finished' }>> =>
  events.filter((e): e is Extract<AgentEvent, { type: 'tool_finished' }> => e.type === 'tool_finished');

/** Registers the file's before/afterEach/after hooks; call it at the top level of a test file. */
export function cliFixture(prefix: string, options: CliFixtureOptions = {}): CliFixture {
  let dir: string | undefined;
  let fake: FakeOpenAi | undefined;
  before(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), prefix));
    options.setup?.(dir);
  });
  afterEach(async () => {
    if (options.checkRequests === true && fake !== undefined) assertAllRequestsValid(fake.requests);
    await fake?.close();
    fake = undefined;
  });
  after(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const folder = (): string => {
    if (dir === undefined) throw new Error(`the ${prefix} folder is made in the file's before hook`);
    return dir;
  };
  return {
    get dir() {
      return folder();
    },
    get fake() {
      return fake;
    },
    startFake: async (fakeOptions) => (fake = await startFakeOpenAi(fakeOptions)),
    requestAt: (index) => fake?.chatRequests()[index]?.body as WireRequest,
    env: (fakeUrl, extra = {}) => ({
      ...baseEnv(fakeUrl),
      SPROUT_AGENT_BUILTIN_SERVERS: 'workspace,todo',
      XDG_STATE_HOME: join(folder(), 'state'),
      ...options.env?.(folder()),
      ...extra,
    }),
  };
}

export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

export interface EverythingRun {
  result: CliResult;
  events: AgentEvent[];
  finished: Array<Extract<AgentEvent, { type: 'tool_finished' }>>;
  last: Extract<AgentEvent, { type: 'tool_finished' }> | undefined;
}

export interface EverythingFixture extends CliFixture {
  /** `<dir>/mcp.json`, naming the reference server `everything`. */
  readonly mcpConfig: string;
  /** A model reply that calls one of the reference server's tools. */
  call(tool: string, args?: Record<string, unknown>): FakeResponse;
  /** Round 1 echoes (the server registers some tools only after initialize), then `responses`, then `done`; `--json`. */
  run(responses: FakeResponse[], extraArgs?: string[], env?: Record<string, string>): Promise<EverythingRun>;
}

/** A CLI fixture whose folder's mcp.json runs the reference server; requests are always checked. */
export function everythingFixture(prefix: string): EverythingFixture {
  const fixture = cliFixture(prefix, {
    checkRequests: true,
    setup: (dir) => writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } })),
  });
  const call = (tool: string, args: Record<string, unknown> = {}): FakeResponse => fakeReply.toolCalls([{ name: `everything__${tool}`, arguments: args }]);
  const run = async (responses: FakeResponse[], extraArgs: string[] = [], env: Record<string, string> = {}): Promise<EverythingRun> => {
    const fake = await fixture.startFake({ responses: [call('echo', { message: 'warm up' }), ...responses, fakeReply.text('done')] });
    const result = await runCli(['--json', '--cwd', fixture.dir, '--mcp-config', join(fixture.dir, 'mcp.json'), ...extraArgs, 'go'], {
      env: { ...baseEnv(fake.url), ...env },
      timeoutMs: 60_000,
    });
    const events = parseEvents(result.stdout);
    const finished = finishedTools(events);
    return { result, events, finished, last: finished.at(-1) };
  };
  return {
    get dir() {
      return fixture.dir;
    },
    get fake() {
      return fixture.fake;
    },
    get mcpConfig() {
      return join(fixture.dir, 'mcp.json');
    },
    startFake: fixture.startFake,
    requestAt: fixture.requestAt,
    env: fixture.env,
    call,
    run,
  };
}
