/**
 * Reading and changing the hook entries of an agent's config file, as pure functions over its text:
 * `planInstall` merges Sprout's bridge entries in (replacing Sprout's own earlier ones, never touching
 * the user's), `planUninstall` takes them out again, `readHookEntries` lists every command hook the
 * file defines (for `hooks check`, and for running other agents' hooks as Sprout hooks). A file that
 * is not a JSON object is an error naming it, never overwritten; the file's indentation is kept.
 */
import type { AgentFormat } from './agentFormat';

export class HookConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HookConfigError';
  }
}

/** One hook entry Sprout writes: the bridge command for one agent event. */
export interface BridgeEntry {
  event: string;
  command: string;
  timeoutMs: number;
}

/** A command hook found in a config file. */
export interface FoundHook {
  event: string;
  command: string;
  matcher?: string;
  timeoutMs?: number;
}

export interface ConfigPlan {
  /** The file's new text; equal to the old one when nothing changes. */
  text: string;
  changed: boolean;
  /** `event: command` of each entry written, and of each entry of Sprout's taken out. */
  added: string[];
  removed: string[];
}

/**
 * The agent's own timeout for a bridge call, written into each entry: only a backstop, since the
 * bridge bounds itself (hook timeouts), but a first call also starts the hook servers.
 */
export const BRIDGE_AGENT_TIMEOUT_MS = 300_000;

/** One word of a POSIX shell command line, quoted when it needs to be. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command an agent runs for `event`: `<program> hooks run --agent <id> <event> <options>` (`program` already quoted). */
export function bridgeCommandLine(program: string, agent: string, event: string, options: readonly string[]): string {
  return [program, 'hooks', 'run', '--agent', agent, event, ...options.map(shellQuote)].join(' ');
}

