/** The one DOM helper of the webview: an element with attributes and (never HTML) text, and codicon icons and buttons. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A codicon (the VS Code icon font, dist/codicon.css), hidden from screen readers: the control it sits in has the words. */
export function icon(name: string, extra = ''): HTMLElement {
  return el('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

export interface ButtonOptions {
  label: string;
  /** The words shown, when shorter than the label (which stays the tooltip and the accessible name). */
  text?: string;
  testid?: string;
  icon?: string;
  /** Icon only: the label is the tooltip and the accessible name. */
  iconOnly?: boolean;
  cls?: string;
  onClick: () => void;
}

export function button(o: ButtonOptions): HTMLButtonElement {
  const attrs: Record<string, string> = { type: 'button', class: `${o.iconOnly ? 'icon-button' : 'text-button'}${o.cls ? ` ${o.cls}` : ''}`, title: o.label, 'aria-label': o.label };
  if (o.testid) attrs['data-testid'] = o.testid;
  const b = el('button', attrs);
  if (o.icon) b.append(icon(o.icon));
  if (!o.iconOnly) b.append(el('span', {}, o.text ?? o.label));
  b.addEventListener('click', (event) => {
    event.stopPropagation();
    o.onClick();
  });
  return b;
}
