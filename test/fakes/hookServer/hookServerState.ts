/**
 * The FakeHookServer's durable bits: the JSON-lines call log tests read, and the counters file that
 * keeps behaviour (objections given) across a kill and restart. Written synchronously so a crash or
 * SIGKILL right after a call never loses the record of it.
 */
import { appendFileSync, readFileSync, writeFileSync, existsSync } from 'node:fs';

export interface HookServerLogEntry {
  type: 'started' | 'request' | 'call' | 'cancelled' | 'sigterm';
  pid: number;
  /** A request's method (`server/discover`, `initialize`, `tools/list`, ...). */
  method?: string;
  at: number;
  tool?: string;
  arguments?: unknown;
  meta?: unknown;
  requestId?: string | number;
  reason?: string;
}

export function appendLog(file: string | undefined, entry: Omit<HookServerLogEntry, 'pid' | 'at'>): void {
  if (!file) return;
  appendFileSync(file, JSON.stringify({ ...entry, pid: process.pid, at: Date.now() }) + '\n');
}

/** Reads a log file written by the server; missing file = no entries. */
export function readHookServerLog(file: string): HookServerLogEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HookServerLogEntry);
}

type Counters = Record<string, number>;

function readCounters(file: string | undefined, memory: Counters): Counters {
  if (!file || !existsSync(file)) return memory;
  return JSON.parse(readFileSync(file, 'utf8')) as Counters;
}

const memoryCounters: Counters = {};

/** Increments and returns the counter `key`. */
export function bumpCounter(file: string | undefined, key: string): number {
  const counters = readCounters(file, memoryCounters);
  const next = (counters[key] ?? 0) + 1;
  counters[key] = next;
  if (file) writeFileSync(file, JSON.stringify(counters));
  return next;
}

export function getCounter(file: string | undefined, key: string): number {
  return readCounters(file, memoryCounters)[key] ?? 0;
}
