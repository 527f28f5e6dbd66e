/**
 * Tool parameter schemas reduced to the subset the strictest OpenAI-compatible APIs accept. Gemini
 * (and relays to it, and Vertex) read a proto-based OpenAPI subset: no `$schema`, `$ref`/`$defs`,
 * `additionalProperties`, `const`, `format`, `default`, `propertyNames`, `exclusiveMinimum`, and a
 * single `type` rather than a list. MCP servers write full JSON Schema (zod and pydantic emit all of
 * those), so the reduced form keeps what tells the model how to call the tool (types, properties,
 * required, items, enums, descriptions, numeric and length bounds) and expresses the rest in those
 * terms: local `$ref`s inlined, `const` as a one-value enum, `oneOf` as `anyOf`, a type list as one
 * type plus `nullable`. Every other server gets the full schema, with one addition that changes no
 * meaning (`completeToolSchema`). Pure; results are cached per schema object (tools repeat every round).
 */

type Json = Record<string, unknown>;

const KEPT = new Set(['type', 'description', 'properties', 'required', 'items', 'enum', 'nullable', 'anyOf', 'minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength']);
/** Deeper than any real tool schema; a cycle of `$ref`s stops here. */
const MAX_DEPTH = 12;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `#/$defs/Name` or `#/definitions/Name` in the root schema; anything else is not followed. */
function resolveRef(ref: unknown, root: Json): Json | undefined {
  if (typeof ref !== 'string') return undefined;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? root[match[1] as string] : undefined;
  const target = isObject(defs) ? defs[decodeURIComponent((match?.[2] as string).replace(/~1/g, '/').replace(/~0/g, '~'))] : undefined;
  return isObject(target) ? target : undefined;
}

/** `type: ["string", "null"]` as one type plus `nullable`; several non-null types as `anyOf`. */
function singleType(schema: Json, out: Json): void {
  const type = schema.type;
  if (!Array.isArray(type)) {
    if (typeof type === 'string') out.type = type;
    return;
  }
  const types = type.filter((t): t is string => typeof t === 'string' && t !== 'null');
  if (types.length < type.length) out.nullable = true;
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }));
}

function reduceNode(value: unknown, root: Json, depth: number): Json {
  if (!isObject(value) || depth > MAX_DEPTH) return {};
  const schema = '$ref' in value ? { ...resolveRef(value.$ref, root), ...value, $ref: undefined } : value;
  const out: Json = {};
  singleType(schema, out);
  if (typeof schema.description === 'string') out.description = schema.description;
  if ('const' in schema) out.enum = [schema.const];
  else if (Array.isArray(schema.enum)) out.enum = schema.enum;
  for (const key of KEPT) {
    if (key in out || !(key in schema)) continue;
    if (key === 'properties' && isObject(schema.properties)) {
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, sub]) => [name, reduceNode(sub, root, depth + 1)]));
    } else if (key === 'items') out.items = reduceNode(schema.items, root, depth + 1);
    else if (key === 'anyOf' && Array.isArray(schema.anyOf)) out.anyOf = schema.anyOf.map((sub) => reduceNode(sub, root, depth + 1));
    else if (key !== 'properties' && key !== 'anyOf') out[key] = schema[key];
  }
  if (out.anyOf === undefined && Array.isArray(schema.oneOf)) out.anyOf = schema.oneOf.map((sub) => reduceNode(sub, root, depth + 1));
  if (Array.isArray(schema.allOf)) mergeAllOf(out, schema.allOf.map((sub) => reduceNode(sub, root, depth + 1)));
  if (out.type === 'array' && out.items === undefined) out.items = {};
  if (Array.isArray(out.required) && isObject(out.properties)) {
    const names = out.properties;
    out.required = out.required.filter((name) => typeof name === 'string' && name in names);
  }
  return out;
}

/** `allOf` folded into one schema: properties and required lists joined, the first type kept. */
function mergeAllOf(out: Json, parts: Json[]): void {
  for (const part of parts) {
    if (out.type === undefined && part.type !== undefined) out.type = part.type;
    if (isObject(part.properties)) out.properties = { ...(isObject(out.properties) ? out.properties : {}), ...part.properties };
    if (Array.isArray(part.required)) out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...part.required])];
    if (out.description === undefined && typeof part.description === 'string') out.description = part.description;
  }
}

const reduced = new WeakMap<object, Json>();

/** The reduced form of a tool's parameter schema (an object schema, as tool parameters must be). */
export function reduceToolSchema(parameters: Record<string, unknown>): Json {
  let result = reduced.get(parameters);
  if (result === undefined) {
    result = reduceNode(parameters, parameters, 0);
    if (result.type === undefined) result.type = 'object';
    if (result.type === 'object' && result.properties === undefined) result.properties = {};
    reduced.set(parameters, result);
  }
  return result;
}

/** Keywords whose values are data, not schemas: never walked. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

function isArraySchema(node: Json): boolean {
  return node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
}

/** `value` with `items: {}` on each array schema that has none; the same object where nothing is added. */
function withItems(value: unknown, depth: number): unknown {
  if (depth > 4 * MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((v) => withItems(v, depth + 1));
    return items.some((v, i) => v !== value[i]) ? items : value;
  }
  const node = value as Json;
  const entries = Object.entries(node).map(([key, v]) => [key, DATA_KEYWORDS.has(key) ? v : withItems(v, depth + 1)] as const);
  const missing = isArraySchema(node) && !('items' in node);
  if (!missing && entries.every(([key, v]) => v === node[key])) return node;
  return { ...Object.fromEntries(entries), ...(missing ? { items: {} } : {}) };
}

const completed = new WeakMap<object, Json>();

/**
 * The full schema with `items: {}` on every array schema that has none. The two mean the same in
 * JSON Schema (any item), but OpenAI, Azure and the services that validate like them reject the whole
 * request for one such array ("array schema missing items", invalid_function_parameters), and MCP
 * servers often write one. Everything else is sent as the server wrote it; a schema with nothing to
 * add is returned as is.
 */
export function completeToolSchema(parameters: Record<string, unknown>): Json {
  let result = completed.get(parameters);
  if (result === undefined) {
    result = withItems(parameters, 0) as Json;
    completed.set(parameters, result);
  }
  return result;
}
