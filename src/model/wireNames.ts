/**
 * Tool names on the wire. The core and everything a user sees (events, transcripts, hooks, approvals,
 * the hook bridge, the chat, the CLI) use the real qualified name `<server>__<tool>`, whatever the
 * server called its tool (MCP allows up to 128 characters with dots and slashes, `files.read`).
 * Only a request to a model carries an alias, and a reply's calls are turned back into real names
 * before the core sees them.
 *
 * The alias of a name is a pure function of the name and the endpoint's rule, never of the other
 * tools: a name the endpoint accepts goes as it is; any other goes as its readable form (accents
 * dropped, every run of other characters one `_`, the server part shortened before the tool's when
 * it is too long) followed by `_` and 8 hex digits of the real name's SHA-256. So adding or removing
 * a server mid-chat never renames a tool, and a transcript replayed in another process gets the same
 * aliases. Two names can only meet on one alias if a real name is spelled exactly like another's
 * alias or two hashes agree in 32 bits; then the name that claimed it first in the conversation keeps
 * it and the other takes a salted hash (`WireNames`), so they are always kept apart.
 */
import { createHash } from 'node:crypto';

/**
 * `openai`: `^[a-zA-Z0-9_-]{1,64}$`, what OpenAI, Azure, Mistral, DeepSeek, Anthropic behind a gateway
 * and most OpenAI-compatible servers accept. `letter_first`: Gemini's rule on top (a name starts with
 * a letter or `_`).
 */
export type ToolNameRule = 'openai' | 'letter_first';

export const MAX_WIRE_NAME_LENGTH = 64;
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const LETTER_FIRST = /^[a-zA-Z_]/;
const HASH_LENGTH = 8;
const SEPARATOR = '__';
/** The server part keeps at least this much when a long tool name needs the room. */
const MIN_SERVER_CHARS = 12;

export function acceptsName(name: string, rule: ToolNameRule): boolean {
  return OPENAI_NAME.test(name) && (rule === 'openai' || LETTER_FIRST.test(name));
}

function hashOf(name: string, salt: number): string {
  const input = salt === 0 ? name : `${name}\u0000${salt}`;
  return createHash('sha256').update(input, 'utf8').digest('hex').slice(0, HASH_LENGTH);
}

/** Accents dropped, each run of characters the wire refuses one `_`. */
function readable(part: string): string {
  return part
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_');
}

/** The readable form in `room` characters: the tool's name matters more than the server's, so the server part shrinks first. */
function readableForm(name: string, room: number): string {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return readable(name).slice(0, room);
  const server = readable(name.slice(0, at));
  const tool = readable(name.slice(at + SEPARATOR.length)).replace(/^_+|_+$/g, '') || 'tool';
  const serverRoom = Math.min(server.length, Math.max(MIN_SERVER_CHARS, room - SEPARATOR.length - tool.length));
  const keptServer = server.slice(0, serverRoom);
  return `${keptServer}${SEPARATOR}${tool}`.slice(0, room);
}

/**
 * The alias a real name asks for under a rule (`salt` > 0 only when that alias is taken). Valid for the
 * rule, at most 64 characters; the name itself when the rule accepts it.
 */
export function wireNameOf(name: string, rule: ToolNameRule, salt = 0): string {
  if (salt === 0 && acceptsName(name, rule)) return name;
  const suffix = `_${hashOf(name, salt)}`;
  let form = readableForm(name, MAX_WIRE_NAME_LENGTH - suffix.length);
  if (rule === 'letter_first' && !LETTER_FIRST.test(form)) form = `_${form}`.slice(0, MAX_WIRE_NAME_LENGTH - suffix.length);
  return `${form}${suffix}`;
}

/**
 * One conversation's aliases under one rule: append-only, so a name keeps its alias for the whole
 * conversation. Names the rule accepts are claimed before the others in each batch, so a real name that
 * happens to look like an alias keeps its own spelling whenever both arrive together.
 */
export class WireNames {
  private readonly toWire = new Map<string, string>();
  private readonly toReal = new Map<string, string>();

  constructor(readonly rule: ToolNameRule) {}

  /** Gives every name its alias (if it has none yet). */
  claim(names: Iterable<string>): void {
    const fresh = [...new Set(names)].filter((name) => !this.toWire.has(name)).sort();
    const asIs = fresh.filter((name) => acceptsName(name, this.rule));
    for (const name of [...asIs, ...fresh.filter((name) => !acceptsName(name, this.rule))]) this.assign(name);
  }

  /** The alias of a real name, claiming it if needed. */
  wire(name: string): string {
    return this.toWire.get(name) ?? this.assign(name);
  }

  /** The real name behind an alias; undefined for a name this conversation never sent. */
  real(wire: string): string | undefined {
    return this.toReal.get(wire);
  }

  private assign(name: string): string {
    let salt = 0;
    let alias = wireNameOf(name, this.rule);
    while (this.toReal.has(alias)) alias = wireNameOf(name, this.rule, ++salt);
    this.toWire.set(name, alias);
    this.toReal.set(alias, name);
    return alias;
  }
}
