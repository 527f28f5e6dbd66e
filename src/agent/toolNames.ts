/**
 * Tool namespacing (docs/hooks.md#discovery): a tool's real name is `<server>__<bare>` (the model sees an alias
 * where the endpoint would refuse it, src/model/wireNames.ts), hooks are the bare names starting with `_`. A bad
 * server name is rejected with an error that names it, never dropped silently.
 */
import { quotedName } from './nameText';

export const NAME_SEPARATOR = '__';
/** The server part of the core's own tools (`sprout__search_tools`, `sprout__read_skill`): no configured server may take it. */
export const RESERVED_SERVER_NAME = 'sprout';
const PART_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

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
  if (name.toLowerCase() === RESERVED_SERVER_NAME) {
    throw new ToolNameError(
      name,
      `MCP server name ${quotedName(name)} is reserved: Sprout's own tools are named "${RESERVED_SERVER_NAME}__..." (the tool search, ` +
        'skills), so a server of that name would be confused with them. Rename the server in your MCP configuration.',
    );
  }
}

/** C0 and C1 controls: a name holding one could not be shown in a terminal or the chat as the server wrote it. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Joins a server and a bare tool name. Any tool name a server lists is taken as it is (MCP allows
 * dots, slashes and up to 128 characters, `files.read`): the model layer gives it an alias the
 * endpoint accepts (src/model/wireNames.ts), so no tool is left out for its name. Only an empty name
 * or one with control characters is refused, naming the server. A hook's bare name starts with one
 * `_` (so `_Stop` on `tests` is `tests___Stop`); server names hold no `__`, so the first `__` always
 * splits a qualified name back into its parts.
 */
export function qualifyToolName(server: string, bareName: string): string {
  validateServerName(server);
  if (bareName === '' || CONTROL.test(bareName)) {
    throw new ToolNameError(
      server,
      `MCP server ${quotedName(server)} offers a tool named ${quotedName(bareName)}, which is empty or holds control characters; ` +
        'it cannot be shown or called by that name, so it is not offered to the model. Fix its name in the server.',
    );
  }
  return `${server}${NAME_SEPARATOR}${bareName}`;
}

/** Splits a qualified name at the first separator; undefined when it has none. */
export function splitQualifiedName(qualified: string): { server: string; bareName: string } | undefined {
  const at = qualified.indexOf(NAME_SEPARATOR);
  if (at <= 0) return undefined;
  return { server: qualified.slice(0, at), bareName: qualified.slice(at + NAME_SEPARATOR.length) };
}
