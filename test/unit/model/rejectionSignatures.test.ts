/**
 * The signature table against the real servers' own words (each quoted from the report cited in
 * docs/model-servers.md): which rejection asks for which request shape, which error is billing, a
 * server not set up for tools, or a malformed tool call, and which is none of these.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dialectRules } from '../../../src/model/dialect';
import { adaptationFor, verdictOf, type Rejection } from '../../../src/model/rejectionSignatures';

const generic = dialectRules('generic');
const adapt = (r: Rejection) => adaptationFor(r, generic, []);

test('rejections that a request in another shape passes', () => {
  const cases: Array<[Rejection, string]> = [
    [{ status: 400, type: 'BadRequestError', text: 'System role not supported' }, 'instructions-as-user'],
    [{ status: 500, text: 'jinja2.exceptions.TemplateError: System role not supported' }, 'instructions-as-user'],
    [{ status: 400, text: 'Conversation roles must alternate user/assistant/user/assistant/...' }, 'instructions-as-user'],
    [{ status: 400, type: 'invalid_request_error', text: 'invalid message content type: <nil>' }, 'tool-turn-empty-string'],
    [{ status: 400, text: "Invalid 'content': 'content' field must be a string or an array of objects." }, 'tool-turn-empty-string'],
    [{ status: 400, text: "Invalid JSON payload received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[0].parameters': Cannot find field." }, 'reduced-tool-schemas'],
    [{ status: 400, text: "Invalid JSON payload received. Unknown name \"$schema\" at 'tools[0].function_declarations[1].parameters': Cannot find field." }, 'reduced-tool-schemas'],
    [{ status: 400, text: "Invalid JSON payload received. Unknown name \"type\" at 'tools[0].function_declarations[3].parameters.properties[3].value': Proto field is not repeating, cannot start list." }, 'reduced-tool-schemas'],
    [{ status: 400, code: 'wrong_api_format', text: "Unsupported JSON schema fields: {'minItems', 'items'}" }, 'reduced-tool-schemas'],
    [{ status: 400, text: 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 19' }, 'send-reasoning-content'],
  ];
  for (const [rejection, expected] of cases) assert.equal(adapt(rejection), expected, rejection.text);
  const withEmpty = { ...generic, toolTurnContent: 'empty' as const };
  assert.equal(adaptationFor({ status: 400, text: 'Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again.' }, withEmpty, []), 'tool-turn-null');
  assert.equal(adaptationFor({ status: 400, text: 'request: Value error, Empty content is not allowed for assistant messages' }, withEmpty, []), 'tool-turn-null');
  assert.equal(adapt({ status: 400, text: 'Unable to submit request because it has an empty text parameter.' }), undefined, 'null is already what goes');
});

test('errors with a verdict: billing, a server not set up for tools, a malformed tool call', () => {
  const quota = { status: 429, code: 'insufficient_quota', type: 'insufficient_quota', text: 'You exceeded your current quota, please check your plan and billing details.' };
  assert.deepEqual(verdictOf(quota), { kind: 'billing' });
  assert.deepEqual(verdictOf({ status: 402, text: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' }), { kind: 'billing' });
  assert.deepEqual(verdictOf({ status: 402, text: 'This request requires more credits, or fewer max_tokens. You requested up to 225702 tokens, but can only afford 92985.' }), { kind: 'billing' });
  assert.deepEqual(verdictOf({ status: 402, code: 'insufficient_credits', type: 'insufficient_quota', text: 'Insufficient credits — top up your balance' }), { kind: 'billing' });
  const groq = { status: 400, code: 'tool_use_failed', type: 'invalid_request_error', text: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details." };
  assert.deepEqual(verdictOf(groq), { kind: 'malformed_tool_call' });
  for (const text of [
    '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    'tools param requires --jinja flag',
    'Unsupported param: tools',
    'registry.ollama.ai/library/gemma3:4b does not support tools',
  ]) {
    assert.equal(verdictOf({ status: 500, text })?.kind, 'setup', text);
  }
});

test('what none of the signatures claims: rate limits, plain bad requests, another model family', () => {
  assert.equal(verdictOf({ status: 429, text: 'Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM).' }), undefined);
  assert.equal(verdictOf({ status: 429, text: 'Resource has been exhausted (e.g. check quota).' }), undefined, "Gemini's rate limit is retried, not billing");
  assert.equal(adapt({ status: 400, text: "Invalid 'messages[1].content': string too long." }), undefined);
  assert.equal(adapt({ status: 422, text: 'stream_options' }), 'no-stream-options');
  assert.equal(adapt({ status: 503, text: 'stream_options' }), undefined, 'a server failure that mentions the field is not a rejection of it');
});
