/**
 * The YAML front matter that every customization format keeps at the top of a Markdown file (Copilot's
 * `.instructions.md`, `.prompt.md` and `.agent.md`, Cursor's `.mdc`, Claude Code's commands and agents,
 * `SKILL.md`): split from the body and parsed once here, so each format only reads its own fields.
 * A file is attacker-written: a broken header is a FrontMatterError naming the line, never a throw from
 * the YAML library, and the body is still there for a caller that can use it without the fields.
 * Headers are written for tools that read them leniently (Cursor, Claude Code, VS Code), so a header
 * YAML refuses is read once more with each top-level `key: value` whose value YAML cannot take as
 * written (it opens with `*`, `&` or `!`, or holds `: `) taken as the text it reads as, as the Agent
 * Skills client guide advises; a header that still does not read is refused.
 */
import { parseDocument } from 'yaml';

export interface FrontMatter {
  /** The header's fields (empty when the file has no header or an empty one). */
  fields: Record<string, unknown>;
  /** The text after the header, as written. */
  body: string;
  /** 1-based line of the body's first line in the file, so a note about the body names the right line. */
  bodyLine: number;
}

/** A header that is not a YAML mapping: `line` is 1-based in the whole file. */
export class FrontMatterError extends Error {
  constructor(
    readonly line: number,
    message: string,
    /** The file without its header, for callers that still use the body. */
    readonly body: string,
  ) {
    super(message);
    this.name = 'FrontMatterError';
  }
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;
/** A header bigger than this is not front matter anyone wrote by hand: refused before YAML sees it. */
export const FRONT_MATTER_MAX_CHARS = 64 * 1024;

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Splits and parses `text`; a file with no `---` header has no fields and is all body. */
export function readFrontMatter(text: string): FrontMatter {
  const opening = OPENING.exec(text);
  if (opening === null) return { fields: {}, body: text, bodyLine: 1 };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null) throw new FrontMatterError(1, 'the front matter that opens on line 1 with "---" is never closed by a "---" line', text);
  const header = rest.slice(0, closing.index);
  const afterClosing = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  const bodyLine = lineOf(text, text.length - afterClosing.length);
  if (header.length > FRONT_MATTER_MAX_CHARS) throw new FrontMatterError(2, `the front matter is ${header.length} characters, over ${FRONT_MATTER_MAX_CHARS}`, afterClosing);
  return { fields: parseLeniently(header, afterClosing), body: afterClosing, bodyLine };
}

/** A plain value YAML would read as something else or refuse: an alias, anchor or tag first, or `: ` inside. */
const NOT_PLAIN = /^[*&!]|:\s/;
/** A value already written in a YAML form of its own: quoted, a flow list or map, a block scalar, a comment. */
const YAML_FORM = /^["'[{|>#]/;

/** The header, or, when YAML refuses it, the header with each such top-level value quoted. */
function parseLeniently(header: string, body: string): Record<string, unknown> {
  try {
    return parseHeader(header, body);
  } catch (error) {
    // Each pattern here matches in linear time (the text is a file's): no lazy part before a trailing run.
    const quoted = header.replace(/^([A-Za-z_][\w-]*):[ \t]+(.*)$/gm, (line, key: string, raw: string) => {
      const value = raw.trim();
      return value === '' || YAML_FORM.test(value) || !NOT_PLAIN.test(value) ? line : `${key}: ${JSON.stringify(value)}`;
    });
    if (quoted === header) throw error;
    try {
      return parseHeader(quoted, body);
    } catch {
      throw error;
    }
  }
}

function parseHeader(header: string, body: string): Record<string, unknown> {
  // Aliases are refused outright (maxAliasCount 0): a billion-laughs header costs nothing to reject.
  const doc = parseDocument(header, { prettyErrors: false, uniqueKeys: false, strict: false });
  const error = doc.errors[0];
  if (error !== undefined) {
    // The header starts on the file's line 2 (after the opening `---`).
    const line = lineOf(header, error.pos[0]) + 1;
    throw new FrontMatterError(line, `the front matter is not valid YAML on line ${line}: ${firstLine(error.message)}`, body);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    throw new FrontMatterError(2, `the front matter cannot be read: ${firstLine(String((error as Error).message))}`, body);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new FrontMatterError(2, 'the front matter must be "key: value" lines (a YAML mapping)', body);
  return value as Record<string, unknown>;
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message;
}

/** A field as a string (a number or boolean written bare counts, `applyTo: 1` is "1"); undefined when absent or not a scalar. */
export function stringField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * One comma-separated string's items (`src/**, test/**`), split only at commas outside braces, so a
 * glob's brace group (`**\/*.{ts,tsx}`) stays one item; the non-empty trimmed items.
 */
export function commaList(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') depth++;
    else if (ch === '}' && depth > 0) depth--;
    else if (ch === ',' && depth === 0) {
      items.push(text.slice(start, i));
      start = i + 1;
    }
  }
  items.push(text.slice(start));
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/**
 * A field that the formats write as a list or as one comma-separated string (`tools: [a, b]`,
 * `tools: a, b`, `globs: "src/**, test/**"`): the non-empty trimmed items (commaList).
 */
export function listField(fields: Record<string, unknown>, name: string): string[] | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return commaList(value);
  const items = Array.isArray(value) ? value.map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '')) : [];
  return items.map((item) => item.trim()).filter((item) => item !== '');
}
