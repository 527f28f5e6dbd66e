/**
 * The one HTML/CSP builder for the chat webview: `default-src 'none'`, the script allowed only by a
 * fresh nonce from crypto.randomBytes, styles only from the bundle, no inline script and no
 * 'unsafe-inline'. Resources load only from dist/ and media/ (the webview's localResourceRoots): the
 * bundle and its CSS, the codicon font, and the highlighter, which the page loads later with the same
 * nonce (its URL is on the body, `data-highlight`).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export function buildChatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.css'));
  const codicons = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'codicon.css'));
  const highlighter = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'highlight.js'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${codicons.toString()}">
<link rel="stylesheet" href="${style.toString()}">
<title>Sprout Chat</title>
</head>
<body data-highlight="${highlighter.toString()}">
<main id="app" aria-label="Sprout chat"></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
