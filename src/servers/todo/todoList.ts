/**
 * The todo list's rules as pure functions: validation (size, length, duplicates, invisible or
 * direction-changing characters that could hide text from the user), rendering with the next open
 * item marked, and the warning when open items disappear without being done.
 */

export interface TodoItem {
  text: string;
  done: boolean;
}

export const MAX_ITEMS = 50;
export const MAX_ITEM_CHARS = 200;

// Control characters, bidi embeddings/overrides/isolates and marks, zero-width characters and BOM.
const FORBIDDEN = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u061C\uFEFF]/u;

function describeChar(c: string): string {
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function key(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The cleaned list, or a list of every problem found (each naming the item). */
export function validateTodoList(items: readonly TodoItem[]): { ok: true; items: TodoItem[] } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  if (items.length > MAX_ITEMS) errors.push(`the list has ${items.length} items; at most ${MAX_ITEMS} are allowed`);
  const seen = new Map<string, number>();
  const cleaned = items.map((item, index) => {
    const n = index + 1;
    const text = item.text.trim();
    if (text === '') errors.push(`item ${n} is empty`);
    if (text.length > MAX_ITEM_CHARS) errors.push(`item ${n} has ${text.length} characters; at most ${MAX_ITEM_CHARS} are allowed`);
    const bad = FORBIDDEN.exec(item.text);
    if (bad) errors.push(`item ${n} contains a control, bidi or zero-width character (${describeChar(bad[0])}); use plain text`);
    const k = key(text);
    const first = seen.get(k);
    if (first !== undefined && text !== '') errors.push(`item ${n} duplicates item ${first} ("${text.slice(0, 60)}")`);
    else seen.set(k, n);
    return { text, done: item.done };
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, items: cleaned };
}

/** Open items of `before` that are neither in `after` nor were done: the model dropped them. */
export function vanishedOpenItems(before: readonly TodoItem[], after: readonly TodoItem[]): string[] {
  const remaining = new Set(after.map((i) => key(i.text)));
  return before.filter((i) => !i.done && !remaining.has(key(i.text))).map((i) => i.text);
}

export function renderItems(items: readonly TodoItem[]): string {
  const next = items.findIndex((i) => !i.done);
  return items.map((item, index) => `${index + 1}. [${item.done ? 'x' : ' '}] ${item.text}${index === next ? '  <- next' : ''}`).join('\n');
}

export function openCount(items: readonly TodoItem[]): number {
  return items.filter((i) => !i.done).length;
}

/** What the `todo` tool answers after a successful update. */
export function renderUpdate(items: readonly TodoItem[], vanished: readonly string[]): string {
  const done = items.length - openCount(items);
  const head = items.length === 0 ? 'Todo list cleared.' : `Todo list (${done}/${items.length} done):`;
  const lines = [head];
  if (items.length > 0) lines.push(renderItems(items));
  if (items.length > 0 && openCount(items) === 0) lines.push('All items are done.');
  if (vanished.length > 0) {
    lines.push(
      `Warning: ${vanished.length} open item${vanished.length === 1 ? ' was' : 's were'} removed without being done: ` +
        `${vanished.map((t) => `"${t}"`).join(', ')}. If that work is still needed, add it back; if it is done, mark it done instead.`,
    );
  }
  return lines.join('\n');
}

export function renderStopObjection(items: readonly TodoItem[]): string {
  if (openCount(items) === 0) return '';
  return `You have open todo items. Keep working.\n\n${renderItems(items)}`;
}

export function renderPostCompact(items: readonly TodoItem[]): string {
  if (items.length === 0) return '';
  return `# Todo List\n\n${renderItems(items)}`;
}

/** `_SessionStart` on a resumed session: the open list again, so the model picks up the plan. */
export function renderResumed(items: readonly TodoItem[]): string {
  if (openCount(items) === 0) return '';
  return `# Todo List (resumed session)\n\n${renderItems(items)}`;
}
