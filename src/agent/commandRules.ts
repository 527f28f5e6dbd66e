/**
 * Command rules (`sprout.tools.commandRules`, the CLI's `SPROUT_AGENT_COMMAND_RULES`): allow or deny a
 * shell command by prefix or `/regex/`, one pure decision shared by the editor's approvals, the CLI and
 * the `_PreToolUse` policy `hooks install` writes for other agents.
 *
 * - A rule is `{ "allow": "npm test" }` or `{ "deny": "/^git push .*--force/" }`. A prefix matches whole
 *   words from the start of a simple command (`npm test` matches `npm test -- -t x`, never `npm testx`);
 *   a `/regex/` (flag `i` allowed) must match the whole simple command, its words joined by one space.
 * - A command is split into its simple commands (shellWords.ts): it is allowed only when every part is
 *   allowed, denied when any part is denied (deny wins), otherwise asked. What cannot be read is never
 *   allowed by rule (a deny still applies to the text as written).
 * - Trust: rules from a workspace can only deny (a cloned repository must not allow commands on the
 *   user's behalf); their allow rules are ignored with a note. Only the user's own rules allow.
 * - Regexes run on a linear-time engine the host passes in (`compile`), so no pattern backtracks for
 *   hours; a pattern that is not valid, or that no linear engine can run, is named and ignored.
 */
import { ShellParseError, shellParts, type ShellPart } from './shellWords';

export interface LinearMatcher {
  test(text: string): boolean;
}

/** Compiles a regex source for a linear-time engine; throws with a readable message when it cannot. */
export type RegexCompiler = (source: string, caseInsensitive: boolean) => LinearMatcher;

export interface CommandRule {
  kind: 'allow' | 'deny';
  /** The pattern as written (`npm test`, `/^git (status|diff)$/`). */
  pattern: string;
  /** Where it came from, for messages: `user settings sprout.tools.commandRules[2]`. */
  origin: string;
  matches(part: ShellPart): boolean;
}

export interface RuleSource {
  /** Names the list in messages: `user settings sprout.tools.commandRules`. */
  name: string;
  /** False for a workspace's rules: its allow rules are ignored with a note. */
  mayAllow: boolean;
  value: unknown;
}

export interface ParsedRules {
  rules: CommandRule[];
  /** One sentence per ignored entry, naming the source and the index. */
  problems: string[];
}

export type CommandVerdict =
  | { kind: 'allow'; rules: CommandRule[] }
  | { kind: 'deny'; rule: CommandRule; part: string }
  | { kind: 'ask'; reason: string };

function prefixRule(words: readonly string[]): (part: ShellPart) => boolean {
  return (part) => words.length > 0 && words.every((word, i) => part[i] === word);
}

function regexRule(pattern: string, compile: RegexCompiler): ((part: ShellPart) => boolean) | string {
  const match = /^\/(.*)\/(i?)$/s.exec(pattern);
  if (match === null) return 'a regex is written /pattern/ or /pattern/i';
  try {
    const matcher = compile(`^(?:${match[1]})$`, match[2] === 'i');
    return (part) => matcher.test(part.join(' '));
  } catch (error) {
    return (error as Error).message;
  }
}

function oneRule(entry: unknown, origin: string, source: RuleSource, compile: RegexCompiler): CommandRule | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'expected { "allow": "..." } or { "deny": "..." }';
  const keys = Object.keys(entry);
  const kind = keys.length === 1 && (keys[0] === 'allow' || keys[0] === 'deny') ? keys[0] : undefined;
  const pattern = kind === undefined ? undefined : (entry as Record<string, unknown>)[kind];
  if (kind === undefined || typeof pattern !== 'string' || pattern.trim() === '') return 'expected exactly one of "allow" or "deny", with a non-empty text';
  if (kind === 'allow' && !source.mayAllow) return 'ignored: a workspace\'s rules can only deny; put allow rules in your user settings';
  let matches: ((part: ShellPart) => boolean) | string;
  if (pattern.startsWith('/')) matches = regexRule(pattern, compile);
  else {
    try {
      matches = prefixRule(shellParts(pattern)[0] ?? []);
      if (shellParts(pattern).length !== 1) matches = 'a prefix is one simple command (no ;, &&, |, redirections)';
    } catch (error) {
      matches = (error as Error).message;
    }
  }
  return typeof matches === 'string' ? matches : { kind, pattern, origin, matches };
}

