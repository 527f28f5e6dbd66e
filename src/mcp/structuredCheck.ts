/**
 * A tool result's structured content checked against the tool's outputSchema by Sprout, not by the
 * SDK: the SDK throws the whole result away when they disagree (the server's text and its own error
 * words with it), and a result must never be lost because an optional field is malformed. The
 * content blocks are the answer; structured content that does not match its schema is dropped (so
 * nothing downstream trusts it) and the mismatch is said, naming the tool and the field.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { RawToolResult } from './toolResults';

type Check = (value: unknown) => { valid: boolean; errorMessage?: string };

const validator = new AjvJsonSchemaValidator();
const compiled = new WeakMap<object, Check | string>();

function checkFor(schema: Record<string, unknown>): Check | string {
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      check = validator.getValidator(schema as never) as Check;
    } catch (error) {
      check = error instanceof Error ? error.message : String(error);
    }
    compiled.set(schema, check);
  }
  return check;
}

/** The result as the model gets it; `say` hears of a mismatch (the result itself is kept). */
export function checkStructuredContent(result: RawToolResult, outputSchema: Record<string, unknown> | undefined, say: (why: string) => void): RawToolResult {
  if (outputSchema === undefined || result.isError === true || result.structuredContent === undefined) return result;
  const check = checkFor(outputSchema);
  if (typeof check === 'string') {
    say(`its outputSchema cannot be read (${check.slice(0, 200)}); the structured content is passed on unchecked`);
    return result;
  }
  const verdict = check(result.structuredContent);
  if (verdict.valid) return result;
  say(`its structured content does not match its outputSchema (${(verdict.errorMessage ?? 'invalid').slice(0, 300)}); the text content is the answer`);
  const { structuredContent, ...rest } = result;
  const hasContent = Array.isArray(rest.content) && rest.content.length > 0;
  return hasContent ? rest : { ...rest, content: [{ type: 'text', text: JSON.stringify(structuredContent) }] };
}
