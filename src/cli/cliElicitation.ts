/**
 * How the headless CLI answers a server's question (MCP elicitation): nobody is there to type, so a
 * policy answers, and the event printers say what it answered. `decline` (the default) and `cancel`
 * answer every question that way; `off` does not declare the capability at all (servers then do not
 * ask); a path to a JSON object answers with those values, field by field, and declines a question
 * whose required fields it cannot fill or whose values do not fit.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { ElicitationAction } from '../agent/messages';
import type { UrlElicitation } from '../mcp/clientFeatures';
import { quotedName } from '../agent/nameText';
import { neutralizeTerminalText } from '../platform/terminalText';
import type { WritableLike } from '../runtime/streamLogger';
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

/**
 * URL mode: the URL is printed (neutralised) on stderr; on a terminal the user is asked whether they
 * opened it (y: accept), anywhere else it is declined, since nobody can open it.
 */
export function urlElicitation(stdin: { isTTY?: boolean }, stderr: WritableLike): (request: UrlElicitation, signal: AbortSignal) => Promise<ElicitationAction> {
  return async (request, signal) => {
    const safe = (text: string): string => neutralizeTerminalText(text);
    stderr.write(`sprout-agent: MCP server ${quotedName(request.server)} asks you to open this URL (${safe(request.message)}):\n  ${safe(request.url)}\n`);
    if (stdin.isTTY !== true) {
      stderr.write('sprout-agent: declined (no terminal to ask on)\n');
      return 'decline';
    }
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    try {
      const answer = await rl.question('Open it in your browser, then answer y to go on (y/N): ', { signal });
      return /^\s*y(es)?\s*$/i.test(answer) ? 'accept' : 'decline';
    } catch {
      return 'cancel';
    } finally {
      rl.close();
    }
  };
}
