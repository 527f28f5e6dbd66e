/**
 * Helpers for driving the built CLI (`node dist/cli.js`) as a real child process against the fake
 * OpenAI server running in the test process: build once (a lock keeps parallel test files from
 * building over each other), spawn with a clean environment, collect output, write mcp.json files.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent, Outcome } from '../../../src/agent/events';
import type { McpServerConfig } from '../../../src/mcp/config';
import { scaledMs } from '../../loadScale';

export const REPO_ROOT = join(__dirname, '..', '..', '..');
export const CLI = join(REPO_ROOT, 'dist', 'cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function isFresh(): boolean {
  return existsSync(CLI) && statSync(CLI).mtimeMs >= newestSource(join(REPO_ROOT, 'src'));
}

/** Builds dist/ unless dist/cli.js is newer than every source file. */
export async function ensureBuilt(): Promise<void> {
  const lock = join(REPO_ROOT, 'dist', '.cli-test-build-lock');
  mkdirSync(join(REPO_ROOT, 'dist'), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (isFresh()) return;
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; a lock older than two minutes is a crashed builder's.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for another test file to build dist/');
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      if (!isFresh()) {
        const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
        if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  env?: Record<string, string | undefined>;
  /** The Node binary that runs the CLI; default this process's. */
  node?: string;
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

/** The environment a CLI run starts from: just enough to run, nothing from the test's own env. */
export function baseEnv(fakeUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    OPENAI_BASE_URL: fakeUrl,
    OPENAI_API_KEY: 'sk-test-cli-secret-0123456789',
    SPROUT_AGENT_MODEL: 'fake-model',
    SPROUT_AGENT_BUILTIN_SERVERS: '',
    // The first prompt's wait for servers to be ready (10 s by default) stretched by the machine's load:
    // a wait that ends as soon as the servers are up, so on an idle machine it costs nothing.
    SPROUT_AGENT_SERVER_STARTUP_WAIT_MS: String(scaledMs(10_000)),
  };
}

export function spawnCli(args: string[], options: CliRunOptions = {}): ChildProcess {
  const env = Object.fromEntries(Object.entries(options.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
  return spawn(options.node ?? process.execPath, [CLI, ...args], { cwd: options.cwd ?? REPO_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
}

export function collect(child: ChildProcess, options: CliRunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A hang guard written for an idle machine, scaled by the load when the run starts.
    const boundMs = scaledMs(options.timeoutMs ?? 30_000);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit within ${boundMs} ms (a hang guard, scaled by the machine's load)\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, boundMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export function runCli(args: string[], options: CliRunOptions = {}): Promise<CliResult> {
  const child = spawnCli(args, options);
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(options.input ?? '');
  return collect(child, options);
}

/** Writes servers as a .vscode/mcp.json-format file. */
export function writeMcpConfig(path: string, servers: McpServerConfig[]): string {
  const entries = servers.map((s) => {
    if (s.transport.type !== 'stdio') throw new Error('stdio servers only');
    const { command, args, env } = s.transport;
    return [s.name, { type: 'stdio', command, args, env }];
  });
  writeFileSync(path, JSON.stringify({ servers: Object.fromEntries(entries) }, null, 2));
  return path;
}

/** Parses --json output: every non-empty stdout line must be one JSON event. */
export function parseEvents(stdout: string): AgentEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AgentEvent);
}

export function outcomeOf(events: readonly AgentEvent[]): Outcome | undefined {
  const last = events.at(-1);
  return last?.type === 'outcome' ? last.outcome : undefined;
}
