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

/**
 * Times `a` and `b` once each per pair, in an order that alternates (ab, ba, ab, ...) so that drift,
 * leftover GC work and a warm or cold connection fall on both alike, until `iterations` pairs are timed.
 * `prepare(i)` runs untimed before pair i (fresh state, so every sample measures the same work); the
 * first `warmup` pairs and those `untimed(i)` names run, on both sides, without being timed. Returns
 * the samples and how many pairs ran in all.
 */
export async function timePairs(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  options: { iterations: number; warmup: number; prepare?: (pair: number) => Promise<unknown>; untimed?: (pair: number) => boolean },
): Promise<PairedSamples & { pairs: number }> {
  const out: PairedSamples = { a: [], b: [] };
  const timed = async (run: () => Promise<unknown>, into: number[] | undefined): Promise<void> => {
    const start = performance.now();
    await run();
    into?.push(performance.now() - start);
  };
  let i = 0;
  for (; out.a.length < options.iterations; i++) {
    const keep = i >= options.warmup && options.untimed?.(i) !== true;
    await options.prepare?.(i);
    if (i % 2 === 0) {
      await timed(a, keep ? out.a : undefined);
      await timed(b, keep ? out.b : undefined);
    } else {
      await timed(b, keep ? out.b : undefined);
      await timed(a, keep ? out.a : undefined);
    }
  }
  return { ...out, pairs: i };
}
