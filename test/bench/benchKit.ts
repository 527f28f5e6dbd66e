/**
 * Shared bench helpers: timing with warm-up and medians (robust on a noisy shared box), the FakeHookServer
 * bundled once to plain JS (so 30+ servers start without a TypeScript loader each), and temp folders.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import type { McpServerConfig } from '../../src/mcp/config';
import { HOOK_SERVER_ENTRY, HOOK_SERVER_ENV, type HookServerConfig } from '../fakes/hookServer';

export interface Timing {
  medianMs: number;
  meanMs: number;
  samples: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Times each variant `iterations` times, interleaved (a, b, a, b, ...) so background noise hits all of
 * them alike, after `warmup` untimed runs of each.
 */
export async function timeSideBySide(
  variants: Record<string, () => Promise<unknown>>,
  iterations: number,
  warmup = 3,
): Promise<Record<string, Timing>> {
  const names = Object.keys(variants);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < warmup; i++) for (const name of names) await variants[name]?.();
  for (let i = 0; i < iterations; i++) {
    for (const name of names) {
      const start = performance.now();
      await variants[name]?.();
      samples[name]?.push(performance.now() - start);
    }
  }
  const out: Record<string, Timing> = {};
  for (const name of names) {
    const s = samples[name] ?? [];
    out[name] = { medianMs: median(s), meanMs: s.reduce((a, b) => a + b, 0) / s.length, samples: s.length };
  }
  return out;
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
 * Times `a` and `b` once each per iteration, in an order that alternates (ab, ba, ab, ...) so that
 * drift, leftover GC work and a warm or cold connection fall on both alike. `prepare` runs untimed
 * before each pair (fresh state, so every sample measures the same work).
 */
export async function timePairs(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  options: { iterations: number; warmup: number; prepare?: () => Promise<unknown> },
): Promise<PairedSamples> {
  const out: PairedSamples = { a: [], b: [] };
  const timed = async (run: () => Promise<unknown>, into: number[] | undefined): Promise<void> => {
    const start = performance.now();
    await run();
    into?.push(performance.now() - start);
  };
  for (let i = 0; i < options.warmup + options.iterations; i++) {
    const keep = i >= options.warmup;
    await options.prepare?.();
    if (i % 2 === 0) {
      await timed(a, keep ? out.a : undefined);
      await timed(b, keep ? out.b : undefined);
    } else {
      await timed(b, keep ? out.b : undefined);
      await timed(a, keep ? out.a : undefined);
    }
  }
  return out;
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bundles the FakeHookServer to one JS file in `dir`; returns its path. */
export function bundleHookServer(dir: string): string {
  const outfile = join(dir, 'hookServer.js');
  buildSync({ entryPoints: [HOOK_SERVER_ENTRY], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error' });
  return outfile;
}

export function bundledHookServerConfig(entry: string, name: string, config: HookServerConfig): McpServerConfig {
  return {
    name,
    transport: { type: 'stdio', command: process.execPath, args: [entry], env: { [HOOK_SERVER_ENV]: JSON.stringify(config) } },
  };
}

export const fmt = (ms: number): string => `${ms.toFixed(2)} ms`;
export const pct = (ratio: number): string => `${((ratio - 1) * 100).toFixed(1)}%`;
