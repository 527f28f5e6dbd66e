/** The name of Sprout's own in-process editor server (Problems, symbols), here so the webview, the extension and tests share it. */
export const EDITOR_SERVER_NAME = 'editor';

/**
 * Whether an objection's failure rows are tests (mirrored into VS Code's Testing view, so "Show in
 * Testing" finds them) rather than the editor's Problems, which the Testing view never shows.
 */
export function failuresAreTests(server: string): boolean {
  return server !== EDITOR_SERVER_NAME;
}
