/**
 * Runs a shell command in its own process group so a timeout or shutdown kills the whole tree
 * (test runners and build tools spawn children that would otherwise outlive us).
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface CommandRun {
  child: ChildProcess;
  /** Resolves when the process exits: exit code (null when killed by a signal) and whether we timed it out. */
  done: Promise<{ exitCode: number | null; signal: string | null; timedOut: boolean }>;
  kill(): void;
}

const live = new Set<ChildProcess>();

export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Kills every command still running; called on server shutdown. */
export function killAllCommands(): void {
  for (const child of live) killGroup(child);
}

/** The server's environment minus a parent test runner's context, which would change how `node --test` reports. */
function commandEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

export function startCommand(command: string, cwd: string, timeoutMs: number, onData: (chunk: string) => void, env: Record<string, string> = {}): CommandRun {
  const child = spawn(command, { cwd, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: commandEnv(env) });
  live.add(child);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, timeoutMs);
  child.stdout?.setEncoding('utf8').on('data', onData);
  child.stderr?.setEncoding('utf8').on('data', onData);
  const done = new Promise<{ exitCode: number | null; signal: string | null; timedOut: boolean }>((resolve) => {
    child.on('error', (error) => {
      onData(`\n[failed to start: ${error.message}]\n`);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ exitCode, signal, timedOut });
    });
  });
  return { child, done, kill: () => killGroup(child) };
}
