/**
 * `sprout-agent hooks check --command CMD ...`: runs the command policy (the rules of
 * `SPROUT_AGENT_COMMAND_RULES` and the workspace's deny rules, cliCommandRules.ts) against each command
 * and prints its verdict: allowed (by which rules), denied (by which rule, on which part) or not allowed
 * (why: a part no rule allows, or a command that could not be read). What the CLI then does with a
 * not-allowed command is said too: refused once allow rules are set, else run as before. Starts no
 * server. Exit 0 once every command was judged (a rule that is not valid is named and left out).
 */
import { describeRule } from '../agent/commandRules';
import { terminalSafeJson } from '../platform/terminalText';
import { cliCommandRules, cliCommandVerdict, RULES_ENV } from './cliCommandRules';
import type { CliIo } from './cliIo';
import { EXIT_OK } from './exitCodes';

export interface PolicyLine {
  command: string;
  verdict: 'allow' | 'deny' | 'ask' | 'run';
  why: string;
}

function judged(command: string, rules: Parameters<typeof cliCommandVerdict>[1]): PolicyLine {
  const verdict = cliCommandVerdict(command, rules);
  if (verdict.kind === 'allow') return { command, verdict: 'allow', why: `allowed by ${verdict.rules.map(describeRule).join(', ')}` };
  if (verdict.kind === 'deny') return { command, verdict: 'deny', why: `\`${verdict.part}\` denied by ${describeRule(verdict.rule)}` };
  if (verdict.kind === 'ask') return { command, verdict: 'ask', why: `${verdict.reason}; the CLI refuses it (allow rules are set), the editor asks` };
  return { command, verdict: 'run', why: 'no rule denies it and no allow rule is set: it runs (the editor asks)' };
}

export function runCommandPolicyCheck(commands: readonly string[], workspaceFolder: string, io: CliIo, json: boolean): number {
  const { rules, problems } = cliCommandRules(io.env, workspaceFolder);
  const lines = commands.map((command) => judged(command, rules));
  if (json) {
    io.stdout.write(`${terminalSafeJson({ rules: rules.map((rule) => ({ kind: rule.kind, pattern: rule.pattern, origin: rule.origin })), ignored: problems, verdicts: lines })}\n`);
    return EXIT_OK;
  }
  const out: string[] = [`Command policy: ${rules.length} rule(s)${rules.length === 0 ? ` (set ${RULES_ENV}, or deny rules in .vscode/settings.json)` : ''}`];
  for (const rule of rules) out.push(`  ${describeRule(rule)}`);
  for (const problem of problems) out.push(`  ignored: ${problem}`);
  for (const line of lines) out.push(`${line.verdict.toUpperCase().padEnd(5)} ${JSON.stringify(line.command)}: ${line.why}`);
  io.stdout.write(`${out.join('\n')}\n`);
  return EXIT_OK;
}
