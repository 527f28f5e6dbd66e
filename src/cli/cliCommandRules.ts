/**
 * Command rules in the CLI (src/agent/commandRules.ts decides). The user's rules come from
 * `SPROUT_AGENT_COMMAND_RULES` (a JSON list, as `sprout.tools.commandRules`); the workspace's
 * `.vscode/settings.json` may add deny rules only (its allow rules are ignored with a note, so a cloned
 * repository cannot allow commands). A rule that is not valid is named on stderr and ignored.
 *
 * The CLI asks no one, so for `run_command` (the workspace server's shell tool): a command a rule
 * denies is refused with the rule's name; once the user has allow rules, a command they do not allow
 * (every part of a compound) is refused too; with no allow rules, what no rule denies runs as before.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { combineRules, deniedText, judgeCommand, type CommandRule, type CommandVerdict, type ParsedRules, type RegexCompiler, type RuleSource } from '../agent/commandRules';
import { ConfigError } from '../agent/settings';
import type { ToolCallResult, ToolInfo } from '../agent/messages';
import type { ToolCallOptions, ToolHost, ToolHostEvent, ToolListOptions } from '../agent/ports';
import type { ResourceHost } from '../agent/resources';
import { qualifyToolName } from '../agent/toolNames';
import { SPROUT_SHELL_TOOL } from '../agentHooks/agentToolNames';
import { stripJsonComments } from '../mcp/jsonc';
import { linearRegex } from '../servers/common/linearRegex';
import type { Env } from './cliSettings';

export const RULES_ENV = 'SPROUT_AGENT_COMMAND_RULES';
export const RULES_KEY = 'sprout.tools.commandRules';

/** Regexes of rules run on RE2's linear engine (the CLI process does not switch V8's on). */
export const linearCompiler: RegexCompiler = (source, caseInsensitive) => linearRegex(source, !caseInsensitive);

/** A JSON list of rules given as text (the variable, or `--command-rules`); not JSON is a ConfigError naming `name`. */
function userValue(raw: string | undefined, name: string): unknown {
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(name, `${name}: not JSON (${(error as Error).message}). Expected a list like [{"allow":"npm test"},{"deny":"rm"}].`);
  }
}

/** The workspace's `.vscode/settings.json` value, if it has one (an unreadable file is said, not fatal). */
function workspaceValue(workspaceFolder: string, notes: string[]): unknown {
  let text: string;
  try {
    text = readFileSync(join(workspaceFolder, '.vscode', 'settings.json'), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const json: unknown = JSON.parse(stripJsonComments(text));
    return json !== null && typeof json === 'object' ? (json as Record<string, unknown>)[RULES_KEY] : undefined;
  } catch (error) {
    notes.push(`.vscode/settings.json is not JSON (${(error as Error).message}); its ${RULES_KEY} are not read`);
    return undefined;
  }
}

/** The rules of this run, user's first, and one note per entry ignored. */
export function cliCommandRules(env: Env, workspaceFolder: string): ParsedRules {
  return commandRulesFrom(env[RULES_ENV], RULES_ENV, workspaceFolder);
}

/** The user's rules as JSON text (named `name` in messages) and the workspace's deny rules. */
export function commandRulesFrom(userJson: string | undefined, name: string, workspaceFolder: string): ParsedRules {
  const notes: string[] = [];
  const sources: RuleSource[] = [
    { name, mayAllow: true, value: userValue(userJson, name) },
    { name: `.vscode/settings.json ${RULES_KEY}`, mayAllow: false, value: workspaceValue(workspaceFolder, notes) },
  ];
  const parsed = combineRules(sources, linearCompiler);
  return { rules: parsed.rules, problems: [...notes, ...parsed.problems] };
}

/** The CLI's verdict on one command: the rule verdict, with "ask" refused once the user has allow rules. */
export function cliCommandVerdict(command: string, rules: readonly CommandRule[]): CommandVerdict | { kind: 'run' } {
  const verdict = judgeCommand(command, rules);
  if (verdict.kind === 'ask' && !rules.some((rule) => rule.kind === 'allow')) return { kind: 'run' };
  return verdict;
}

export function notAllowedText(reason: string): string {
  return `Not run: ${reason}, and the CLI asks no one (with ${RULES_ENV} allow rules set, only what they allow runs). Do not retry it; ask the user to add a rule, or take another approach.`;
}

/** A ToolHost decorator that applies the rules to the shell tool before anything else authorises it. */
export class CommandRulesToolHost implements ToolHost {
  constructor(
    private readonly inner: ToolHost,
    private readonly rules: readonly CommandRule[],
  ) {}

  /** The servers' resources, forwarded (resources.ts): command rules judge only the shell tool. */
  get resources(): ResourceHost | undefined {
    return this.inner.resources;
  }

  serverNames(): string[] {
    return this.inner.serverNames();
  }

  listTools(signal?: AbortSignal, options?: ToolListOptions): Promise<ToolInfo[]> {
    return this.inner.listTools(signal, options);
  }

  cachedTools(): ToolInfo[] | undefined {
    return this.inner.cachedTools?.();
  }

  async authorize(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult | undefined> {
    const refusal = this.refusal(server, bareName, args);
    if (refusal !== undefined) return { isError: true, text: refusal };
    return this.inner.authorize?.(server, bareName, args, signal);
  }

  callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    // The core authorises first; a caller that did not is judged here the same way.
    const refusal = this.refusal(server, bareName, args);
    return refusal === undefined ? this.inner.callTool(server, bareName, args, options) : Promise.resolve({ isError: true, text: refusal });
  }

  killServer(server: string, reason: string): Promise<void> {
    return this.inner.killServer(server, reason);
  }

  subscribe(listener: (event: ToolHostEvent) => void): () => void {
    return this.inner.subscribe(listener);
  }

  private refusal(server: string, bareName: string, args: Record<string, unknown>): string | undefined {
    if (qualifyToolName(server, bareName) !== SPROUT_SHELL_TOOL || typeof args.command !== 'string') return undefined;
    const verdict = cliCommandVerdict(args.command, this.rules);
    if (verdict.kind === 'deny') return deniedText(verdict);
    if (verdict.kind === 'ask') return notAllowedText(verdict.reason);
    return undefined;
  }
}
