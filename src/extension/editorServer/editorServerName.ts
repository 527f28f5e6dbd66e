/** The name of Sprout's own in-process editor server (Problems, symbols): defined in src/shared, which the webview reads too. */
export { EDITOR_SERVER_NAME } from '../../shared/editorServerName';
