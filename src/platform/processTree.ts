/**
 * Finds the processes a spawned server (or command) left behind outside its process group, so a kill
 * reaches them too: a grandchild that called `setsid` has its own group and session, and once its
 * parent exits it is reparented away from the tree. Two nets, because each misses what the other sees:
 *
 * - the descendant tree, walked from `/proc/<pid>/stat` on Linux (`ps -A -o pid=,ppid=` elsewhere),
 *   catches children that changed their environment, as long as their parents are alive;
 * - a random tag in the environment (`SPROUT_AGENT_TAG_<hex>=1`, inherited by everything started
 *   below) found in `/proc/<pid>/environ` of this user's processes catches orphans.
 *
 * Exact limit: a process that both left the tree (its parent died, or a daemon such as systemd-run or
 * docker started it) and cleared or replaced its environment cannot be told apart from the user's other
 * processes, so it is not killed. The tag scan needs `/proc` (Linux); elsewhere only the live tree is
 * walked. Pids are remembered with their start time, so a reused pid is never signalled.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';

export const TAG_PREFIX = 'SPROUT_AGENT_TAG_';

/** A fresh tag: the env entry to add to a spawned process, and what a scan looks for. */
export function newSpawnTag(): { name: string; env: Record<string, string> } {
  const name = `${TAG_PREFIX}${randomBytes(8).toString('hex')}`;
  return { name, env: { [name]: '1' } };
}

interface ProcInfo {
  pid: number;
  ppid: number;
  /** Process group id (field 5 of /proc/<pid>/stat); -1 where unknown. */
  pgrp: number;
  /** Clock ticks since boot at which it started (field 22 of /proc/<pid>/stat); 0 where unknown. */
  start: number;
}

/** A process as remembered for a later signal: a different process under the same pid is skipped. */
export interface KnownProcess {
  pid: number;
  start: number;
}

const hasProc = (): boolean => process.platform === 'linux';

function procStat(pid: number): ProcInfo | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses; the fields after its last ')' are fixed.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    if (state === 'Z' || state === 'X') return undefined;
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), start: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

function procPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

function allProcesses(): ProcInfo[] {
  if (hasProc()) return procPids().flatMap((pid) => procStat(pid) ?? []);
  if (process.platform === 'win32') return [];
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  if (ps.status !== 0) return [];
  return ps.stdout.split('\n').flatMap((line) => {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    return pid !== undefined && ppid !== undefined && Number.isInteger(pid) && Number.isInteger(ppid) ? [{ pid, ppid, pgrp: -1, start: 0 }] : [];
  });
}

/** Every live descendant of `root` (not `root` itself). */
function descendantsOf(root: number, processes: readonly ProcInfo[] = allProcesses()): KnownProcess[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found: KnownProcess[] = [];
  const queue = [root];
  const seen = new Set<number>([root]);
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push({ pid: child.pid, start: child.start });
      queue.push(child.pid);
    }
  }
  return found;
}

/** This user's live processes whose initial environment carries any of `tagNames` (Linux only). */
export function processesTagged(tagNames: readonly string[]): KnownProcess[] {
  if (!hasProc() || tagNames.length === 0) return [];
  const needles = tagNames.map((name) => Buffer.from(`\0${name}=`));
  const uid = process.getuid?.();
  const found: KnownProcess[] = [];
  for (const pid of procPids()) {
    if (pid === process.pid) continue;
    try {
      if (uid !== undefined && statSync(`/proc/${pid}`).uid !== uid) continue;
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]);
      if (!needles.some((needle) => environ.includes(needle))) continue;
      const info = procStat(pid);
      if (info) found.push({ pid, start: info.start });
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** Descendants of `root` plus the processes carrying a tag, without duplicates. */
export function strayProcesses(root: number | undefined, tagNames: readonly string[]): KnownProcess[] {
  const byPid = new Map<number, KnownProcess>();
  for (const p of [...(root === undefined ? [] : descendantsOf(root)), ...processesTagged(tagNames)]) byPid.set(p.pid, p);
  return [...byPid.values()];
}

/** Signals each process that is still the one remembered; a gone or reused pid is skipped. */
export function signalKnown(processes: Iterable<KnownProcess>, signal: NodeJS.Signals): void {
  for (const p of processes) {
    if (p.pid === process.pid) continue;
    if (hasProc() && p.start !== 0 && procStat(p.pid)?.start !== p.start) continue;
    try {
      process.kill(p.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function isLive(p: KnownProcess): boolean {
  if (!hasProc()) {
    try {
      process.kill(p.pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  const info = procStat(p.pid);
  return info !== undefined && (p.start === 0 || info.start === p.start);
}

function groupHasLiveMember(pgid: number): boolean {
  if (hasProc()) return procPids().some((pid) => procStat(pid)?.pgrp === pgid);
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves once no live process is left in group `pgid` and none of `known` lives on, polling, or after
 * `timeoutMs`: a SIGKILL is delivered asynchronously, so "signalled" is not yet "gone". Zombies count
 * as gone (their parent, or whatever adopted them, reaps them; nothing of theirs runs). Returns whether
 * everything was gone in time.
 */
export async function waitUntilGone(pgid: number | undefined, known: Iterable<KnownProcess>, timeoutMs: number): Promise<boolean> {
  const watched = [...known];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = (pgid !== undefined && groupHasLiveMember(pgid)) || watched.some(isLive);
    if (!alive) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
