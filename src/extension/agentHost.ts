/**
 * The window's agent plumbing shared by every chat: one McpHub over the resolved servers and the model
 * sources (ModelRouter: the endpoint's client, the key consent, and VS Code's language models). The
 * hub is rebuilt when its inputs change (settings, `.vscode/mcp.json`, trust); chats reach it and the
 * models through stable delegates (`model`, and `tools`, a relay that forwards the current hub's
 * events to every session subscribed to it), so a rebuild never strands a session. The hub starts
 * servers lazily, on first use.
 */
import { join } from 'node:path';
import type { Logger, ModelCatalog, ModelClient, ToolHost } from '../agent/ports';
import type { AgentSettings } from '../agent/settings';
import type { CommandHookHost } from '../agentHooks/commandHookHost';
import { allowSources } from '../agentHooks/hookFiles';
import { hooksServed } from '../agentHooks/hookSources';
import { WithCommandHooks } from '../agentHooks/withCommandHooks';
import type { HookFilesLoad } from './hooks/agentHookFiles';
import type { McpServerConfig } from '../mcp/config';
import type { McpHub, ServerStatus } from '../mcp/mcpHub';
import type { ServersState, ServerStatusView } from './viewEvents';
import { ensurePrivateDir } from '../platform/privateState';
import { createHub } from '../runtime/compose';
import { fileEraStore } from '../runtime/eraFileStore';
import type { EraStore } from '../mcp/protocolEra';
import { ToolHostRelay } from '../runtime/toolHostRelay';
import { EDITOR_SERVER_NAME, type EditorServer } from './editorServer/editorServer';
import { ModelRouter } from './modelSources/modelRouter';
import { routerModelCatalog } from './chat/agentModels';
import { raceAbort } from '../mcp/abort';
import type { ConsentStore } from './settings/consentStore';
import type { SecretConsent } from './settings/secretConsent';
import { samplingThrough, type ClientFeatures, type SamplingPermission } from '../mcp/clientFeatures';
import type { OAuthHost } from '../mcp/oauthClient';
import type { AdaptationMemory } from '../model/adaptationMemory';
import type { BaseUrlLevels, KeyConsent } from './settings/keyConsent';
import { resolveServers, type ResolvedServers, type ServerSources } from './settings/serverConfigs';
import type { ExtensionSettings } from './settings/settingsMapping';
import { readMcpServersBySource, serverSources } from './settings/configReader';

export interface AgentHostDeps {
  extensionPath: string;
  storageDir: string;
  workspaceFolder: string;
  logger: Logger;
  consent: ConsentStore;
  /** Whether a workspace-defined server may have one of the user's secret variables. */
  secretConsent: SecretConsent;
  settings: () => ExtensionSettings;
  apiKey: () => string | undefined;
  keyConsent: KeyConsent;
  baseUrlLevels: () => BaseUrlLevels;
  /** What model endpoints taught, remembered across restarts. */
  modelMemory: AdaptationMemory;
  trusted: () => boolean;
  onServerStderr?: (server: string, line: string) => void;
  /** Elicitation (the chat's question cards) and roots (the workspace folders) offered to servers. */
  features?: Omit<ClientFeatures, 'sampling'>;
  /** Who lets a server's sampling request reach the chat's model (the user, by a modal); omitted: not offered. */
  sampling?: SamplingPermission;
  /** Sign-in for HTTP servers (tokens in SecretStorage, the page in the browser). */
  oauth?: OAuthHost;
  /** Values for `${input:id}` in `.vscode/mcp.json` (SecretStorage, asked once). */
  inputs?: ServerSources['inputs'];
  /** Other agents' hook files that run beside the servers (asked about when the servers start). */
  hookFiles?: { load(taken: readonly string[], signal?: AbortSignal): Promise<HookFilesLoad>; fingerprint(): string };
  /** The editor's own in-process server (`editor`), added after the configured and bundled servers. */
  editorServer?: EditorServer;
}

