/**
 * VS Code's `inputs` in mcp.json: `${input:id}` placeholders whose values the user types once (an API
 * key, say). This finds which declared inputs the servers of a file really use, so a host asks only for
 * those, and says which placeholders have no declaration (they stay an error when the file is parsed).
 */

export interface McpInputSpec {
  id: string;
  /** What to ask; the declaration's `description`, else the id. */
  description: string;
  /** Typed hidden (a secret). */
  password: boolean;
  default?: string;
}

const PLACEHOLDER = /\$\{input:([^}]+)\}/g;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function declared(json: Record<string, unknown>): Map<string, McpInputSpec> {
  const specs = new Map<string, McpInputSpec>();
  for (const raw of Array.isArray(json.inputs) ? json.inputs : []) {
    if (!isObject(raw) || typeof raw.id !== 'string' || raw.id === '') continue;
    specs.set(raw.id, {
      id: raw.id,
      description: typeof raw.description === 'string' && raw.description !== '' ? raw.description : raw.id,
      password: raw.password === true,
      ...(typeof raw.default === 'string' ? { default: raw.default } : {}),
    });
  }
  return specs;
}

/** The inputs the file's servers use, in first-use order, and the placeholders nobody declared. */
export function referencedInputs(json: unknown): { specs: McpInputSpec[]; undeclared: string[] } {
  if (!isObject(json)) return { specs: [], undeclared: [] };
  const specs = declared(json);
  const used = new Set<string>();
  const text = JSON.stringify([json.servers ?? {}, json.mcpServers ?? {}]);
  for (const match of text.matchAll(PLACEHOLDER)) used.add(match[1] ?? '');
  const found: McpInputSpec[] = [];
  const undeclared: string[] = [];
  for (const id of used) {
    const spec = specs.get(id);
    if (spec !== undefined) found.push(spec);
    else undeclared.push(id);
  }
  return { specs: found, undeclared };
}
