/**
 * Registers every `sprout.*` command. Each command is a thin call into the controller, the agent host
 * or the small command modules; commands that take input accept it as an argument too, so tests and
 * keybindings can run them without a prompt.
 */
import * as vscode from 'vscode';
import type { AgentHost } from '../agentHost';
import type { ApiKeyStore } from '../settings/apiKeyStore';
import type { ChatController } from '../chat/chatController';
import { configureHookServers, enableProblemsHook, enableTestRunnerHook, showObjection } from '../hooks/hookCommands';
import { useHooksInAgent, type UseHooksOptions } from '../hooks/agentHooksCommand';
import { forgetToolApprovals } from '../approvals/forgetToolApprovals';
import type { WorkspaceApprovals } from '../approvals/workspaceApprovals';
import { clearApiKey, selectModel, setApiKey, setBaseUrl, type SelectModelArg } from './modelCommands';
import type { ExtensionSettings } from '../settings/settingsMapping';
import { entriesToMarkdown } from '../chat/transcriptExport';
import { errorMessage } from '../../agent/errorMessage';
import type { TestResultsMirror } from '../testing/testResultsMirror';
import { quotedName } from '../../agent/nameText';
import type { PickToolsArg } from '../chat/toolPicker';

export interface CommandDeps {
  controller: ChatController;
  host: AgentHost;
  keys: ApiKeyStore;
  approvals: WorkspaceApprovals;
  settings: () => ExtensionSettings;
  channel: vscode.LogOutputChannel;
  openInEditor: () => void;
  testing: TestResultsMirror;
}

async function revealChat(): Promise<void> {
  await vscode.commands.executeCommand('sprout.chat.focus');
}

async function ask(deps: CommandDeps, prompt?: string): Promise<void> {
  const text = prompt ?? (await vscode.window.showInputBox({ title: 'Sprout: Ask Agent', prompt: 'What should the agent do?' }));
  if (!text?.trim()) return;
  await revealChat();
  await deps.controller.send(text.trim());
}

async function askAboutSelection(deps: CommandDeps, question?: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return void vscode.window.showInformationMessage('Sprout: select some code first.');
  const q = question ?? (await vscode.window.showInputBox({ title: 'Sprout: Ask About Selection', prompt: 'Your question about the selected code' }));
  if (!q?.trim()) return;
  const file = vscode.workspace.asRelativePath(editor.document.uri);
  const { start, end } = editor.selection;
  const code = editor.document.getText(editor.selection);
  const prompt = `${q.trim()}\n\nSelection from ${file} (lines ${start.line + 1}-${end.line + 1}):\n\`\`\`${editor.document.languageId}\n${code}\n\`\`\``;
  await revealChat();
  await deps.controller.send(prompt);
}

async function exportTranscript(deps: CommandDeps, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const chat = await deps.controller.current();
  const uri = target ?? (await vscode.window.showSaveDialog({ filters: { Markdown: ['md'] }, title: 'Sprout: Export Transcript' }));
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(entriesToMarkdown(`Sprout chat ${chat.id}`, chat.view.entries)));
  return uri;
}

/** Forgets an HTTP server's sign-in (tokens and registration in SecretStorage); its next use asks again. */
async function signOutMcpServer(host: AgentHost, server?: string): Promise<void> {
  await host.ensureServers();
  const http = host.servers.filter((s) => s.transport.type === 'http').map((s) => s.name);
  if (http.length === 0) return void vscode.window.showInformationMessage('Sprout: no HTTP MCP server is configured, so there is nothing to sign out of.');
  const name = server ?? (await vscode.window.showQuickPick(http, { title: 'Sprout: Sign Out of MCP Server', placeHolder: 'The server whose sign-in to forget' }));
  if (name === undefined) return;
  if (!http.includes(name)) throw new Error(`${quotedName(name)} is not an HTTP MCP server of this window (${http.join(', ')}).`);
  await host.signOut(name);
  void vscode.window.showInformationMessage(`Sprout: signed out of the MCP server ${quotedName(name)}. It asks you to sign in again on next use.`);
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { controller, host, keys, settings } = deps;
  const table: Record<string, (...args: never[]) => unknown> = {
    'sprout.newChat': async () => {
      await revealChat();
      await controller.newChat();
    },
    'sprout.ask': (prompt?: string) => ask(deps, prompt),
    'sprout.askAboutSelection': (question?: string) => askAboutSelection(deps, question),
    'sprout.stop': () => controller.stop(),
    'sprout.compactNow': async () => {
      await host.ensureServers();
      const chat = await controller.current();
      await chat.session.compactNow();
    },
    'sprout.configureHookServers': (preselect?: string) => configureHookServers(host, settings, preselect),
    'sprout.enableTestRunnerHook': () => enableTestRunnerHook(settings),
    'sprout.enableProblemsHook': () => enableProblemsHook(settings),
    'sprout.useHooksInAgent': (agent?: string, options?: UseHooksOptions) => useHooksInAgent(host, settings, agent, options),
    'sprout.showHooks': () => vscode.commands.executeCommand('sprout.hooks.focus'),
    'sprout.resetHookBudget': async () => (await controller.current()).session.resetBudget(),
    'sprout.restartMcpServers': () => host.restartAll(),
    'sprout.exportTranscript': (target?: vscode.Uri) => exportTranscript(deps, target),
    'sprout.openLogs': () => deps.channel.show(true),
    'sprout.setApiKey': (value?: string) => setApiKey(keys, value),
    'sprout.clearApiKey': () => clearApiKey(keys),
    'sprout.selectModel': (pick?: SelectModelArg) => selectModel(host.modelSources, pick),
    'sprout.setBaseUrl': (url?: string) => setBaseUrl(host.modelSources, settings, url),
    'sprout.showHistory': () => controller.showHistory(),
    'sprout.openChatInEditor': () => deps.openInEditor(),
    'sprout.showObjection': (server: string, text: string) => showObjection(server, text),
    'sprout.signOutMcpServer': (server?: string) => signOutMcpServer(host, server),
    'sprout.openTestFailure': (file: string, line?: number) => deps.testing.openLocation(file, line),
    'sprout.showTestResults': () => deps.testing.reveal(),
    'sprout.forgetToolApprovals': (names?: string[]) => forgetToolApprovals(deps.approvals, names),
    'sprout.pickTools': (arg?: PickToolsArg) => controller.pickTools(arg),
    // Any time, not only from an objected turn's card; with no green turn it says so (chatRewind.ts).
    'sprout.backToLastGreen': () => controller.backToGreen(),
  };
  return Object.entries(table).map(([id, run]) =>
    vscode.commands.registerCommand(id, async (...args: never[]) => {
      try {
        return await run(...args);
      } catch (error) {
        const message = errorMessage(error);
        deps.channel.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(`Sprout: ${message}`);
        return undefined;
      }
    }),
  );
}
