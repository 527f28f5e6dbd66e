/**
 * Renders one streamed markdown answer incrementally, so the cost of a frame does not grow with the
 * answer. Text up to the last block boundary (a blank line outside a code fence) is rendered once into
 * a fixed chunk and never touched again; only the unfinished tail is re-rendered. Chunks are rendered
 * apart, so a construct spanning a blank line (a loose list, say) may look split while streaming; the
 * finished answer is rendered whole when the host marks it done. Code in the tail is highlighted once
 * its chunk settles. Only the unsettled text is kept (a long answer's whole text, grown by `+=`, would
 * be a rope the engine flattens on every scan: a copy of the whole answer per token).
 */
import { GroupedList } from './groupedList';
import { highlightIn } from './highlight';
import { renderMarkdown } from './markdown';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A chunk settles at the first block boundary after this many characters (a whole answer given at once is cut the same way). */
const CHUNK_CHARS = 1500;

export class StreamingMarkdown {
  /** The text after the last settled chunk. */
  private rest = '';
  /** Characters of `rest` scanned for boundaries (always at a line start). */
  private scanned = 0;
  /** Block boundaries in `rest` found since the last settled chunk. */
  private boundaries: number[] = [];
  private openFence: string | null = null;
  private readonly tail: HTMLElement;
  private readonly chunks: GroupedList;

  constructor(private readonly root: HTMLElement) {
    this.tail = document.createElement('div');
    this.tail.className = 'md-tail';
    root.replaceChildren(this.tail);
    this.chunks = new GroupedList(root, 'md-group', this.tail);
  }

  append(delta: string): void {
    this.rest += delta;
  }

  render(): void {
    this.scan();
    // Small chunks while streaming (one per paragraph), at most about CHUNK_CHARS each for text given at once.
    const last = this.boundaries.length - 1;
    let start = 0;
    this.boundaries.forEach((boundary, i) => {
      if (i !== last && boundary - start < CHUNK_CHARS) return;
      this.settle(this.rest.slice(start, boundary));
      start = boundary;
    });
    if (start > 0) {
      this.rest = this.rest.slice(start);
      this.scanned -= start;
    }
    this.boundaries = [];
    this.tail.innerHTML = renderMarkdown(this.rest);
  }

  private settle(text: string): void {
    const chunk = document.createElement('div');
    chunk.className = 'md-chunk';
    chunk.innerHTML = renderMarkdown(text);
    this.chunks.append(chunk);
    // A settled chunk's code is final: highlighted once, never per token.
    highlightIn(chunk);
  }

  /** Walks the complete lines added since the last scan, tracking code fences and blank lines. */
  private scan(): void {
    let start = this.scanned;
    for (let end = this.rest.indexOf('\n', start); end >= 0; end = this.rest.indexOf('\n', start)) {
      const line = this.rest.slice(start, end);
      const fence = FENCE.exec(line)?.[1];
      if (this.openFence !== null) {
        const closes = fence !== undefined && fence[0] === this.openFence[0] && fence.length >= this.openFence.length && line.trim() === fence;
        if (closes) this.openFence = null;
      } else if (fence !== undefined) {
        this.openFence = fence;
      } else if (line.trim() === '') {
        this.boundaries.push(end + 1);
      }
      start = end + 1;
    }
    this.scanned = start;
  }
}
