/**
 * Renders one streamed markdown answer incrementally, so the cost of a frame does not grow with the
 * answer. Text up to the last block boundary (a blank line outside a code fence) is rendered once into
 * a fixed chunk and never touched again; only the unfinished tail is re-rendered. Chunks are rendered
 * apart, so a construct spanning a blank line (a loose list, say) may look split while streaming; the
 * finished answer is rendered whole when the host marks it done. Code in the tail is highlighted once
 * its chunk settles.
 */
import { highlightIn } from './highlight';
import { renderMarkdown } from './markdown';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export class StreamingMarkdown {
  private text = '';
  /** Characters already rendered into fixed chunks. */
  private settled = 0;
  /** Characters scanned for boundaries (always at a line start). */
  private scanned = 0;
  private boundary = 0;
  private openFence: string | null = null;
  private readonly tail: HTMLElement;

  constructor(private readonly root: HTMLElement) {
    this.tail = document.createElement('div');
    this.tail.className = 'md-tail';
    root.replaceChildren(this.tail);
  }

  append(delta: string): void {
    this.text += delta;
  }

  render(): void {
    this.scan();
    if (this.boundary > this.settled) {
      const chunk = document.createElement('div');
      chunk.className = 'md-chunk';
      chunk.innerHTML = renderMarkdown(this.text.slice(this.settled, this.boundary));
      this.root.insertBefore(chunk, this.tail);
      this.settled = this.boundary;
      // A settled chunk's code is final: highlighted once, never per token.
      highlightIn(chunk);
    }
    this.tail.innerHTML = renderMarkdown(this.text.slice(this.settled));
  }

  /** Walks the complete lines added since the last scan, tracking code fences and blank lines. */
  private scan(): void {
    let start = this.scanned;
    for (let end = this.text.indexOf('\n', start); end >= 0; end = this.text.indexOf('\n', start)) {
      const line = this.text.slice(start, end);
      const fence = FENCE.exec(line)?.[1];
      if (this.openFence !== null) {
        const closes = fence !== undefined && fence[0] === this.openFence[0] && fence.length >= this.openFence.length && line.trim() === fence;
        if (closes) this.openFence = null;
      } else if (fence !== undefined) {
        this.openFence = fence;
      } else if (line.trim() === '') {
        this.boundary = end + 1;
      }
      start = end + 1;
    }
    this.scanned = start;
  }
}
