/**
 * The other direction's input: the command hooks another agent's config file defines, read strictly
 * (zod) so a file Sprout cannot read is an error naming the file and the place in it, never a silently
 * missing guard rail. A file becomes one hook source: Sprout presents it as one hook "server" (named
 * from its path) whose hooks are the Sprout hooks its events map to, so the caller and gate MCP hooks
 * use apply unchanged (docs/hooks.md#hooks-from-other-agents-files). Pure: no I/O.
 */
import { matchesWhole } from './linearMatcher';
import { z } from 'zod';
import type { AgentFormat, AgentId } from './agentFormat';
import { HookConfigError, isBridgeCommand } from './hookConfig';
import { HOOK_NAMES, type HookName } from '../agent/events';

/** The formats whose files Sprout runs (Kiro's agent files are per agent, not the project's hooks). */
export const SOURCE_FORMAT_IDS = ['claude', 'codex', 'gemini', 'copilot', 'cursor'] as const satisfies readonly AgentId[];

/** One command a source runs for one of its agent's events. */
export interface CommandHook {
  event: string;
  command: string;
  /** The group's (or entry's) matcher: a tool-name pattern, or a session source for SessionStart. */
  matcher?: string;
  /** The entry's own timeout; Sprout's hook timeout caps it. */
  timeoutMs?: number;
  /** Copilot's per-entry working folder, relative to the workspace. */
  cwd?: string;
}

export interface ParsedSource {
  hooks: CommandHook[];
  /** Entries and events that are read but not run, each said once (`PreCompact: no Sprout hook`). */
  skipped: string[];
}

const positive = z.number().positive().optional();
const groupedEntry = z.looseObject({ type: z.string(), command: z.string().optional(), timeout: positive });
const group = z.looseObject({ matcher: z.string().optional(), hooks: z.array(groupedEntry) });
const flatEntry = z.looseObject({ type: z.string().optional(), command: z.string().optional(), bash: z.string().optional(), matcher: z.string().optional(), timeout: positive, timeoutSec: positive, cwd: z.string().optional() });
const settingsFile = z.looseObject({ hooks: z.record(z.string(), z.unknown()).optional() });
/** Keys some Gemini CLI versions keep inside `hooks` that are settings, not events. */
const GEMINI_SETTING_KEYS = new Set(['enabled', 'disabled', 'notifications']);

function issuesText(error: z.ZodError, prefix: string): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join('.')}: ${i.message}`)
    .join('; ');
}

function strict<T extends z.ZodType>(schema: T, value: unknown, file: string, path: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HookConfigError(`${file}: ${issuesText(parsed.error, path)}. Fix the file; Sprout runs none of its hooks until it reads it exactly.`);
  return parsed.data;
}

function msOf(format: AgentFormat, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  return format.config.timeout.unit === 's' ? value * 1000 : value;
}

function eventEntries(format: AgentFormat, file: string, event: string, list: unknown, skipped: string[]): CommandHook[] {
  const path = `hooks.${event}`;
  if (format.config.layout === 'flat') {
    return strict(z.array(flatEntry), list, file, path).flatMap((e, i) => {
      const command = format.config.commandKey === 'bash' ? e.bash : e.command;
      if (e.type !== undefined && e.type !== 'command') return (skipped.push(`${event}[${i}]: type "${e.type}" is not a command`), []);
      if (command === undefined || command.trim() === '') throw new HookConfigError(`${file}: ${path}[${i}] has no "${format.config.commandKey}" command to run.`);
      const timeoutMs = msOf(format, format.config.timeout.key === 'timeoutSec' ? e.timeoutSec : e.timeout);
      return [{ event, command, ...(e.matcher !== undefined ? { matcher: e.matcher } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(e.cwd !== undefined ? { cwd: e.cwd } : {}) }];
    });
  }
  return strict(z.array(group), list, file, path).flatMap((g, gi) =>
    g.hooks.flatMap((e, i) => {
      if (e.type !== 'command') return (skipped.push(`${event}[${gi}].hooks[${i}]: type "${e.type}" is not a command`), []);
      if (e.command === undefined || e.command.trim() === '') throw new HookConfigError(`${file}: ${path}[${gi}].hooks[${i}] has type "command" but no command.`);
      const timeoutMs = msOf(format, e.timeout);
      return [{ event, command: e.command, ...(g.matcher !== undefined ? { matcher: g.matcher } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) }];
    }),
  );
}

/**
 * The command hooks of one config file of `format`. Throws HookConfigError naming `file` and the
 * place in it for anything it cannot read exactly. Sprout's own bridge entries (`hooks run`) are left
 * out: Sprout already calls those servers itself.
 */
export function parseHookSource(format: AgentFormat, text: string, file: string): ParsedSource {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HookConfigError(`${file} is not valid JSON (${(error as Error).message}). Fix the file; Sprout runs none of its hooks until it reads it exactly.`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new HookConfigError(`${file} is not a JSON object.`);
  const hooks = strict(settingsFile, json, file, '').hooks ?? {};
  const skipped: string[] = [];
  const found: CommandHook[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (format.id === 'gemini' && GEMINI_SETTING_KEYS.has(event)) continue;
    const entries = eventEntries(format, file, event, list, skipped);
    if (format.events[event] === undefined) {
      if (entries.length > 0) skipped.push(`${event}: no Sprout hook matches this ${format.displayName} event`);
      continue;
    }
    found.push(...entries.filter((h) => !isBridgeCommand(h.command)));
  }
  return { hooks: found, skipped };
}

/** The agent events whose commands run for Sprout's `hook` (Claude Code and Codex re-inject after compaction at SessionStart). */
export function eventsForHook(format: AgentFormat, hook: HookName): string[] {
  const direct = Object.keys(format.events).filter((event) => format.events[event] === hook);
  if (direct.length > 0 || hook !== '_PostCompact' || (format.id !== 'claude' && format.id !== 'codex')) return direct;
  return Object.keys(format.events).filter((event) => format.events[event] === '_SessionStart');
}

/** The Sprout hooks a source serves: those its commands' events map to. */
export function hooksServed(format: AgentFormat, hooks: readonly CommandHook[]): HookName[] {
  return HOOK_NAMES.filter((hook) => hooks.some((h) => eventsForHook(format, hook).includes(h.event)));
}

/**
 * The hook "server" name of a source: its path without dots and extension (`.claude/settings.json`
 * is `claude-settings`), `user-` in front for a file in the home folder. Short enough that
 * `<name>___<Hook>` fits a model provider's 64-character tool names.
 */
export function sourceName(relativeFile: string, scope: 'workspace' | 'user'): string {
  const slug = relativeFile
    .replace(/\.json$/i, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${scope === 'user' ? 'user-' : ''}${slug}`.slice(0, 40).replace(/-+$/, '');
}

/**
 * Whether a command's matcher lets it run for this call: tool events match the tool's name (a
 * regular expression over the whole name; empty or `*` is every tool), a session start matches its
 * source (`startup`, `resume`, `compact`); other events run always. Matched in linear time (linearMatcher.ts).
 */
export function matcherAllows(matcher: string | undefined, subject: string | undefined): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*' || subject === undefined) return true;
  return matchesWhole(matcher, subject);
}
