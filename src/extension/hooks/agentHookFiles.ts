/**
 * Other agents' hook files in the editor (docs/hooks.md#hooks-from-other-agents-files): the formats
 * `sprout.agentHooks.formats` names are looked for in the workspace folder and the user's home. The
 * user's own files run as they are; a workspace's files are commands a repository wrote, so they run
 * only in a trusted workspace and only after a modal consent that shows them, kept per file as the
 * hash of its content (an edited file asks again). A file Sprout cannot read is a notice (a Hooks view
 * row and a warning), never a guard rail silently gone. The commands get Sprout's minimal environment.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../agent/ports';
import { agentFormat } from '../../agentHooks/agentFormats';
import { CommandHookHost, type CommandHookSource } from '../../agentHooks/commandHookHost';
import { HookConfigError } from '../../agentHooks/hookConfig';
import { commandLines, hookFilesOf, projectDirVars, readHookFile, shownFile, type HookFileScope, type HookFileSystem, type SourceFormatId } from '../../agentHooks/hookFiles';
import { SOURCE_FORMAT_IDS } from '../../agentHooks/hookSources';
import { minimalEnv } from '../../mcp/minimalEnv';
import { runHookCommand } from '../../platform/commandRunner';
import type { MementoLike } from '../approvals/workspaceApprovals';
import { OpenQuestions } from '../settings/openQuestions';
import { quotedName } from '../../agent/nameText';

/** What the consent dialog shows: the file, its agent, and every command it runs. */
export interface HookFileConsentRequest {
  file: string;
  agent: string;
  commands: string[];
}

export type HookFileConsentPrompt = (request: HookFileConsentRequest) => Promise<boolean>;

/** The files that run this time (as one ToolHost) and what the Hooks view says about the others. */
export interface HookFilesLoad {
  host: CommandHookHost | undefined;
  notices: string[];
}

export interface AgentHookFilesDeps {
  workspaceFolder: string;
  home: string;
  formats: () => readonly SourceFormatId[];
  trusted: () => boolean;
  /** Workspace state: the consented content hash of each file. */
  state: MementoLike;
  fs: HookFileSystem;
  logger: Logger;
  /** A file that cannot be read, said once per message (a notification). */
  warn: (message: string) => void;
}

const RUN = 'Run These Hooks';

export async function askHookFileConsent(request: HookFileConsentRequest): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `This workspace's ${request.agent} hook file ${request.file} runs commands as Sprout hooks. Allow them to run?`,
    {
      modal: true,
      detail:
        `${request.commands.join('\n')}\n\n` +
        'They run on this machine at Sprout\'s lifecycle points (a completion check may keep the agent working), with a minimal environment and never your API key. ' +
        'If you do not allow them, none of them runs. You are asked again when the file changes.',
    },
    RUN,
    'Do Not Run',
  );
  return choice === RUN;
}

const warned = new Set<string>();

/** A hook file Sprout cannot read, said once per message in this window (the Hooks view keeps a row for it). */
export function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  void vscode.window.showWarningMessage(`Sprout: ${message}`, 'Show Hooks').then((choice) => {
    if (choice) void vscode.commands.executeCommand('sprout.hooks.focus');
  });
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

export class AgentHookFiles {
  /** Files declined in this window, by `file\ncontent hash`: not asked again until the file changes or the window reloads. */
  private readonly declined = new Set<string>();
  /** Consent dialogs on screen, by `file\ncontent hash`. */
  private readonly asking = new OpenQuestions<boolean>();

  constructor(
    private readonly deps: AgentHookFilesDeps,
    public prompt: HookFileConsentPrompt = askHookFileConsent,
  ) {}

  /**
   * What the hook files say now (the formats in use, each file's path and text), for telling a real
   * change from a watcher's repeated event: only a change starts the servers and hooks afresh, so a
   * second event for the same save does not drop a hub while a tool call runs on it.
   */
  fingerprint(): string {
    const files = this.deps.formats().flatMap((id) => {
      const format = agentFormat(id);
      return (['user', 'workspace'] as const).flatMap((scope) => {
        const root = scope === 'user' ? this.deps.home : this.deps.workspaceFolder;
        return hookFilesOf(format, root, scope, this.deps.fs).map((relative) => {
          try {
            return [scope, relative, this.deps.fs.read(join(root, relative))];
          } catch (error) {
            return [scope, relative, `unreadable: ${(error as Error).message}`];
          }
        });
      });
    });
    return JSON.stringify([this.deps.formats(), files]);
  }

