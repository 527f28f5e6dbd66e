/**
 * Keeps the conversation at its newest line while the user has not scrolled up, and out of their way
 * when they have: a "Jump to latest" button then appears (and says so when something new came). What
 * needs the user (an approval question, a server's question) is always brought into view, whatever
 * the scroll position, and read out to screen readers. It follows the content's size with one
 * ResizeObserver on the log's content (called after layout, once per frame at most), so it never
 * forces a layout of its own while text streams, and it catches growth that comes late (an entry that
 * was skipped by `content-visibility` until it came into view).
 */
import { el, icon } from './dom';

/** Within this many pixels of the end counts as "at the end". */
const SLACK = 24;

export class Scroller {
  private stuck = true;
  /** Showing the empty chat from its top: neither following growth nor offering "Jump to latest". */
  private resting = false;
  /** The scrollTop this class last set: a scroll above it is the user's. */
  private autoTop = 0;
  readonly jump: HTMLButtonElement;
  private readonly live: HTMLElement;

  constructor(
    private readonly log: HTMLElement,
    content: HTMLElement,
    parent: HTMLElement,
  ) {
    this.jump = el('button', { type: 'button', class: 'jump-latest', 'data-testid': 'jump-latest', 'aria-label': 'Jump to latest', title: 'Jump to latest', hidden: '' });
    this.jump.append(icon('arrow-down'), el('span', {}, 'Jump to latest'));
    this.jump.addEventListener('click', () => this.toEnd(true));
    this.live = el('div', { class: 'sr-only', role: 'status', 'aria-live': 'assertive', 'data-testid': 'announcer' });
    parent.append(this.jump, this.live);
    log.addEventListener('scroll', () => this.onScroll(), { passive: true });
    new ResizeObserver(() => this.grew()).observe(content);
  }

  private grew(): void {
    if (this.resting) return;
    if (this.stuck) {
      this.log.scrollTop = this.log.scrollHeight;
      this.autoTop = this.log.scrollTop;
    } else if (this.distance() > SLACK) {
      this.jump.hidden = false;
      this.jump.classList.add('has-new');
    }
  }

  private distance(): number {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight;
  }

  private onScroll(): void {
    if (this.resting) return;
    const atEnd = this.distance() <= SLACK;
    if (atEnd) this.stuck = true;
    else if (this.log.scrollTop < this.autoTop - 2) this.stuck = false;
    this.jump.hidden = this.stuck;
    if (this.stuck) this.jump.classList.remove('has-new');
  }

  /** The chat is empty: its intro is read from the top (a short panel would otherwise show only its end). */
  toStart(): void {
    this.resting = true;
    this.stuck = false;
    this.log.scrollTop = 0;
    this.autoTop = 0;
    this.jump.hidden = true;
  }

  /** The user sent a message or asked for the end, or the chat got its first entry: follow the conversation again. */
  toEnd(focus: boolean): void {
    this.resting = false;
    this.stuck = true;
    this.log.scrollTop = this.log.scrollHeight;
    this.autoTop = this.log.scrollTop;
    this.jump.hidden = true;
    this.jump.classList.remove('has-new');
    if (focus) this.log.focus({ preventScroll: true });
  }

  /**
   * Brings `target` (a card waiting for the user) fully into view and reads `message` out. If it is the
   * newest thing in the log the view sticks to the end again; if not, it stays where the card is.
   */
  reveal(target: HTMLElement, message: string): void {
    const card = target.getBoundingClientRect();
    const view = this.log.getBoundingClientRect();
    if (card.bottom > view.bottom || card.top < view.top) {
      // Its bottom (where the buttons are) matters most; a card taller than the view shows its bottom.
      const delta = card.height > view.height ? card.bottom - view.bottom : card.top < view.top ? card.top - view.top : card.bottom - view.bottom;
      this.log.scrollTop += delta;
    }
    this.autoTop = this.log.scrollTop;
    this.stuck = this.distance() <= SLACK;
    this.jump.hidden = this.stuck;
    this.announce(message);
  }

  announce(message: string): void {
    // Cleared first, so the same words twice are read twice.
    this.live.textContent = '';
    requestAnimationFrame(() => (this.live.textContent = message));
  }
}
