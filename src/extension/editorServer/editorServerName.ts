/** The name of Sprout's own in-process editor server (Problems, symbols), in a file without `vscode` so views and tests can import it. */
export const EDITOR_SERVER_NAME = 'editor';
