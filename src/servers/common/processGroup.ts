/**
 * Runs a shell command in its own process group so a timeout or shutdown kills the whole tree
 * (test runners and build tools spawn children that would otherwise outlive us), including what left
 * the group: descendants that called `setsid` are found through the process tree and an environment
 * tag (src/platform/processTree.ts) and killed with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { newSpawnTag, processesTagged, signalKnown, strayProcesses } from '../../platform/processTree';
import { trackChildGroup, untrackChildGroup } from './lifeline';

export interface CommandRun {
  child: ChildProcess;
  /** Resolves when the process exits: exit code (null when killed by a signal) and whether we timed it out. */
  done: Promise<{ exitCode: number | null; signal: string | null; timedOut: boolean }>;
  kill(): void;
}

/** Commands still running, with their tags. */
const live = new Map<ChildProcess, string>();
/** Tags of commands that ended: what they left running in the background is killed on shutdown. */
const endedTags = new Set<string>();

/** SIGKILL to the command's group and to its descendants that left the group. */
export function killGroup(child: ChildProcess): void {
  const tag = live.get(child);
  // Until 'close' the group may outlive its leader (a background job holding the output pipe).
  if (child.pid === undefined || tag === undefined) return;
  const leaderAlive = child.exitCode === null && child.signalCode === null;
  const strays = strayProcesses(leaderAlive ? child.pid : undefined, [tag]);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
  signalKnown(strays, 'SIGKILL');
}

/** Kills every command still running and what ended ones left in the background; called on server shutdown. */
export function killAllCommands(): void {
  for (const child of live.keys()) killGroup(child);
  signalKnown(processesTagged([...endedTags]), 'SIGKILL');
}

/** The server's environment minus a parent test runner's context, which would change how `node --test` reports. */
function commandEnv(tag: Record<string, string>, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra, ...tag };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

export function startCommand(command: string, cwd: string, timeoutMs: number, onData: (chunk: string) => void, env: Record<string, string> = {}): CommandRun {
  const tag = newSpawnTag();
  const child = spawn(command, { cwd, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: commandEnv(tag.env, env) });
  live.set(child, tag.name);
  // If the server must die while stuck, its lifeline kills this group too.
  trackChildGroup(child.pid);
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
      untrackChildGroup(child.pid);
      endedTags.add(tag.name);
      resolve({ exitCode, signal, timedOut });
    });
  });
  return { child, done, kill: () => killGroup(child) };
}