/** The rules of one source; an entry that is not a rule is named in `problems` and left out. */
export function parseCommandRules(source: RuleSource, compile: RegexCompiler): ParsedRules {
  if (source.value === undefined || source.value === null) return { rules: [], problems: [] };
  if (!Array.isArray(source.value)) return { rules: [], problems: [`${source.name}: expected a list of rules, ignored`] };
  const rules: CommandRule[] = [];
  const problems: string[] = [];
  source.value.forEach((entry: unknown, index) => {
    const origin = `${source.name}[${index}]`;
    const rule = oneRule(entry, origin, source, compile);
    if (typeof rule === 'string') problems.push(`${origin} ${JSON.stringify(entry)}: ${rule}`);
    else rules.push(rule);
  });
  return { rules, problems };
}

/** Several sources' rules as one list (their problems kept). */
export function combineRules(sources: readonly RuleSource[], compile: RegexCompiler): ParsedRules {
  const parsed = sources.map((source) => parseCommandRules(source, compile));
  return { rules: parsed.flatMap((p) => p.rules), problems: parsed.flatMap((p) => p.problems) };
}

export function describeRule(rule: CommandRule): string {
  return `${rule.kind} "${rule.pattern}" (${rule.origin})`;
}

/** Deny wins; allowed only when every part is allowed; everything else is asked. */
export function judgeCommand(command: string, rules: readonly CommandRule[]): CommandVerdict {
  let parts: ShellPart[];
  try {
    parts = shellParts(command);
  } catch (error) {
    if (!(error instanceof ShellParseError)) throw error;
    const raw = command.trim().split(/\s+/);
    const deny = rules.find((rule) => rule.kind === 'deny' && rule.matches(raw));
    if (deny) return { kind: 'deny', rule: deny, part: command.trim() };
    return { kind: 'ask', reason: `the command could not be read for rules (${error.message})` };
  }
  if (parts.length === 0) return { kind: 'ask', reason: 'the command is empty' };
  for (const part of parts) {
    const deny = rules.find((rule) => rule.kind === 'deny' && rule.matches(part));
    if (deny) return { kind: 'deny', rule: deny, part: part.join(' ') };
  }
  const used: CommandRule[] = [];
  for (const part of parts) {
    const allow = rules.find((rule) => rule.kind === 'allow' && rule.matches(part));
    if (!allow) return { kind: 'ask', reason: `no rule allows \`${part.join(' ')}\`` };
    if (!used.includes(allow)) used.push(allow);
  }
  return { kind: 'allow', rules: used };
}

/** What "Always allow" offers for a command: its first words (`npm test`), or undefined when it is not one simple command. */
export function firstWords(command: string): string | undefined {
  let parts: ShellPart[];
  try {
    parts = shellParts(command);
  } catch {
    return undefined;
  }
  const [only, ...more] = parts;
  if (only === undefined || more.length > 0) return undefined;
  const words: string[] = [];
  for (const word of only) {
    if (words.length === 2 || word.startsWith('-') || !/^[\w@./:+=-]+$/.test(word)) break;
    words.push(word);
  }
  return words.length === 0 ? undefined : words.join(' ');
}

/** The refusal the model reads when a rule denies a command. */
export function deniedText(verdict: Extract<CommandVerdict, { kind: 'deny' }>): string {
  return `Refused by the command rule ${describeRule(verdict.rule)}: \`${verdict.part}\` is denied. Do not retry it; ask the user or take another approach.`;
}