/**
 * One start of the servers: resolving them (which can wait on the user: a consent modal, an
 * `${input:}` box, the hook files' consent), then the hub. `stop` is its one cancellation: aborted
 * when a newer build supersedes it (a configuration event) and when the host is disposed.
 */
interface Build {
  readonly stop: AbortController;
  readonly hub: Promise<McpHub>;
}

export class AgentHost {
  /** The build in progress, the only one whose result can become the hub. */
  private building: Build | undefined;
  /** Set by dispose: nothing starts any more (a window reload or the extension's deactivation). */
  private disposed = false;
  /** What the servers were last resolved from (serverSources): an event that changes none of it restarts nothing. */
  private sourcesSeen: string | undefined;
  servers: McpServerConfig[] = [];
  /** The name the bundled workspace server runs under (undefined when a configured server took the name, or it is off). */
  bundledWorkspaceServer: string | undefined;
  notices: string[] = [];
  private readonly serverListeners = new Set<(state: ServersState) => void>();
  private eras: EraStore | undefined;
  private hub: McpHub | undefined;
  /** The hook files that run with the current hub (joined to it as more hook servers). */
  private commandHooks: CommandHookHost | undefined;

  /** Every chat's tool calls and tool-host events go through here, whichever hub is current (with the hook files' commands). */
  readonly tools = new ToolHostRelay<ToolHost>();
  /** The model sources (the endpoint, VS Code's language models) and which one is in use. */
  readonly modelSources: ModelRouter;
  /** Every chat's model calls go through here, so a new key, URL or source applies to the next call. */
  readonly model: ModelClient = { complete: (request, options) => this.modelSources.complete(request, options) };
  /** The models a delegated agent may name, from both sources (agentModels.ts), served through `model`. */
  readonly models: ModelCatalog;

  constructor(private readonly deps: AgentHostDeps) {
    this.modelSources = new ModelRouter({
      settings: deps.settings,
      apiKey: deps.apiKey,
      keyConsent: deps.keyConsent,
      baseUrlLevels: deps.baseUrlLevels,
      memory: deps.modelMemory,
      logger: deps.logger,
    });
    this.models = routerModelCatalog(this.modelSources, this.model);
  }

  /** The private folder of the bundled servers' state; each server's is the subfolder of its name (bundledServers.ts). */
  get serversStateDir(): string {
    return join(this.deps.storageDir, 'servers');
  }

  /** The folder the servers run in (and tool paths are relative to). */
  get workspaceFolder(): string {
    return this.deps.workspaceFolder;
  }

  /**
   * The window's servers, whole, whenever any of it changed: a hub was built or dropped (the set of
   * servers and the notices about them), or a server of the current hub changed state (started,
   * failed, killed, restarting, listed its tools). One channel, so a view never merges two.
   */
  onServers(listener: (state: ServersState) => void): () => void {
    this.serverListeners.add(listener);
    return () => this.serverListeners.delete(listener);
  }

  serversState(): ServersState {
    return { started: this.started, servers: [...this.status(), ...this.hookFileStatus()], notices: this.notices };
  }

  /** Each hook file that runs, as a hook server of its own: always ready (a command starts per call). */
  private hookFileStatus(): ServerStatusView[] {
    return (this.commandHooks?.sources ?? []).map((source) => ({ name: source.name, state: 'ready', hooks: hooksServed(source.format, source.hooks), file: source.file }));
  }

  /** The agent's settings, with the hook files that run on the hook allowlist (consent is their opt-in). */
  agentSettings(model?: string): AgentSettings {
    const settings = this.modelSources.agentSettings(model);
    const sources = this.commandHooks?.sources ?? [];
    return sources.length === 0 ? settings : { ...settings, hooks: { ...settings.hooks, allowlist: allowSources(settings.hooks.allowlist, sources) } };
  }

  private serversChanged(): void {
    const state = this.serversState();
    for (const listener of [...this.serverListeners]) listener(state);
  }

