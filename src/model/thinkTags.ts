/**
 * Splits a reply whose content carries `<think>...</think>` (reasoning models served without a
 * reasoning parser: llama.cpp, LM Studio, vLLM, older Ollama) into thinking and answer, as the pieces
 * stream, wherever the reasoning appears: an opening tag at the very start, or a closing `</think>`
 * with no opening tag (DeepSeek-R1 distills whose chat template already wrote `<think>` into the
 * prompt), in which case everything before it was thinking. The tags may arrive cut across pieces. A
 * `</think>` quoted in inline code is text. Text that turns out to have been thinking after it was
 * passed on as answer is reported in `retracted`, so the caller moves it. Results land in `answer`,
 * `thought` and `retracted` (reset by each call) rather than a fresh object per piece.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

const START = 0;
const THINKING = 1;
const ANSWER = 2;
/** Just after `</think>`: the blank lines before the answer are dropped. */
const AFTER_THINK = 3;
/** Answer so far, unless a lone `</think>` comes and shows it was thinking. */
const MAYBE_ANSWER = 4;

/** The length of the longest end of `text` that is a beginning of `tag` (a tag cut between pieces). */
function partialTagAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

function countTicks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i + 1)) n++;
  return n;
}

export class ThinkTagSplitter {
  answer = '';
  thought = '';
  /** Text passed on as answer by earlier calls that a lone `</think>` has shown to be thinking. */
  retracted = '';
  private state = START;
  private held = '';
  /** What was passed on as answer while a lone `</think>` could still come (MAYBE_ANSWER). */
  private passed = '';

  /** True once the content is known to be answer only. */
  get answering(): boolean {
    return this.state === ANSWER;
  }

  push(piece: string): void {
    this.answer = '';
    this.thought = '';
    this.retracted = '';
    if (this.state === ANSWER) {
      this.answer = piece;
      return;
    }
    if (this.state === MAYBE_ANSWER) return this.maybeAnswer(this.held + piece);
    if (this.state === THINKING) return this.think(this.held + piece);
    if (this.state === AFTER_THINK) return this.afterThink(piece);
    const text = this.held + piece;
    const start = text.trimStart();
    if (start === '' || (start.length < OPEN.length && OPEN.startsWith(start))) {
      this.held = text;
      return;
    }
    this.held = '';
    if (start.startsWith(OPEN)) {
      this.state = THINKING;
      return this.think(start.slice(OPEN.length));
    }
    this.state = MAYBE_ANSWER;
    this.maybeAnswer(text);
  }

  /** The end of the stream: whatever was held back is released (an unclosed `<think>` was all thinking). */
  end(): void {
    this.answer = '';
    this.thought = '';
    this.retracted = '';
    if (this.state === THINKING) this.thought = this.held;
    else this.answer = this.held;
    this.held = '';
  }

  private think(text: string): void {
    const close = text.indexOf(CLOSE);
    if (close >= 0) {
      this.thought = text.slice(0, close);
      this.held = '';
      this.state = AFTER_THINK;
      return this.afterThink(text.slice(close + CLOSE.length));
    }
    const keep = partialTagAtEnd(text, CLOSE);
    this.thought = text.slice(0, text.length - keep);
    this.held = text.slice(text.length - keep);
  }

  /**
   * Answer text, passed on at once, while watching for a lone `</think>` outside inline code: when
   * it comes, what was passed on is retracted and, with the text before the tag, becomes thinking.
   */
  private maybeAnswer(text: string): void {
    const close = text.indexOf(CLOSE);
    if (close >= 0 && countTicks(this.passed + text.slice(0, close)) % 2 === 0) {
      this.retracted = this.passed;
      this.passed = '';
      this.thought = this.retracted + text.slice(0, close);
      this.held = '';
      this.state = AFTER_THINK;
      return this.afterThink(text.slice(close + CLOSE.length));
    }
    if (close >= 0) {
      // Quoted in code: the reply is an answer that talks about the tag.
      this.state = ANSWER;
      this.held = '';
      this.passed = '';
      this.answer = text;
      return;
    }
    const keep = partialTagAtEnd(text, CLOSE);
    this.answer = text.slice(0, text.length - keep);
    this.held = text.slice(text.length - keep);
    this.passed += this.answer;
  }

  private afterThink(text: string): void {
    const answer = text.trimStart();
    if (answer === '') return;
    this.state = ANSWER;
    this.answer = answer;
  }
}
