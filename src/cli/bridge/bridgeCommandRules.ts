/**
 * The command policy `hooks install --command-rules JSON` writes into another agent's `_PreToolUse`
 * hook: the bridge judges the agent's shell call (Claude Code's and Codex's `Bash`, Gemini CLI's
 * `run_shell_command`, Copilot's `bash`, all seen as Sprout's `workspace__run_command`) with the same
 * rules as Sprout (src/agent/commandRules.ts), plus the workspace's deny rules, and denies what a rule
 * denies, naming the rule. A hook can only deny: what the rules allow or leave open goes on to the
 * hook servers and then to the agent's own permissions, as before.
 */
import { deniedText, judgeCommand } from '../../agent/commandRules';
import type { AgentFormat, BridgeCall } from '../../agentHooks/agentFormat';
import { SPROUT_SHELL_TOOL } from '../../agentHooks/agentToolNames';
import { commandRulesFrom } from '../cliCommandRules';

export const RULES_OPTION = '--command-rules';

/** The denial the agent gets for this call, or undefined when the rules do not deny it. */
export function commandPolicyDenial(rulesJson: string | undefined, format: AgentFormat, call: BridgeCall, workspaceFolder: string): string | undefined {
  if (rulesJson === undefined || call.hook !== '_PreToolUse') return undefined;
  // The agent names its shell tool its own way (its format's table of equivalents says which).
  const shell = format.tools.equivalents.find((tool) => tool.sprout === SPROUT_SHELL_TOOL)?.agent;
  if (call.fields.tool !== shell && call.fields.tool !== SPROUT_SHELL_TOOL) return undefined;
  const args = call.fields.arguments;
  const command = args !== null && typeof args === 'object' ? (args as Record<string, unknown>).command : undefined;
  if (typeof command !== 'string') return undefined;
  const verdict = judgeCommand(command, commandRulesFrom(rulesJson, RULES_OPTION, workspaceFolder).rules);
  return verdict.kind === 'deny' ? deniedText(verdict) : undefined;
}