  /** Calls go to `hub` (with `commands` joined to it) from now on; undefined: none until the next start. */
  private use(hub: McpHub | undefined, commands?: CommandHookHost): void {
    this.hub = hub;
    this.commandHooks = hub === undefined ? undefined : commands;
    this.tools.use(hub === undefined || commands === undefined ? hub : new WithCommandHooks(hub, commands));
  }

  async ensureServers(): Promise<McpHub> {
    if (this.disposed) throw new Error('Sprout is shutting down: its MCP servers do not start any more.');
    if (this.hub) return this.hub;
    this.building ??= this.startBuild();
    return this.building.hub;
  }

  /**
   * A build whose `stop` aborted ends at once, whichever question it waits on: an input box is closed
   * (the signal reaches showInputBox as its token), a modal, which VS Code cannot close, is left to
   * answer nobody (its answer is kept by its store, and nothing else is asked). A superseded build's
   * callers get the newer build's hub; after dispose they get an error and no server ever starts.
   */
  private startBuild(): Build {
    const stop = new AbortController();
    const hub = this.build(stop.signal)
      .catch((error: unknown) => {
        if (!stop.signal.aborted) throw error;
        return this.ensureServers();
      })
      .finally(() => {
        if (this.building?.stop === stop) this.building = undefined;
      });
    return { stop, hub };
  }

  /** The build in progress (if any) is superseded or, on dispose, ended: it starts nothing. */
  private stopBuilding(): void {
    this.building?.stop.abort();
    this.building = undefined;
  }

  status(): ServerStatus[] {
    return this.hub?.status() ?? [];
  }

  /** The hub that is up, if any (its servers' prompts are the `/mcp.` commands); no start. */
  get currentHub(): McpHub | undefined {
    return this.hub;
  }

  /**
   * Every configured server started and listed, so each one's hooks are known. A configuration event
   * that arrives while they start (a `.vscode/mcp.json` watcher event comes late on a busy machine)
   * drops that hub and closes its servers: the next hub is listed instead, so the answer is never
   * an abandoned hub's empty one.
   */
  async listedStatus(): Promise<ServerStatus[]> {
    for (;;) {
      const hub = await this.ensureServers();
      await hub.listTools().catch(() => []);
      if (this.hub === hub) return hub.status();
    }
  }

  /** False until the first prompt (or Restart MCP Servers) builds the hub, and again after a config change. */
  get started(): boolean {
    return this.hub !== undefined;
  }

  /** A settings, trust, `.vscode/mcp.json` or hook file event: the servers start afresh if what they are resolved from changed. */
  async configurationChanged(): Promise<void> {
    const sources = this.currentSources();
    if (sources === this.sourcesSeen) return;
    this.sourcesSeen = sources;
    await this.invalidateServers();
  }

  /** Everything the servers and hooks are resolved from: the settings, trust, .vscode/mcp.json and the other agents' hook files. */
  private currentSources(): string {
    return JSON.stringify([serverSources(this.deps.workspaceFolder, this.deps.trusted()), this.deps.hookFiles?.fingerprint() ?? null]);
  }

  /** The next use starts the servers afresh; a build in progress is superseded (see startBuild). */
  async invalidateServers(): Promise<void> {
    this.stopBuilding();
    const old = this.hub;
    this.use(undefined);
    this.serversChanged();
    await old?.close();
  }

  /** Restarts (or first starts) every server and lists their tools, so failures and hooks show at once. */
  async restartAll(): Promise<void> {
    if (this.hub) await this.hub.restartAll();
    await (await this.ensureServers()).listTools();
  }

  /** The workspace folders changed: running servers are told (roots/list_changed) and ask again. */
  async rootsChanged(): Promise<void> {
    await this.hub?.rootsChanged();
  }

  /** Forgets an HTTP server's sign-in; its next use asks the user to sign in again. */
  async signOut(server: string): Promise<void> {
    await (await this.ensureServers()).signOut(server);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.stopBuilding();
    this.modelSources.dispose();
    const hub = this.hub;
    this.use(undefined);
    await hub?.close();
    this.deps.editorServer?.dispose();
  }

