/**
 * Bench statistics and paired timing, free of imports so the bundled timing child (loopRounds.ts)
 * can use them without pulling in the fakes' standalone entry points.
 */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The q-quantile (0..1) by linear interpolation between order statistics. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

export interface PairedSamples {
  a: number[];
  b: number[];
}

/** Wall-clock samples, and the same pairs' CPU time of this process (user + system, ms) beside them. */
export type TimedPairs = PairedSamples & { cpu: PairedSamples; pairs: number };

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Times `a` and `b` once each per pair, in an order that alternates (ab, ba, ab, ...) so that drift,
 * leftover GC work and a warm or cold connection fall on both alike, until `iterations` pairs are timed.
 * `prepare(i)` runs untimed before pair i (fresh state, so every sample measures the same work); the
 * first `warmup` pairs and those `untimed(i)` names run, on both sides, without being timed. Returns
 * the wall-clock samples, the CPU time this process spent in each same sample (`process.cpuUsage`,
 * user + system: work done elsewhere, as by a server in its own process, is not in it), and how many
 * pairs ran in all.
 */
export async function timePairs(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  options: { iterations: number; warmup: number; prepare?: (pair: number) => Promise<unknown>; untimed?: (pair: number) => boolean },
): Promise<TimedPairs> {
  const out: PairedSamples = { a: [], b: [] };
  const cpu: PairedSamples = { a: [], b: [] };
  const timed = async (run: () => Promise<unknown>, into: number[] | undefined, cpuInto: number[]): Promise<void> => {
    const startCpu = cpuMs();
    const start = performance.now();
    await run();
    const wall = performance.now() - start;
    const used = cpuMs() - startCpu;
    if (into === undefined) return;
    into.push(wall);
    cpuInto.push(used);
  };
  let i = 0;
  for (; out.a.length < options.iterations; i++) {
    const keep = i >= options.warmup && options.untimed?.(i) !== true;
    await options.prepare?.(i);
    if (i % 2 === 0) {
      await timed(a, keep ? out.a : undefined, cpu.a);
      await timed(b, keep ? out.b : undefined, cpu.b);
    } else {
      await timed(b, keep ? out.b : undefined, cpu.b);
      await timed(a, keep ? out.a : undefined, cpu.a);
    }
  }
  return { ...out, cpu, pairs: i };
}
