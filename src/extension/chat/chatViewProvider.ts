/**
 * Shows the chat in the `sprout.chat` webview view and, on request, in an editor tab. Each webview is
 * a thin port: messages from it are validated with the protocol schema (anything else is logged and
 * dropped) and handed to the message table; the chat views' messages are posted back. The view also
 * carries the open chat's title (as its description) and a badge counting the questions that wait.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../agent/ports';
import { errorMessage } from '../../agent/errorMessage';
import { describeIssues, webviewMessageSchema, type HostMessage, type WebviewMessage } from '../../shared/protocol';
import type { ViewEvent, ViewEvents } from '../viewEvents';
import type { ChatIndex } from './chatIndex';
import type { ChatViews } from './chatViews';
import type { QuestionBrokers } from './questionBrokers';
import { buildChatHtml, webviewOptions } from './webviewHtml';

export const CHAT_VIEW_ID = 'sprout.chat';

/** What a chat webview is connected to. */
export interface ChatWebviewDeps {
  views: ChatViews;
  handle: (message: WebviewMessage) => Promise<void>;
  logger: Logger;
  extensionUri: vscode.Uri;
}

export function connectWebview(webview: vscode.Webview, deps: ChatWebviewDeps, visible: () => boolean): vscode.Disposable {
  webview.options = webviewOptions(deps.extensionUri);
  webview.html = buildChatHtml(webview, deps.extensionUri);
  let ready = false;
  const attached = deps.views.attach({
    post: (message: HostMessage): void => {
      // Before `ready` the webview's listener may not exist yet; it asks for a snapshot when it does.
      if (ready || message.type === 'snapshot') void webview.postMessage(message);
    },
    visible,
  });
  const listener = webview.onDidReceiveMessage((raw: unknown) => {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      deps.logger.warn('dropped an invalid message from the chat webview', { issues: describeIssues(parsed.error) });
      return;
    }
    if (parsed.data.type === 'ready') ready = true;
    deps.handle(parsed.data).catch((error: unknown) => {
      deps.logger.error('chat action failed', { message: errorMessage(error) });
      void vscode.window.showErrorMessage(`Sprout: ${errorMessage(error)}`);
    });
  });
  return vscode.Disposable.from(attached, listener);
}

export interface ChatViewProviderDeps extends ChatWebviewDeps {
  questions: QuestionBrokers;
  index: ChatIndex;
  events: ViewEvents;
}

export class ChatViewProvider implements vscode.WebviewViewProvider {
  view: vscode.WebviewView | undefined;
  /** The chat the views show (from the view events), for the view's title. */
  private openChatId: string | undefined;

  constructor(private readonly deps: ChatViewProviderDeps) {
    deps.events.subscribe({ apply: (event: ViewEvent) => this.follow(event) });
    deps.index.onDidChange(() => this.showTitle());
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const connection = connectWebview(view.webview, this.deps, () => view.visible);
    // A question waiting for the user shows as a badge on the view, whether or not it is open.
    const badge = (): void => {
      const n = this.deps.questions.waiting;
      view.badge = n === 0 ? undefined : { value: n, tooltip: `${n} ${n === 1 ? 'question waits' : 'questions wait'} for your answer` };
    };
    const stopBadge = this.deps.questions.onWaitingChange(badge);
    this.showTitle();
    view.onDidDispose(() => {
      connection.dispose();
      stopBadge();
      this.view = undefined;
    });
  }

  private follow(event: ViewEvent): void {
    if (event.type !== 'chat_opened') return;
    this.openChatId = event.chatId;
    this.showTitle();
  }

  private showTitle(): void {
    if (this.view) this.view.description = this.openChatId === undefined ? undefined : this.deps.index.get(this.openChatId)?.title;
  }
}

export const CHAT_EDITOR_VIEW_TYPE = 'sprout.chatEditor';

/** A chat editor tab showing the open chat, as every chat view does. */
function adoptChatEditor(panel: vscode.WebviewPanel, deps: ChatWebviewDeps): void {
  panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'sprout.svg');
  const connection = connectWebview(panel.webview, deps, () => panel.visible);
  panel.onDidDispose(() => connection.dispose());
}

export function openChatInEditor(deps: ChatWebviewDeps): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(CHAT_EDITOR_VIEW_TYPE, 'Sprout Chat', vscode.ViewColumn.Beside, {
    ...webviewOptions(deps.extensionUri),
    retainContextWhenHidden: true,
  });
  adoptChatEditor(panel, deps);
  return panel;
}

/**
 * Chat editor tabs come back after a window reload or restart, where the user left them. The chat
 * itself is the window's open chat (its history is on disk), so the tab keeps no state of its own.
 */
export function restoreChatEditors(deps: ChatWebviewDeps): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(CHAT_EDITOR_VIEW_TYPE, {
    deserializeWebviewPanel: async (panel) => adoptChatEditor(panel, deps),
  });
}
