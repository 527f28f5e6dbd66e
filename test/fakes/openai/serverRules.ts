/**
 * Strict validators for the rules of individual servers, one switch each, worded and shaped as the
 * real server answers (sources in docs/model-servers.md): a chat template without a system role
 * (vLLM serving Gemma), Ollama's and LM Studio's refusal of a null content, Gemini's refusal of an
 * empty one, of JSON-schema keywords its proto lacks and of function names not starting with a letter or `_`, Cerebras' refusal of reasoning fields, and an
 * Azure API Management gateway that takes the key only in `api-key`, and each server's refusal of an
 * image for a model without vision (visionRules.ts). A test turns on the rules of
 * the server it emulates; the fake then rejects exactly what that server rejects.
 */
import type { Rejection } from './validateChatRequest';
import { VISION_RULES, visionRejection, type VisionRule } from './visionRules';

export type FakeServerRule =
  | 'no-system-role'
  | 'ollama-no-null-content'
  | 'lmstudio-no-null-content'
  | 'gemini-no-empty-content'
  | 'gemini-schema'
  | 'gemini-function-names'
  | 'cerebras-no-reasoning-fields'
  | 'apim-api-key'
  | 'alternating-roles'
  | 'bedrock-alternating-roles'
  | VisionRule;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messages(body: Json): Json[] {
  return Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

const toolOnlyTurns = (body: Json): Json[] => messages(body).filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0);

function geminiError(message: string): Rejection {
  return { status: 400, body: [{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }], message };
}

/** Keywords Gemini's function-declaration proto has no field for. */
const GEMINI_UNKNOWN = ['$schema', '$ref', '$defs', 'definitions', 'additionalProperties', 'const', 'default', 'format', 'propertyNames', 'exclusiveMinimum', 'exclusiveMaximum', 'oneOf', 'allOf', 'examples', 'title', 'pattern'];

function geminiSchemaErrors(schema: unknown, at: string, out: string[]): void {
  if (!isObject(schema)) return;
  for (const key of Object.keys(schema)) {
    if (GEMINI_UNKNOWN.includes(key)) out.push(`Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`);
  }
  if (Array.isArray(schema.type)) out.push(`Invalid JSON payload received. Unknown name "type" at '${at}': Proto field is not repeating, cannot start list.`);
  if (isObject(schema.properties)) Object.values(schema.properties).forEach((sub, i) => geminiSchemaErrors(sub, `${at}.properties[${i}].value`, out));
  if (schema.items !== undefined) geminiSchemaErrors(schema.items, `${at}.items`, out);
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((sub, i) => geminiSchemaErrors(sub, `${at}.any_of[${i}]`, out));
}

function geminiSchema(body: Json): Rejection | undefined {
  const out: string[] = [];
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  tools.forEach((tool, i) => geminiSchemaErrors((tool.function as Json | undefined)?.parameters, `tools[0].function_declarations[${i}].parameters`, out));
  return out.length === 0 ? undefined : geminiError(out.join('\n'));
}

/** Gemini's rule for function names, in its words: https://github.com/google-gemini/gemini-cli/issues/2966 */
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

function geminiNames(body: Json): Rejection | undefined {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const out = tools.flatMap((tool, i) => {
    const name = (tool.function as Json | undefined)?.name;
    return typeof name === 'string' && GEMINI_NAME.test(name)
      ? []
      : [
          `* GenerateContentRequest.tools[0].function_declarations[${i}].name: Invalid function name. Must start with a letter or an underscore. ` +
            'Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.',
        ];
  });
  return out.length === 0 ? undefined : geminiError(out.join('\n'));
}

function noSystemRole(body: Json): Rejection | undefined {
  if (!messages(body).some((m) => m.role === 'system')) return undefined;
  // vLLM's own error body around the template's TemplateError.
  return { status: 400, body: { object: 'error', message: 'System role not supported', type: 'BadRequestError', param: null, code: 400 }, message: 'System role not supported' };
}

function nullContent(body: Json, lmStudio: boolean): Rejection | undefined {
  if (!toolOnlyTurns(body).some((m) => m.content === null || m.content === undefined)) return undefined;
  if (lmStudio) {
    const message = "Invalid 'content': 'content' field must be a string or an array of objects.";
    return { status: 400, body: { error: message }, message };
  }
  const message = 'invalid message content type: <nil>';
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param: null, code: null } }, message };
}

