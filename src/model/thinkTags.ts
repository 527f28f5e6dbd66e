/**
 * Splits a reply whose content opens with `<think>...</think>` (reasoning models served without a
 * reasoning parser: llama.cpp, LM Studio, vLLM, older Ollama) into thinking and answer, as the pieces
 * stream. Only a tag at the very start counts; the tags may arrive cut across pieces. Once the answer
 * has begun every later piece passes straight through, so the usual stream pays one comparison.
 * Results land in `answer` and `thought` (reset by each call) rather than a fresh object per piece.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

const START = 0;
const THINKING = 1;
const ANSWER = 2;
/** Just after `</think>`: the blank lines before the answer are dropped. */
const AFTER_THINK = 3;

/** The length of the longest end of `text` that is a beginning of `tag` (a tag cut between pieces). */
function partialTagAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

export class ThinkTagSplitter {
  answer = '';
  thought = '';
  private state = START;
  private held = '';

  /** True once the content is known to be answer only. */
  get answering(): boolean {
    return this.state === ANSWER;
  }

  push(piece: string): void {
    this.answer = '';
    this.thought = '';
    if (this.state === ANSWER) {
      this.answer = piece;
      return;
    }
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
    this.state = ANSWER;
    this.answer = text;
  }

  /** The end of the stream: whatever was held back is released (an unclosed `<think>` was all thinking). */
  end(): void {
    this.answer = '';
    this.thought = '';
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

  private afterThink(text: string): void {
    const answer = text.trimStart();
    if (answer === '') return;
    this.state = ANSWER;
    this.answer = answer;
  }
}
