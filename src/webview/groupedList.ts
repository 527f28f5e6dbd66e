/**
 * Appends nodes into groups of a fixed size instead of straight into one parent, so a long chat (or a
 * long answer's settled chunks) has few direct children: when the open end grows each frame, the
 * browser re-walks only the groups, not every entry, and only the full ("closed") groups skip layout
 * and paint while off screen (`content-visibility` in chat.css). This keeps the cost of a streamed
 * token flat as the session grows; a node can still be replaced in place wherever it sits.
 */
export class GroupedList {
  private open: HTMLElement | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly className: string,
    /** Groups go before this node (a streaming answer's unfinished tail), else at the end. */
    private readonly before: Node | null = null,
    private readonly size = 32,
  ) {}

  append(node: Node): void {
    if (!this.open || this.open.childElementCount >= this.size) {
      this.open?.classList.add('closed');
      this.open = document.createElement('div');
      this.open.className = this.className;
      this.root.insertBefore(this.open, this.before);
    }
    this.open.append(node);
  }

  /** The root was emptied: the next node starts a new group. */
  reset(): void {
    this.open = undefined;
  }
}
