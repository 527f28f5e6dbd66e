/**
 * How the headless CLI answers a server's question (MCP elicitation): nobody is there to type, so a
 * policy answers, and the event printers say what it answered. `decline` (the default) and `cancel`
 * answer every question that way; `off` does not declare the capability at all (servers then do not
 * ask); a path to a JSON object answers with those values, field by field, and declines a question
 * whose required fields it cannot fill or whose values do not fit.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ElicitationAnswer, ElicitationRequest } from '../agent/messages';
import type { ElicitationHandling } from '../mcp/clientFeatures';
import { checkElicitationAnswer, elicitationFields } from '../shared/elicitationForm';
import { UsageError } from './exitCodes';

const ELICITATION_POLICIES = 'decline, cancel, off, or a JSON file of answers';

function fixed(action: 'decline' | 'cancel'): ElicitationHandling {
  return { by: 'policy', answer: async () => ({ action }) };
}

function readAnswers(path: string, source: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${source}: cannot read answers from ${path}: ${(error as Error).message}. Use ${ELICITATION_POLICIES}.`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`${source}: ${path} must hold a JSON object of answers ({"field": value}).`);
  }
  return parsed as Record<string, unknown>;
}

/** The answers that fit this question, or a decline. */
function answerFromFile(answers: Readonly<Record<string, unknown>>, request: ElicitationRequest): ElicitationAnswer {
  const form = elicitationFields(request.schema);
  if ('error' in form) return { action: 'decline' };
  const checked = checkElicitationAnswer(form.fields, answers);
  return checked.ok ? { action: 'accept', content: checked.content } : { action: 'decline' };
}

/** Undefined means: do not declare elicitation. */
export function elicitationPolicy(value: string | undefined, cwd: string, source = '--elicitation'): ElicitationHandling | undefined {
  const policy = value?.trim() ?? 'decline';
  if (policy === 'decline' || policy === '') return fixed('decline');
  if (policy === 'cancel') return fixed('cancel');
  if (policy === 'off') return undefined;
  const answers = readAnswers(resolve(cwd, policy), source);
  return { by: 'policy', answer: async (request) => answerFromFile(answers, request) };
}
