/**
 * What the composer's `/` and `#` menus share: a list under the message box of items with a name and a
 * description, one active; Up/Down move, Enter or Tab pick, Escape closes, a click picks (on mousedown:
 * the box's blur would close the list first). Each menu says what is listed (`show`) and what a pick does.
 */
import { el } from './dom';

export interface PickItem {
  name: string;
  description: string;
  title?: string;
}

export abstract class PickList<T> {
  readonly element: HTMLElement;
  protected shown: T[] = [];
  private active = 0;

  constructor(
    protected readonly input: HTMLTextAreaElement,
    attributes: { class: string; testid: string },
    private readonly itemTestId: string,
  ) {
    this.element = el('div', { class: attributes.class, role: 'listbox', 'data-testid': attributes.testid, hidden: '' });
    input.addEventListener('input', () => this.update());
    input.addEventListener('blur', () => this.hide());
  }

  get open(): boolean {
    return !this.element.hidden;
  }

  /** A key the menu takes (it is open): true when it was handled. */
  key(event: KeyboardEvent): boolean {
    if (!this.open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : this.shown.length - 1)) % this.shown.length;
      this.render();
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      const picked = this.shown[this.active];
      if (picked !== undefined) this.pick(picked);
      return true;
    }
    if (event.key === 'Escape') {
      this.hide();
      return true;
    }
    return false;
  }

  /** The box changed: what to list now (`show`), or `hide`. */
  protected abstract update(): void;
  /** How an item reads in the list. */
  protected abstract view(item: T): PickItem;
  /** What picking `item` does to the box. */
  protected abstract pick(item: T): void;

  protected show(items: readonly T[]): void {
    this.shown = [...items];
    if (this.shown.length === 0) return this.hide();
    this.active = Math.min(this.active, this.shown.length - 1);
    this.element.hidden = false;
    this.render();
  }

  protected hide(): void {
    this.element.hidden = true;
    this.active = 0;
  }

  private render(): void {
    this.element.replaceChildren(
      ...this.shown.map((entry, i) => {
        const view = this.view(entry);
        const item = el('div', { class: `slash-item${i === this.active ? ' active' : ''}`, role: 'option', 'aria-selected': String(i === this.active), 'data-testid': this.itemTestId, ...(view.title === undefined ? {} : { title: view.title }) });
        item.append(el('span', { class: 'slash-name' }, view.name), el('span', { class: 'slash-description' }, view.description));
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.pick(entry);
        });
        return item;
      }),
    );
  }
}
