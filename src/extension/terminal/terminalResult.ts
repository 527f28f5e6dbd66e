/**
 * How a command that ran in a Sprout terminal ended, and the result the model reads, in the workspace
 * server's words (`commandResultText`), with where it ran. vscode-free, so it is unit-tested under node.
 */
import type { ToolCallResult } from '../../agent/messages';
import { commandResultText, commandStatus, type CommandPlan, type OutputTail } from '../../servers/workspace/runCommand';

/** How a command in a terminal ended: its exit (code unknown when the shell did not say), a stop, or the terminal closed under it. */
export type TerminalEnd = { kind: 'exit'; exitCode: number | undefined } | { kind: 'stopped'; how: 'interrupted' | 'terminal closed' } | { kind: 'closed' };

export const TERMINAL_CLOSED_TEXT = 'the terminal was closed while the command ran';
/** The result of a command that ran in the terminal, in the server's words. */
export function terminalResult(plan: CommandPlan, end: TerminalEnd, elapsedMs: number, output: OutputTail): ToolCallResult {
  if (end.kind === 'closed') {
    return { isError: true, text: commandResultText(plan, TERMINAL_CLOSED_TEXT, elapsedMs, output, ' in the Sprout terminal') };
  }
  const status =
    end.kind === 'exit'
      ? commandStatus({ timedOut: false, exitCode: end.exitCode }, plan.timeoutMs)
      : commandStatus({ timedOut: true, exitCode: null, killedBy: end.how === 'interrupted' ? 'interrupted with Ctrl-C' : 'the terminal was closed to stop it' }, plan.timeoutMs);
  return { isError: end.kind !== 'exit' || end.exitCode !== 0, text: commandResultText(plan, status, elapsedMs, output, ' in the Sprout terminal') };
}
