/**
 * `sprout.tools.commandRules` as the extension reads it (src/agent/commandRules.ts decides). The
 * configuration reader hands over each level apart (VS Code's `inspect()`): the user's rules may allow
 * and deny, a workspace's or folder's only deny (their allow rules are ignored with a notice, so a cloned
 * repository cannot allow commands on the user's behalf). An entry that is not a rule (a regex that is
 * not valid, or one no linear engine can run) is a settings error naming the level and index, and is
 * left out; the other rules still apply. Regexes run on RE2's linear engine.
 */
import { combineRules, type CommandRule, type RegexCompiler } from '../../agent/commandRules';
import { ConfigError } from '../../agent/settings';
import { linearRegex } from '../../servers/common/linearRegex';

export const COMMAND_RULES_KEY = 'sprout.tools.commandRules';

/** The setting's value at each level; a plain list (a default, a test) counts as the user's. */
export interface CommandRuleLevels {
  user?: unknown;
  workspace?: unknown;
  workspaceFolder?: unknown;
}

export const linearCompiler: RegexCompiler = (source, caseInsensitive) => linearRegex(source, !caseInsensitive);

function levelsOf(value: unknown): CommandRuleLevels {
  if (value === undefined || Array.isArray(value)) return { user: value };
  const levels = value as CommandRuleLevels;
  return value !== null && typeof value === 'object' && ('user' in levels || 'workspace' in levels || 'workspaceFolder' in levels) ? levels : { user: value };
}

export function readCommandRules(value: unknown, errors: ConfigError[]): CommandRule[] {
  const levels = levelsOf(value);
  const parsed = combineRules(
    [
      { name: `user settings ${COMMAND_RULES_KEY}`, mayAllow: true, value: levels.user },
      { name: `workspace settings ${COMMAND_RULES_KEY}`, mayAllow: false, value: levels.workspace },
      { name: `folder settings ${COMMAND_RULES_KEY}`, mayAllow: false, value: levels.workspaceFolder },
    ],
    linearCompiler,
  );
  for (const problem of parsed.problems) errors.push(new ConfigError(COMMAND_RULES_KEY, `${problem}. This rule is ignored; the others apply.`));
  return parsed.rules;
}