function emptyContent(body: Json): Rejection | undefined {
  if (!messages(body).some((m) => m.content === '')) return undefined;
  return geminiError('Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini');
}

function reasoningFields(body: Json): Rejection | undefined {
  const problems = messages(body).flatMap((m, i) =>
    ['reasoning_content', 'reasoning'].filter((f) => f in m).map((f) => `messages.${i}.${String(m.role)}.${f}: property 'messages.${i}.${String(m.role)}.${f}' is unsupported`),
  );
  if (problems.length === 0) return undefined;
  const message = problems.join('\n');
  return { status: 400, body: { message, type: 'invalid_request_error', param: 'validation_error', code: 'wrong_api_format' }, message };
}

/**
 * Mistral's v0.3 chat template as vLLM serves it: after an optional first system message, the user
 * messages and the assistant messages that call no tool must alternate, starting with a user one
 * (https://github.com/vllm-project/vllm/issues/6862); any later system message breaks it too.
 */
function alternatingRoles(body: Json): Rejection | undefined {
  const all = messages(body);
  const rest = all[0]?.role === 'system' ? all.slice(1) : all;
  let turn = 0;
  let broken = rest.some((m) => m.role === 'system');
  for (const m of rest) {
    const calls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (m.role !== 'user' && (m.role !== 'assistant' || calls)) continue;
    if ((m.role === 'user') !== (turn % 2 === 0)) broken = true;
    turn++;
  }
  if (!broken) return undefined;
  const message = 'After the optional system message, conversation roles must alternate user/assistant/user/assistant/...';
  return { status: 400, body: { object: 'error', message, type: 'BadRequestError', param: null, code: 400 }, message };
}

/**
 * Bedrock's Converse API behind LiteLLM (https://github.com/cline/cline/issues/431): the system
 * message goes apart, tool answers become one user turn, and then user and assistant turns must
 * alternate: two assistant messages in a row (a text, then a call) are refused.
 */
function bedrockAlternatingRoles(body: Json): Rejection | undefined {
  const roles = messages(body)
    .filter((m) => m.role !== 'system')
    .map((m) => (m.role === 'tool' ? 'user' : String(m.role)))
    .filter((role, i, all) => !(role === 'user' && all[i - 1] === 'user' && messages(body).filter((m) => m.role !== 'system')[i]?.role === 'tool'));
  if (roles.every((role, i) => i === 0 || role !== roles[i - 1])) return undefined;
  const message = 'litellm.BadRequestError: BedrockException - {"message":"A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again."}';
  return { status: 400, body: { error: { message, type: null, param: null, code: '400' } }, message };
}

/** The gateway's own 401 when the key is not in `api-key` (it ignores a Bearer header). */
export function apimRejection(headers: Record<string, string | string[] | undefined>, apiKey: string | undefined): Rejection | undefined {
  if (apiKey !== undefined && headers['api-key'] === apiKey) return undefined;
  const message = 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.';
  return { status: 401, body: { statusCode: 401, message }, message };
}

/** The first rule of `rules` the request breaks, checked in the order given. */
export function serverRuleRejection(rules: readonly FakeServerRule[], body: unknown): Rejection | undefined {
  if (!isObject(body)) return undefined;
  for (const rule of rules) {
    const rejection =
      rule === 'no-system-role' ? noSystemRole(body)
      : rule === 'ollama-no-null-content' ? nullContent(body, false)
      : rule === 'lmstudio-no-null-content' ? nullContent(body, true)
      : rule === 'gemini-no-empty-content' ? emptyContent(body)
      : rule === 'gemini-schema' ? geminiSchema(body)
      : rule === 'gemini-function-names' ? geminiNames(body)
      : rule === 'cerebras-no-reasoning-fields' ? reasoningFields(body)
      : rule === 'alternating-roles' ? alternatingRoles(body)
      : rule === 'bedrock-alternating-roles' ? bedrockAlternatingRoles(body)
      : (VISION_RULES as readonly string[]).includes(rule) ? visionRejection(rule as VisionRule, body)
      : undefined;
    if (rejection) return rejection;
  }
  return undefined;
}
