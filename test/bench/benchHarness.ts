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
import { median } from './benchStats';

export { median, quantile, timePairs, type PairedSamples, type TimedPairs } from './benchStats';

export interface Timing {
  medianMs: number;
  meanMs: number;
  samples: number;
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

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bundles the FakeHookServer to one JS file in `dir`; returns its path. */
export function bundleHookServer(dir: string): string {
  const outfile = join(dir, 'hookServer.js');
  buildSync({ entryPoints: [HOOK_SERVER_ENTRY], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node22', logLevel: 'error' });
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
