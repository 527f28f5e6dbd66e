/**
 * CPU time for benches on a busy machine, where wall-clock time mostly measures the other load: what
 * the processes doing the work spent on a CPU, read from Linux's /proc (clock ticks, 10 ms). A child
 * this process spawned and waited for adds its whole CPU time to our cutime/cstime when it is reaped,
 * so the delta across one awaited run is that child's CPU; the ticks are cut from a running nanosecond
 * total, so the deltas of many runs add up to their true sum within one tick. Averages are therefore
 * taken as totals over runs (a median of 10 ms steps would say little). Elsewhere than Linux: undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on every Linux the kernel ABI allows (sysconf(_SC_CLK_TCK)).

/** Fields after the command name in /proc/<pid>/stat: [0] is field 3 (state). */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU ms of a live process (user + system), undefined when it cannot be read. */
export function processCpuMs(pid: number): number | undefined {
  const f = statFields(pid);
  return f === undefined ? undefined : (Number(f[11]) + Number(f[12])) * TICK_MS;
}

/** CPU ms of every child this process has reaped so far (user + system). */
export function reapedChildrenCpuMs(): number | undefined {
  const f = statFields('self');
  return f === undefined ? undefined : (Number(f[13]) + Number(f[14])) * TICK_MS;
}

/** The live processes whose parent is `pid` (Linux), for adding a server's CPU to its host's. */
export function childPids(pid: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n) && Number(statFields(Number(n))?.[1]) === pid).map(Number);
}

/** CPU ms of `pids` together; undefined when one cannot be read. */
export function cpuMsOf(pids: readonly number[]): number | undefined {
  let sum = 0;
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms === undefined) return undefined;
    sum += ms;
  }
  return sum;
}

/** Running totals of CPU ms per side, and how many runs each total covers. */
export class CpuTally {
  private readonly totals = new Map<string, { ms: number; runs: number }>();

  add(side: string, ms: number): void {
    const t = this.totals.get(side) ?? { ms: 0, runs: 0 };
    t.ms += ms;
    t.runs += 1;
    this.totals.set(side, t);
  }

  /** Mean CPU ms per run of `side`; NaN when nothing was measured. */
  mean(side: string): number {
    const t = this.totals.get(side);
    return t === undefined || t.runs === 0 ? NaN : t.ms / t.runs;
  }
}
