/**
 * A shell command line split into the simple commands it would run, for command rules. Conservative
 * on purpose: every operator (`&&`, `||`, `;`, `|`, `&`, newlines), subshell `( ... )`, command
 * substitution (`$(...)`, backticks, also inside double quotes) and redirection (`>`, `>>`, `<`, `2>`,
 * `&>`) ends a part or is its own part, so a rule that allows `npm test` never allows what follows it.
 * Quotes and backslashes are removed as the shell removes them. What this reader does not follow
 * (here-documents, process substitution, arithmetic, an unterminated quote) is an error: such a command
 * is never allowed by rule. Variables stay as written (`$HOME`), so a rule sees the text, not a value.
 */

/** A simple command as words; a redirection is a part of its own: `['>', '~/.bashrc']`. */
export type ShellPart = readonly string[];

export class ShellParseError extends Error {}

const SEPARATORS = new Set([';', '&', '|', '\n']);
const WORD_END = new Set([' ', '\t', ';', '&', '|', '\n', '(', ')', '<', '>']);

class Reader {
  pos = 0;
  readonly parts: string[][] = [];
  private words: string[] = [];
  private word: string | undefined;

  constructor(private readonly text: string) {}

  /** Reads until `close` (`)` for a subshell or `$(...)`) or the end, leaving `pos` after it. */
  read(close: string | undefined): void {
    while (this.pos < this.text.length) {
      const c = this.text.charAt(this.pos);
      if (close !== undefined && c === close) {
        this.endPart();
        this.pos++;
        return;
      }
      this.step(c);
    }
    if (close !== undefined) throw new ShellParseError(`missing "${close}"`);
    this.endPart();
  }

  private step(c: string): void {
    if (c === ' ' || c === '\t') return this.skip(() => this.endWord());
    if (c === '&' && this.text[this.pos + 1] === '>') return this.redirection();
    if (SEPARATORS.has(c)) return this.skip(() => this.endPart());
    if (c === '#' && this.word === undefined) return this.comment();
    if (c === '(') return this.subshell();
    if (c === ')') throw new ShellParseError('unbalanced ")"');
    if (c === '<' || c === '>' || (/[0-9]/.test(c) && this.word === undefined && /^[0-9]+[<>]/.test(this.text.slice(this.pos)))) return this.redirection();
    if (c === "'") return this.singleQuoted();
    if (c === '"') return this.doubleQuoted();
    if (c === '\\') return this.escaped();
    if (c === '`') return this.backticks();
    if (c === '$' && this.text[this.pos + 1] === '(') return this.substitution();
    this.add(c);
    this.pos++;
  }

  private skip(action: () => void): void {
    action();
    this.pos++;
  }

  private add(text: string): void {
    this.word = (this.word ?? '') + text;
  }

  private endWord(): void {
    if (this.word !== undefined) this.words.push(this.word);
    this.word = undefined;
  }

  private endPart(): void {
    this.endWord();
    if (this.words.length > 0) this.parts.push(this.words);
    this.words = [];
  }

  private comment(): void {
    while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos++;
  }

  private subshell(): void {
    if (this.word !== undefined || this.words.length > 0) throw new ShellParseError('"(" inside a command');
    this.pos++;
    this.nested(')');
  }

  /** The parts of a nested command line join this reader's parts. */
  private nested(close: string): void {
    const inner = new Reader(this.text);
    inner.pos = this.pos;
    inner.read(close);
    this.parts.push(...inner.parts);
    this.pos = inner.pos;
  }

  private substitution(): void {
    if (this.text[this.pos + 2] === '(') throw new ShellParseError('arithmetic "$((" is not read');
    this.pos += 2;
    this.nested(')');
    this.add('$(...)');
  }

  private backticks(): void {
    const end = this.text.indexOf('`', this.pos + 1);
    if (end < 0) throw new ShellParseError('unterminated backtick');
    const inner = new Reader(this.text.slice(this.pos + 1, end));
    inner.read(undefined);
    this.parts.push(...inner.parts);
    this.add('`...`');
    this.pos = end + 1;
  }

  private singleQuoted(): void {
    const end = this.text.indexOf("'", this.pos + 1);
    if (end < 0) throw new ShellParseError('unterminated single quote');
    this.add(this.text.slice(this.pos + 1, end));
    this.pos = end + 1;
  }

  private doubleQuoted(): void {
    this.pos++;
    this.add('');
    while (this.pos < this.text.length) {
      const c = this.text.charAt(this.pos);
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === '\\' && '"\\$`\n'.includes(this.text[this.pos + 1] ?? '')) {
        if (this.text[this.pos + 1] !== '\n') this.add(this.text.charAt(this.pos + 1));
        this.pos += 2;
      } else if (c === '`') this.backticks();
      else if (c === '$' && this.text[this.pos + 1] === '(') this.substitution();
      else {
        this.add(c);
        this.pos++;
      }
    }
    throw new ShellParseError('unterminated double quote');
  }

  private escaped(): void {
    const next = this.text[this.pos + 1];
    if (next === undefined) throw new ShellParseError('a trailing backslash');
    if (next !== '\n') this.add(next);
    this.pos += 2;
  }

  /** `N>&M` (a descriptor copy) and anything sent to /dev/null change no file: no part. Others are their own part. */
  private redirection(): void {
    this.endWord();
    const match = /^([0-9]*|&)(>>|>\||>&|<>|<<<|<<|<&|<\(|>\(|>|<)/.exec(this.text.slice(this.pos));
    if (match === null) throw new ShellParseError('a redirection');
    const op = match[2];
    if (op === '<<' || op === '<<<' || op === '<(' || op === '>(') throw new ShellParseError(`"${op}" is not read`);
    this.pos += match[0].length;
    while (this.text[this.pos] === ' ' || this.text[this.pos] === '\t') this.pos++;
    const target = this.targetWord();
    if ((op === '>&' || op === '<&') && /^([0-9]+|-)$/.test(target)) return;
    if (target === '/dev/null') return;
    this.parts.push([`${match[1]}${op}`, target]);
  }

  /** The word a redirection names, read with the same quoting rules. */
  private targetWord(): string {
    const inner = new Reader(this.text);
    inner.pos = this.pos;
    while (inner.pos < this.text.length && !WORD_END.has(this.text.charAt(inner.pos))) inner.step(this.text.charAt(inner.pos));
    inner.endPart();
    this.pos = inner.pos;
    const words = inner.parts.pop() ?? [];
    const target = words[0];
    if (target === undefined || words.length !== 1) throw new ShellParseError('a redirection without a target');
    this.parts.push(...inner.parts);
    return target;
  }
}

/** The simple commands of `command`, in order; throws ShellParseError for what it does not follow. */
export function shellParts(command: string): ShellPart[] {
  const reader = new Reader(command.replace(/\r\n?/g, '\n'));
  reader.read(undefined);
  return reader.parts;
}
