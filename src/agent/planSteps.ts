/**
 * A Plan-mode answer as steps: the top-level numbered items of its text (`1. ...` or `1) ...`), outside
 * code fences, markdown emphasis and trailing colons taken off. Approving the plan makes these the todo
 * list (docs: README.md#modes), so the words here are what the todo `_Stop` will hold the agent to.
 */

const NUMBERED = /^(\s*)(\d{1,3})[.)]\s+(.+?)\s*$/;
const FENCE = /^\s*(```|~~~)/;

function cleanStep(text: string): string {
  return text
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/__(.+?)__/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/:$/, '')
    .trim();
}

/** The plan's steps in order; empty when the text has no numbered list. Nested numbered lists stay with their parent (they are not steps). */
export function planSteps(text: string): string[] {
  const steps: string[] = [];
  let indent: number | undefined;
  let fenced = false;
  for (const line of text.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const match = NUMBERED.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').replace(/\t/g, '    ').length;
    indent ??= depth;
    if (depth > indent) continue;
    const step = cleanStep(match[3] ?? '');
    if (step !== '') steps.push(step);
  }
  return steps;
}

const APPROVED_MARKER = 'The user approved this plan; its steps are now your todo list.';

/** The prompt that starts carrying out an approved plan (in Agent mode), with the user's own words if any. */
export function approvedPlanPrompt(steps: readonly string[], userText = ''): string {
  const list = steps.map((s, i) => `${i + 1}. ${s}`).join('\n');
  const ask = userText.trim() === '' ? 'Carry out the approved plan.' : userText.trim();
  return `${ask}\n\n${APPROVED_MARKER} Work through them in order and tick each off with the todo tool as you finish it:\n${list}`;
}

/** Whether a prompt is the one `approvedPlanPrompt` wrote (a chat replayed from its transcript marks its plan approved by it). */
export function isApprovedPlanPrompt(text: string): boolean {
  return text.includes(`\n\n${APPROVED_MARKER} `);
}

/** The steps an approved-plan prompt (`approvedPlanPrompt`) carried, as it wrote them; empty for any other prompt. */
export function approvedPlanSteps(text: string): string[] {
  const at = text.indexOf(`\n\n${APPROVED_MARKER} `);
  return at < 0 ? [] : planSteps(text.slice(at + 2));
}

/** What to say when the answer being approved has no numbered steps. */
export const NO_PLAN_STEPS = 'The last answer has no numbered steps to approve (a plan is a list like "1. ...", "2. ..."); ask for the plan again in Plan mode.';
