/**
 * Tool namespacing (docs/hooks.md#discovery): tools reach the model as `<server>__<bare>`, hooks are the bare names
 * starting with `_`. Bad names are rejected with an error that names the server, never dropped silently.
 */
import { quotedName } from './nameText';

export const NAME_SEPARATOR = '__';
/** OpenAI's limit on function names; the qualified name must fit it. */
export const MAX_QUALIFIED_NAME_LENGTH = 64;
const PART_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const WIRE_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export class ToolNameError extends Error {
  constructor(
    readonly server: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolNameError';
  }
}

export function isHookName(bareName: string): boolean {
  return bareName.startsWith('_');
}

/** Throws ToolNameError unless `name` is a valid server name. */
export function validateServerName(name: string): void {
  if (!PART_PATTERN.test(name) || name.includes(NAME_SEPARATOR) || name.startsWith('_') || name.endsWith('_')) {
    throw new ToolNameError(
      name,
      `MCP server name ${quotedName(name)} is invalid: use 1-128 letters, digits, "-" or "_", with no "__" inside ` +
        'and no "_" at either end (tool names are "<server>__<tool>"). Rename the server in your MCP configuration.',
    );
  }
}

/**
 * Joins a server and a bare tool name, checking both parts and the provider's length limit.
 * A hook's bare name starts with one `_` (so `_Stop` on `tests` is `tests___Stop`); "no `__` inside"
 * applies to the rest of the name.
 */
export function qualifyToolName(server: string, bareName: string): string {
  validateServerName(server);
  const rest = isHookName(bareName) ? bareName.slice(1) : bareName;
  if (!PART_PATTERN.test(bareName) || rest.includes(NAME_SEPARATOR) || rest.startsWith('_')) {
    throw new ToolNameError(
      server,
      `MCP server ${quotedName(server)} offers a tool named ${quotedName(bareName)}, which is invalid: tool names use 1-128 letters, ` +
        'digits, "-" or "_", with no "__" inside. The tool is not offered to the model; fix its name in the server.',
    );
  }
  const qualified = `${server}${NAME_SEPARATOR}${bareName}`;
  if (!WIRE_PATTERN.test(qualified)) {
    throw new ToolNameError(
      server,
      `MCP server ${quotedName(server)}: the qualified tool name "${qualified}" is ${qualified.length} characters, over the ` +
        `provider's limit of ${MAX_QUALIFIED_NAME_LENGTH}. Give the server a shorter name.`,
    );
  }
  return qualified;
}

/** Splits a qualified name at the first separator; undefined when it has none. */
export function splitQualifiedName(qualified: string): { server: string; bareName: string } | undefined {
  const at = qualified.indexOf(NAME_SEPARATOR);
  if (at <= 0) return undefined;
  return { server: qualified.slice(0, at), bareName: qualified.slice(at + NAME_SEPARATOR.length) };
}