  private async build(signal: AbortSignal): Promise<McpHub> {
    this.sourcesSeen = this.currentSources();
    const settings = this.deps.settings();
    // Rejects as soon as the build is stopped, even while a modal that cannot be dismissed is open;
    // the resolution left behind asks nothing more (each question checks the signal) and starts
    // nothing: the hub is made below, only by a build that was not stopped (no await after this one).
    const { resolved, files } = await raceAbort(this.resolve(settings, signal), signal, 'start of the MCP servers');
    this.servers = resolved.servers;
    this.notices = [...resolved.notices, ...(files?.notices ?? [])];
    this.bundledWorkspaceServer = resolved.bundled.includes('workspace') ? 'workspace' : undefined;
    // Children get a minimal environment; the key is never in process.env of the host to begin with.
    // Each server's protocol era is remembered in the extension's private storage, across windows.
    this.eras ??= fileEraStore(join(this.deps.storageDir, 'mcp-eras.json'), (error) => this.deps.logger.warn('cannot keep MCP protocol eras', { error: error.message }));
    const mcp = { protocol: settings.mcpProtocol, eraStore: this.eras };
    const hub = createHub(resolved.servers, { logger: this.deps.logger, onServerStderr: this.deps.onServerStderr, features: this.hubFeatures(), oauth: this.deps.oauth, ...mcp });
    hub.onStatus(() => {
      if (this.hub === hub) this.serversChanged();
    });
    this.use(hub, files?.host);
    this.serversChanged();
    return hub;
  }

  /** The servers and hook files to run, with every question to the user asked under the build's signal. */
  /** The deps' features, with sampling answered through the chat's model (whichever source is in use). */
  private hubFeatures(): ClientFeatures {
    const permission = this.deps.sampling;
    if (permission === undefined) return { ...this.deps.features };
    return { ...this.deps.features, sampling: samplingThrough(permission, this.model, () => this.modelSources.agentSettings().model) };
  }

  private async resolve(settings: ExtensionSettings, signal: AbortSignal): Promise<{ resolved: ResolvedServers; files: HookFilesLoad | undefined }> {
    const bySource = readMcpServersBySource();
    const resolved = await resolveServers(
      {
        workspaceFolder: this.deps.workspaceFolder,
        trusted: this.deps.trusted(),
        userServers: bySource.user,
        workspaceServers: this.deps.trusted() ? bySource.workspace : {},
        builtins: settings.builtinServers,
        distDir: join(this.deps.extensionPath, 'dist'),
        // One private folder (0700) for every server's state: command output, todo lists, test results.
        stateDir: ensurePrivateDir(this.serversStateDir),
        protectedPaths: settings.protectedPaths,
        inputs: this.deps.inputs,
        knownSecrets: [this.deps.apiKey()].filter((key): key is string => key !== undefined),
        secretConsent: (use) => this.deps.secretConsent.ensure(use, signal),
        signal,
      },
      this.deps.consent,
    );
    // A stopped build's late result is not logged as the window's notices.
    signal.throwIfAborted();
    this.addEditorServer(resolved);
    for (const notice of resolved.notices) this.deps.logger.warn(notice);
    // Asked before the hub exists, as the servers' consents are, so a stopped build leaves nothing running.
    const files = await this.deps.hookFiles?.load(resolved.servers.map((s) => s.name), signal);
    return { resolved, files };
  }

  /** The editor's server joins the others by name; a configured server that took the name keeps it, said. */
  private addEditorServer(resolved: ResolvedServers): void {
    const editor = this.deps.editorServer;
    if (editor === undefined) return;
    if (resolved.servers.some((s) => s.name === EDITOR_SERVER_NAME)) {
      resolved.notices.push(`A configured MCP server is named "${EDITOR_SERVER_NAME}", the name of Sprout's own editor server (Problems, symbols): the editor server did not start. Rename yours to use both.`);
      return;
    }
    resolved.servers.push(editor.config());
  }
}
