/** What the window's chat controller is built from, and the port each chat webview (view or tab) is to it. */
import type * as vscode from 'vscode';
import type { Logger } from '../../agent/ports';
import type { HooksSummary, HostMessage } from '../../shared/protocol';
import type { AgentHost } from '../agentHost';
import type { ApprovalSources } from '../approvals/approvalPolicy';
import type { HooksViewState } from '../hooks/hooksViewState';
import type { ExtensionSettings } from '../settings/settingsMapping';
import type { TestResultsMirror } from '../testing/testResultsMirror';
import type { ChatIndex } from './chatIndex';

export interface ChatControllerDeps {
  host: AgentHost;
  index: ChatIndex;
  hooks: HooksViewState;
  /** The Testing view's copy of the last test verdict; also opens failure locations. */
  testing: TestResultsMirror;
  logger: Logger;
  state: vscode.Memento;
  settings: () => ExtensionSettings;
  apiKey: () => string | undefined;
  /** Where pre-approvals come from (never the workspace's files). */
  approvalSources: ApprovalSources;
  onCommand: (command: string, ...args: unknown[]) => void;
  /** The hooks in one line (header, empty state). */
  hooksSummary: () => HooksSummary;
}

export interface ChatViewPort {
  post(message: HostMessage): void;
  /** Whether the user can see this view now (a collapsed side bar or a background tab cannot). */
  visible(): boolean;
}
