/**
 * Shows the chat in the `sprout.chat` webview view and, on request, in an editor tab. Each webview is
 * a thin port: messages from it are validated with the protocol schema (anything else is logged and
 * dropped) and handed to the controller; the controller's messages are posted back.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../agent/ports';
import { describeIssues, webviewMessageSchema, type HostMessage } from '../../shared/protocol';
import type { ChatController } from './chatController';
import { buildChatHtml, webviewOptions } from './webviewHtml';
import { errorMessage } from '../../agent/errorMessage';

export const CHAT_VIEW_ID = 'sprout.chat';

export function connectWebview(webview: vscode.Webview, controller: ChatController, logger: Logger, extensionUri: vscode.Uri, visible: () => boolean): vscode.Disposable {
  webview.options = webviewOptions(extensionUri);
  webview.html = buildChatHtml(webview, extensionUri);
  let ready = false;
  const port = {
    post: (message: HostMessage): void => {
      // Before `ready` the webview's listener may not exist yet; it asks for a snapshot when it does.
      if (ready || message.type === 'snapshot') void webview.postMessage(message);
    },
    visible,
  };
  const attached = controller.attach(port);
  const listener = webview.onDidReceiveMessage((raw: unknown) => {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      logger.warn('dropped an invalid message from the chat webview', { issues: describeIssues(parsed.error) });
      return;
    }
    if (parsed.data.type === 'ready') ready = true;
    controller.handle(parsed.data).catch((error: unknown) => {
      logger.error('chat action failed', { message: errorMessage(error) });
      void vscode.window.showErrorMessage(`Sprout: ${errorMessage(error)}`);
    });
  });
  return vscode.Disposable.from(attached, listener);
}

export class ChatViewProvider implements vscode.WebviewViewProvider {
  view: vscode.WebviewView | undefined;

  constructor(
    private readonly controller: ChatController,
    private readonly logger: Logger,
    private readonly extensionUri: vscode.Uri,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const connection = connectWebview(view.webview, this.controller, this.logger, this.extensionUri, () => view.visible);
    // A question waiting for the user shows as a badge on the view, whether or not it is open.
    const badge = (): void => {
      const n = this.controller.waiting;
      view.badge = n === 0 ? undefined : { value: n, tooltip: `${n} ${n === 1 ? 'question waits' : 'questions wait'} for your answer` };
    };
    const stopBadge = this.controller.onWaitingChange(badge);
    const title = (t: string | undefined): void => void (view.description = t);
    this.controller.onHistory = title;
    title(this.controller.currentTitle);
    view.onDidDispose(() => {
      connection.dispose();
      stopBadge();
      this.view = undefined;
    });
  }
}

export function openChatInEditor(controller: ChatController, logger: Logger, extensionUri: vscode.Uri): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel('sprout.chatEditor', 'Sprout Chat', vscode.ViewColumn.Beside, {
    ...webviewOptions(extensionUri),
    retainContextWhenHidden: true,
  });
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'sprout.svg');
  const connection = connectWebview(panel.webview, controller, logger, extensionUri, () => panel.visible);
  panel.onDidDispose(() => connection.dispose());
  return panel;
}