  /**
   * The hook files that run now; `taken` are the MCP servers' names, which a file's server name must
   * not repeat. Once `signal` (the asking build's) aborts, no further file is asked about.
   */
  async load(taken: readonly string[], signal?: AbortSignal): Promise<HookFilesLoad> {
    const notices: string[] = [];
    const sources: CommandHookSource[] = [];
    const names = new Set(taken);
    for (const id of this.deps.formats()) {
      const found = [
        ...this.read(id, this.deps.home, 'user', notices).map((r) => r.source),
        ...(await this.workspaceSources(id, notices, signal)),
      ];
      for (const source of found) {
        if (names.has(source.name)) {
          notices.push(`${source.file} does not run: it runs as hook server ${quotedName(source.name)}, which an MCP server is named too. Rename that server.`);
          continue;
        }
        names.add(source.name);
        sources.push(source);
      }
    }
    const host = sources.length === 0 ? undefined : new CommandHookHost(sources, { runner: runHookCommand, cwd: this.deps.workspaceFolder, env: (source) => minimalEnv(process.env, projectDirVars(source.format, this.deps.workspaceFolder)) });
    return { host, notices };
  }

  private async workspaceSources(id: SourceFormatId, notices: string[], signal: AbortSignal | undefined): Promise<CommandHookSource[]> {
    const format = agentFormat(id);
    if (!this.deps.trusted()) {
      const files = hookFilesOf(format, this.deps.workspaceFolder, 'workspace', this.deps.fs);
      if (files.length > 0) notices.push(`Restricted Mode: ${files.join(', ')} (${format.displayName} hooks) ${files.length === 1 ? 'does' : 'do'} not run. Trust the workspace to be asked whether ${files.length === 1 ? 'it' : 'they'} may.`);
      return [];
    }
    const consented: CommandHookSource[] = [];
    for (const { source, text } of this.read(id, this.deps.workspaceFolder, 'workspace', notices)) {
      if (await this.consents(source, hashOf(text), signal)) consented.push(source);
      else notices.push(`${source.file} does not run: you did not allow its ${format.displayName} hooks. You are asked again when the file changes or the window reloads.`);
    }
    return consented;
  }

  /** The format's files under `root` that have commands to run, with their text; each one that cannot be read is a notice. */
  private read(id: SourceFormatId, root: string, scope: HookFileScope, notices: string[]): Array<{ source: CommandHookSource; text: string }> {
    const format = agentFormat(id);
    return hookFilesOf(format, root, scope, this.deps.fs).flatMap((relative) => {
      try {
        const read = readHookFile(format, root, relative, scope, this.deps.fs);
        for (const skipped of read.skipped) this.deps.logger.info(`${read.file}: not run: ${skipped}`);
        return read.source === undefined ? [] : [{ source: read.source, text: read.text }];
      } catch (error) {
        if (!(error instanceof HookConfigError)) throw error;
        const message = `${error.message} (${format.displayName} hooks of ${shownFile(relative, scope)})`;
        this.deps.logger.warn(message);
        this.deps.warn(message);
        notices.push(message);
        return [];
      }
    });
  }

  private async consents(source: CommandHookSource, hash: string, signal: AbortSignal | undefined): Promise<boolean> {
    const key = `sprout.agentHookConsent.${hashOf(source.file).slice(0, 32)}`;
    if (this.deps.state.get<unknown>(key) === hash) return true;
    const version = `${source.file}\n${hash}`;
    if (this.declined.has(version)) return false;
    return this.asking.ask(version, () => this.ask(source, key, hash), signal);
  }

  /** The modal's answer is the user's about this exact content, kept even when the build that asked is gone. */
  private async ask(source: CommandHookSource, key: string, hash: string): Promise<boolean> {
    const allowed = await this.prompt({ file: source.file, agent: source.format.displayName, commands: commandLines(source) });
    if (allowed) await this.deps.state.update(key, hash);
    else this.declined.add(`${source.file}\n${hash}`);
    return allowed;
  }
}

/** A format's files as watch patterns relative to their root: Copilot reads every `*.json` of its hooks folder. */
function watchedFiles(scope: HookFileScope): string[] {
  const files = SOURCE_FORMAT_IDS.flatMap((id) => {
    const format = agentFormat(id);
    const listed = scope === 'user' ? format.config.userFiles : format.config.workspaceFiles;
    return id === 'copilot' ? listed.map((file) => `${file.slice(0, file.lastIndexOf('/'))}/*.json`) : listed;
  });
  return [...new Set(files)];
}

/** The file-system watchers that make a changed hook file (the workspace's or the user's) re-read, and asked about again. */
export function watchHookFiles(workspaceFolder: string, home: string, onChange: () => void): vscode.Disposable[] {
  const patterns = [new vscode.RelativePattern(workspaceFolder, `{${watchedFiles('workspace').join(',')}}`)];
  // The user's files one folder at a time, so nothing watches the whole home folder.
  const userFolders = new Map<string, string[]>();
  for (const file of watchedFiles('user')) {
    const cut = file.lastIndexOf('/');
    const folder = join(home, file.slice(0, cut));
    userFolders.set(folder, [...(userFolders.get(folder) ?? []), file.slice(cut + 1)]);
  }
  for (const [folder, names] of userFolders) patterns.push(new vscode.RelativePattern(vscode.Uri.file(folder), names.length === 1 ? (names[0] ?? '') : `{${names.join(',')}}`));
  return patterns.flatMap((pattern) => {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    return [watcher, watcher.onDidChange(onChange), watcher.onDidCreate(onChange), watcher.onDidDelete(onChange)];
  });
}
