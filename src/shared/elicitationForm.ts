/**
 * The fields of an MCP form elicitation (the flat `requestedSchema` of `elicitation/create`) and the
 * check of an answer against them. Shared by the MCP client (which never sends an invalid answer), the
 * CLI's answer policy and the chat's form card, so all three accept exactly the same answers. The
 * schema comes from a server and is untrusted: anything outside the spec's primitive shapes is refused
 * with a reason rather than guessed at.
 */

export interface ElicitOption {
  value: string;
  label: string;
}

interface FieldBase {
  name: string;
  title: string;
  description?: string;
  required: boolean;
}

export type ElicitField =
  | (FieldBase & { kind: 'string'; default?: string; format?: string; minLength?: number; maxLength?: number })
  | (FieldBase & { kind: 'number'; integer: boolean; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'enum'; options: ElicitOption[]; default?: string })
  | (FieldBase & { kind: 'multi'; options: ElicitOption[]; default?: string[]; minItems?: number; maxItems?: number });

export type ElicitValue = string | number | boolean | string[];

const MAX_FIELDS = 50;
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** `enum` (+ legacy `enumNames`), or `oneOf`/`anyOf` of `{ const, title }`. */
function options(schema: Json): ElicitOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.filter((v): v is string => typeof v === 'string').map((value, i) => ({ value, label: str(names[i]) ?? value }));
  }
  const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (list === undefined) return undefined;
  return list.filter(isObject).flatMap((o) => (typeof o.const === 'string' ? [{ value: o.const, label: str(o.title) ?? o.const }] : []));
}

function field(name: string, schema: Json, required: boolean): ElicitField | string {
  const base: FieldBase = { name, title: str(schema.title) ?? name, required, ...(str(schema.description) ? { description: str(schema.description) } : {}) };
  const choices = options(schema);
  switch (schema.type) {
    case 'string': {
      if (choices !== undefined) return { ...base, kind: 'enum', options: choices, ...(str(schema.default) ? { default: str(schema.default) } : {}) };
      const format = str(schema.format);
      if (format !== undefined && !FORMATS.has(format)) return `field "${name}": unknown string format "${format}"`;
      return { ...base, kind: 'string', default: str(schema.default), format, minLength: num(schema.minLength), maxLength: num(schema.maxLength) };
    }
    case 'number':
    case 'integer':
      return { ...base, kind: 'number', integer: schema.type === 'integer', default: num(schema.default), minimum: num(schema.minimum), maximum: num(schema.maximum) };
    case 'boolean':
      return { ...base, kind: 'boolean', ...(typeof schema.default === 'boolean' ? { default: schema.default } : {}) };
    case 'array': {
      const items = isObject(schema.items) ? options(schema.items) : undefined;
      if (items === undefined) return `field "${name}": an array must list its choices (items.enum or items.anyOf)`;
      const picked = Array.isArray(schema.default) ? schema.default.filter((v): v is string => typeof v === 'string') : undefined;
      return { ...base, kind: 'multi', options: items, default: picked, minItems: num(schema.minItems), maxItems: num(schema.maxItems) };
    }
    default:
      return `field "${name}": type ${JSON.stringify(schema.type)} is not a form field (string, number, integer, boolean, or an enum)`;
  }
}

/** The form's fields in schema order, or why the schema is not a form this client can show. */
export function elicitationFields(schema: unknown): { fields: ElicitField[] } | { error: string } {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) return { error: 'the requested schema is not an object with properties' };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((v): v is string => typeof v === 'string') : []);
  const entries = Object.entries(schema.properties);
  if (entries.length > MAX_FIELDS) return { error: `the form has ${entries.length} fields (at most ${MAX_FIELDS})` };
  const fields: ElicitField[] = [];
  for (const [name, raw] of entries) {
    const parsed = isObject(raw) ? field(name, raw, required.has(name)) : `field "${name}" has no schema`;
    if (typeof parsed === 'string') return { error: parsed };
    fields.push(parsed);
  }
  return { fields };
}

function formatProblem(format: string | undefined, value: string): string | undefined {
  if (format === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return 'is not an email address';
  if (format === 'uri' && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(value)) return 'is not a URI';
  if (format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'is not a date (YYYY-MM-DD)';
  if (format === 'date-time' && Number.isNaN(Date.parse(value))) return 'is not a date and time';
  return undefined;
}

function problem(f: ElicitField, value: unknown): string | undefined {
  switch (f.kind) {
    case 'string':
      if (typeof value !== 'string') return 'must be text';
      if (f.minLength !== undefined && value.length < f.minLength) return `needs at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && value.length > f.maxLength) return `allows at most ${f.maxLength} characters`;
      return formatProblem(f.format, value);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (f.integer && !Number.isInteger(value)) return 'must be a whole number';
      if (f.minimum !== undefined && value < f.minimum) return `must be at least ${f.minimum}`;
      if (f.maximum !== undefined && value > f.maximum) return `must be at most ${f.maximum}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'enum':
      return typeof value === 'string' && f.options.some((o) => o.value === value) ? undefined : 'must be one of the choices';
    case 'multi':
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && f.options.some((o) => o.value === v))) return 'must be a list of the choices';
      if (f.minItems !== undefined && value.length < f.minItems) return `needs at least ${f.minItems} choices`;
      if (f.maxItems !== undefined && value.length > f.maxItems) return `allows at most ${f.maxItems} choices`;
      return undefined;
  }
}

/**
 * Checks an answer: unknown keys are dropped, a field left out takes its default (the form showed it
 * filled in, SEP-1034), required fields must be there, every value must fit its field.
 */
export function checkElicitationAnswer(
  fields: readonly ElicitField[],
  answer: Readonly<Record<string, unknown>>,
): { ok: true; content: Record<string, ElicitValue> } | { ok: false; errors: Record<string, string> } {
  const content: Record<string, ElicitValue> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const given = answer[f.name];
    const value = given === undefined ? f.default : given;
    if (value === undefined || value === '') {
      if (f.required) errors[f.name] = `${f.title} is required`;
      continue;
    }
    const why = problem(f, value);
    if (why !== undefined) errors[f.name] = `${f.title} ${why}`;
    else content[f.name] = value as ElicitValue;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}
