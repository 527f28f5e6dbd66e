/**
 * The processes a test file started and left running: its live descendants (the tree under this
 * process, from /proc) and, for the ones that left the tree (a parent that died, a `setsid` daemon),
 * every process of this user whose environment carries this file's tag. The tag is put into
 * `process.env` here, so whatever the file spawns with the inherited environment (and the servers the
 * product starts) carries it; a child spawned with a clean environment is still found while it is in
 * the tree. The walk and the scan are
 * the product's own (src/platform/processTree.ts). Linux only: elsewhere nothing is reported.
 */
import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { type KnownProcess, newSpawnTag, signalKnown, strayProcesses } from '../../src/platform/processTree';

// The product's own kind of tag (SPROUT_AGENT_TAG_<hex>): the product passes it on to the servers it
// starts with a minimal environment, so their orphans carry it too.
const { name: tagName, env: tagEnv } = newSpawnTag();
Object.assign(process.env, tagEnv);

/** The children this process spawned that have not exited yet, to wait for their 'exit'. */
const running = new Set<ChildProcess>();
// ChildProcess#spawn is what spawn, exec, execFile and fork all end in (not in @types/node: typed here).
type Spawning = { spawn: (...args: unknown[]) => unknown };
const prototype = ChildProcess.prototype as unknown as Spawning;
const originalSpawn = prototype.spawn;
prototype.spawn = function (this: ChildProcess, ...args: unknown[]) {
  const result = originalSpawn.apply(this, args);
  if (this.pid !== undefined && this.exitCode === null && this.signalCode === null) {
    running.add(this);
    this.once('exit', () => {
      running.delete(this);
      childExited();
    });
  }
  return result;
};

let childExited: () => void = () => undefined;

/** Resolves when one of the children still running exits (never, when none is). */
export function nextChildExit(): Promise<void> {
  return new Promise((resolve) => {
    childExited = resolve;
  });
}

/** The children not exited yet, by their stdio streams (an `unref`ed child's pipes still hold the loop). */
export function childrenByStdio(): Map<unknown, ChildProcess> {
  return new Map([...running].flatMap((child) => child.stdio.filter(Boolean).map((stream) => [stream, child] as const)));
}

/** tsx's esbuild service: started by the test runner's loader, unref'd, not the file's. */
const isLoaderService = (cmdline: string): boolean => /\/esbuild --service=/.test(cmdline);

const commandLine = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');

function describe(pid: number): string {
  try {
    const cmdline = commandLine(pid);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const where = ppid === process.pid ? 'a child of this test file' : `parent ${ppid}`;
    return `process ${pid} (${where}): ${cmdline.length > 200 ? `${cmdline.slice(0, 200)}…` : cmdline}`;
  } catch {
    return `process ${pid}`;
  }
}

function safeCommandLine(pid: number): string {
  try {
    return commandLine(pid);
  } catch {
    return '';
  }
}

export interface ProcessLeak {
  known: KnownProcess;
  text: string;
}

export function leakedProcesses(): ProcessLeak[] {
  if (process.platform !== 'linux') return [];
  return strayProcesses(process.pid, [tagName])
    .filter((known) => !isLoaderService(safeCommandLine(known.pid)))
    .map((known) => ({ known, text: describe(known.pid) }));
}

/** Ends what was reported, so a failing file does not leave it on the machine either. */
export function killLeaked(leaks: readonly ProcessLeak[]): void {
  signalKnown(
    leaks.map((leak) => leak.known),
    'SIGKILL',
  );
}