/** A command line Sprout's install wrote: `<sprout-agent or .../cli.js> hooks run --agent <id> <event>`. */
export function isBridgeCommand(command: string): boolean {
  return /(sprout-agent|cli\.js)["']?\s+hooks run --agent \w+/.test(command);
}

type Json = Record<string, unknown>;

function parseFile(text: string | undefined, file: string): Json {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HookConfigError(`${file} is not valid JSON (${(error as Error).message}); Sprout changes only files it can read exactly. Fix it, or add the entries by hand.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HookConfigError(`${file} is not a JSON object; Sprout changes only files it can read exactly. Fix it, or add the entries by hand.`);
  const hooks = (value as Json).hooks;
  if (hooks !== undefined && (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks))) {
    throw new HookConfigError(`${file}: "hooks" is not an object; fix it before Sprout adds entries to it.`);
  }
  return value as Json;
}

function indentOf(text: string | undefined): string | number {
  const match = text === undefined ? null : /\n([ \t]+)"/.exec(text);
  return match?.[1] ?? 2;
}

function entryCommand(format: AgentFormat, entry: unknown): string | undefined {
  if (entry === null || typeof entry !== 'object') return undefined;
  const e = entry as Json;
  const command = e[format.config.commandKey] ?? e.command ?? e.bash;
  return typeof command === 'string' ? command : undefined;
}

function timeoutOf(format: AgentFormat, entry: Json): number | undefined {
  const value = entry[format.config.timeout.key];
  if (typeof value !== 'number' || !(value > 0)) return undefined;
  return format.config.timeout.unit === 's' ? value * 1000 : value;
}

/** Each event's entries as [group matcher, entry] pairs, whatever the layout. */
function entriesOf(format: AgentFormat, list: unknown[]): { matcher?: string; entry: Json }[] {
  if (format.config.layout === 'flat') return list.filter((e): e is Json => e !== null && typeof e === 'object').map((entry) => ({ ...(typeof entry.matcher === 'string' ? { matcher: entry.matcher } : {}), entry }));
  return list.flatMap((group) => {
    if (group === null || typeof group !== 'object') return [];
    const g = group as Json;
    const inner = Array.isArray(g.hooks) ? g.hooks : [];
    return inner.filter((e): e is Json => e !== null && typeof e === 'object').map((entry) => ({ ...(typeof g.matcher === 'string' ? { matcher: g.matcher } : {}), entry }));
  });
}

export function readHookEntries(format: AgentFormat, text: string | undefined, file: string): FoundHook[] {
  const hooks = (parseFile(text, file).hooks ?? {}) as Json;
  const found: FoundHook[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    for (const { matcher, entry } of entriesOf(format, list)) {
      const command = entryCommand(format, entry);
      if (command === undefined) continue;
      const timeoutMs = timeoutOf(format, entry);
      found.push({ event, command, ...(matcher !== undefined ? { matcher } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
    }
  }
  return found;
}

/** The event's list without Sprout's entries (empty groups dropped); the commands taken out go to `removed`. */
function withoutOurs(format: AgentFormat, event: string, list: unknown[], removed: string[]): unknown[] {
  const ours = (entry: unknown): boolean => {
    const command = entryCommand(format, entry);
    if (command === undefined || !isBridgeCommand(command)) return false;
    removed.push(`${event}: ${command}`);
    return true;
  };
  if (format.config.layout === 'flat') return list.filter((entry) => !ours(entry));
  return list.flatMap((group) => {
    if (group === null || typeof group !== 'object' || !Array.isArray((group as Json).hooks)) return [group];
    const inner = ((group as Json).hooks as unknown[]).filter((entry) => !ours(entry));
    return inner.length === 0 ? [] : [{ ...(group as Json), hooks: inner }];
  });
}

function newEntry(format: AgentFormat, spec: BridgeEntry): Json {
  const { timeout, commandKey, entryBase } = format.config;
  const value = timeout.unit === 's' ? Math.max(1, Math.ceil(spec.timeoutMs / 1000)) : spec.timeoutMs;
  const entry = { ...entryBase, [commandKey]: spec.command, [timeout.key]: value };
  return format.config.layout === 'flat' ? entry : { hooks: [entry] };
}

function plan(format: AgentFormat, text: string | undefined, file: string, entries: readonly BridgeEntry[]): ConfigPlan {
  const json = parseFile(text, file);
  const hooks = { ...((json.hooks ?? {}) as Json) };
  const removed: string[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    const kept = withoutOurs(format, event, list, removed);
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  for (const spec of entries) hooks[spec.event] = [...((hooks[spec.event] as unknown[] | undefined) ?? []), newEntry(format, spec)];
  const next: Json = Object.keys(hooks).length === 0 && entries.length === 0 ? withoutKey(json, 'hooks') : { ...format.config.fileBase, ...json, hooks };
  const unchanged = text !== undefined && JSON.stringify(next) === JSON.stringify(json);
  return unchanged
    ? { text, changed: false, added: [], removed: [] }
    : { text: `${JSON.stringify(next, null, indentOf(text))}\n`, changed: true, added: entries.map((e) => `${e.event}: ${e.command}`), removed };
}

function withoutKey(json: Json, key: string): Json {
  const copy = { ...json };
  delete copy[key];
  return copy;
}

function entryKey(event: string, command: string, timeoutMs: number | undefined, format: AgentFormat): string {
  const t = timeoutMs === undefined ? '' : format.config.timeout.unit === 's' ? Math.max(1, Math.ceil(timeoutMs / 1000)) : timeoutMs;
  return `${event}\u0000${command}\u0000${t}`;
}

/**
 * Merges `entries` into the file (Sprout's earlier entries replaced, everything else kept). Idempotent:
 * when the file already holds exactly these entries of Sprout's, it is left as it is.
 */
export function planInstall(format: AgentFormat, text: string | undefined, file: string, entries: readonly BridgeEntry[]): ConfigPlan {
  const present = readHookEntries(format, text, file).filter((h) => isBridgeCommand(h.command));
  const have = present.map((h) => entryKey(h.event, h.command, h.timeoutMs, format)).sort();
  const want = entries.map((e) => entryKey(e.event, e.command, e.timeoutMs, format)).sort();
  if (text !== undefined && have.length === want.length && have.every((k, i) => k === want[i])) return { text, changed: false, added: [], removed: [] };
  return plan(format, text, file, entries);
}

/** Takes Sprout's entries out of the file and leaves everything else as it was. */
export function planUninstall(format: AgentFormat, text: string | undefined, file: string): ConfigPlan {
  if (text === undefined) return { text: '', changed: false, added: [], removed: [] };
  return plan(format, text, file, []);
}
