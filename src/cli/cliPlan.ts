/**
 * `--mode` and `--approve-plan` for one CLI run: which prompt runs with which mode. Approving reads the
 * plan from the `--session` transcript's last answer, writes its steps into the todo server's list
 * (runtime/planApproval.ts), and runs the prompt in Agent mode; a plan with no steps is said and
 * nothing runs.
 */
import type { PromptOptions } from '../agent/promptAttachments';
import { approvedPlanPrompt } from '../agent/planSteps';
import type { AgentRuntime } from '../runtime/createAgentRuntime';
import { approvePlan } from '../runtime/planApproval';
import type { CliArgs } from './cliArgs';
import { UsageError } from './exitCodes';

/** Combinations that cannot work, refused before anything starts. */
export function checkPlanArgs(args: CliArgs): void {
  if (!args.approvePlan) return;
  if (args.session === undefined) throw new UsageError('--approve-plan needs --session FILE: the chat whose last answer is the plan (run it first with --mode plan --session FILE).');
  if (args.mode !== 'agent') throw new UsageError(`--approve-plan runs the plan in agent mode; leave out --mode ${args.mode}.`);
}

/** Whether the prompt comes from stdin: not when approving a plan without one (the default prompt is used). */
export function promptFromStdin(args: CliArgs): boolean {
  return !args.approvePlan || (args.prompt !== undefined && args.prompt !== '-');
}

export interface PlannedRun {
  prompt: string;
  options: PromptOptions;
}

/** The prompt to run and its options; when approving, the todo list is written first (nothing to approve: a UsageError, exit 2). */
export async function plannedRun(runtime: AgentRuntime, args: CliArgs, prompt: string, options: PromptOptions, signal: AbortSignal): Promise<PlannedRun> {
  if (!args.approvePlan) return { prompt, options: { ...options, mode: args.mode } };
  const approval = await approvePlan(runtime.session.state.sessionId, runtime.session.state.history, runtime.hub, signal);
  if (!approval.ok) throw new UsageError(`--approve-plan: ${approval.message}`);
  return { prompt: approvedPlanPrompt(approval.steps, prompt), options: { ...options, mode: 'agent' } };
}
