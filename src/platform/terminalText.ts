/**
 * What reaches a terminal from outside Sprout (workspace files, MCP servers, the model endpoint, hook
 * text, tool output) is neutralised first: a terminal obeys escape sequences, so a server name or an
 * error message could otherwise write the clipboard (OSC 52), move the cursor over earlier lines,
 * retitle the window or reset the screen. The rule lives here, below every Node-side layer that
 * writes to a terminal (the CLI, the bundled servers' stderr, the editor's task terminal), and the
 * usual way to apply it is not to call it at all but to write through `terminalWriter`, which
 * neutralises every chunk, so a new message cannot forget to.
 *
 * Text keeps newlines and tabs; whole escape sequences (CSI, OSC, DCS and the other ESC forms, in
 * their 7-bit and 8-bit shapes) are removed, then any control character left. Characters that make
 * text read differently from what it is are shown escaped (`\u202e`, `\u{e0041}`) rather than dropped,
 * so a name that differs from another only by them looks different: the direction overrides and
 * isolates ("Trojan Source"), zero-width spaces and marks, word joiners, the byte-order mark and the
 * invisible tag characters (ASCII smuggling). The zero-width joiner stays (emoji sequences need it).
 * JSON lines keep their data instead: `terminalSafeJson` escapes those characters as `\uXXXX`, which
 * parse back to the same strings.
 */

/** Complete escape sequences: an unterminated OSC or DCS loses only its introducer, never the text after it. */
// eslint-disable-next-line no-control-regex
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|[\u001b]\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u009d[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u001b[PX^_][^\u001b\u009c]*(?:\u001b\\|\u009c)|[\u0090\u0098\u009e\u009f][^\u001b\u009c]*(?:\u001b\\|\u009c)|\u001b[ -/]*[0-~]/g;
/** C0 controls but tab and newline, DEL, C1 controls. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Invisible characters that change how text reads: bidi controls, zero-width space and marks, word joiners, BOM, tag characters. */
const INVISIBLE = /[\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;
/** What JSON.stringify leaves raw but a terminal would act on or hide (it escapes C0 itself); tag characters as their surrogate halves. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u200b\u200c\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;

/** One invisible character as visible text: `\u202e`, or `\u{e0041}` beyond the basic plane. */
function visibleEscape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every escape sequence and control character a terminal would obey removed (tabs and newlines kept). */
export function neutralizeTerminalText(text: string): string {
  return text.replace(SEQUENCES, '').replace(UNSAFE, '').replace(INVISIBLE, visibleEscape);
}

/** One JSON value as a line a terminal shows verbatim, with the same data as `JSON.stringify`. */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_JSON, (pair) => pair.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''));
}

/** Each string in a JSON value (keys too) neutralised, the shape kept. */
function neutralizeStrings(value: unknown): unknown {
  if (typeof value === 'string') return neutralizeTerminalText(value);
  if (Array.isArray(value)) return value.map(neutralizeStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [neutralizeTerminalText(k), neutralizeStrings(v)]));
  return value;
}

/**
 * Output for a program that shows it on a terminal (another agent reading a hook's answer): a JSON
 * document keeps its shape with every string in it neutralised, since the reader decodes `\u001b`
 * back into a live escape; any other text is neutralised as it is.
 */
export function neutralizeProgramOutput(text: string): string {
  const body = text.trim();
  if (body.startsWith('{') || body.startsWith('[')) {
    try {
      return `${terminalSafeJson(neutralizeStrings(JSON.parse(body)))}${text.endsWith('\n') ? '\n' : ''}`;
    } catch {
      // Not JSON after all: neutralised as text below.
    }
  }
  return neutralizeTerminalText(text);
}

export interface TextSink {
  write(chunk: string): unknown;
}

const NEUTRALISED = Symbol('sprout.terminalWriter');

/**
 * A stream whose every write is neutralised first. Wrapping twice is harmless (the wrapper is
 * returned as it is), so an entry point wraps what it was given and everything below writes freely.
 */
export function terminalWriter<T extends TextSink>(stream: T): TextSink {
  if ((stream as { [NEUTRALISED]?: true })[NEUTRALISED]) return stream;
  return { [NEUTRALISED]: true, write: (chunk: string) => stream.write(neutralizeTerminalText(chunk)) } as TextSink;
}

/**
 * The end of a chunk where an escape sequence may have begun and not ended yet: an ESC alone, a CSI
 * without its final byte, an OSC, DCS or other string without its terminator (or with only the ESC of
 * `ESC \`), and their 8-bit shapes.
 */
// eslint-disable-next-line no-control-regex
const OPEN_AT_END = /(?:\u001b(?:\[[0-?]*[ -/]*|[\]PX^_][^\u0007\u001b\u009c]*\u001b?|[ -/]*)|\u009b[0-?]*[ -/]*|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u001b\u009c]*\u001b?)$/;
/** The most held back at once: a longer "sequence" is text with a stray introducer, passed on. */
const MAX_HELD = 4096;

/**
 * Neutralises a stream chunk by chunk (a terminal's output as it comes), holding back the end of a
 * chunk where a sequence began until the next one completes it, so a sequence split between two
 * chunks is removed whole instead of leaving its parameters behind as text.
 */
export function terminalTextStream(): { push(chunk: string): string; end(): string } {
  let held = '';
  return {
    push: (chunk) => {
      const text = held + chunk;
      const open = OPEN_AT_END.exec(text);
      const cut = open !== null && text.length - open.index <= MAX_HELD ? open.index : text.length;
      held = text.slice(cut);
      return neutralizeTerminalText(text.slice(0, cut));
    },
    end: () => {
      const rest = held;
      held = '';
      return neutralizeTerminalText(rest);
    },
  };
}
