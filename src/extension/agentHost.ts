/**
 * The window's agent plumbing shared by every chat: one McpHub over the resolved servers and the model
 * sources (ModelRouter: the endpoint's client, the key consent, and VS Code's language models). The
 * hub is rebuilt when its inputs change (settings, `.vscode/mcp.json`, trust); chats reach it and the
 * models through stable delegates (`model`, and `tools`, a relay that forwards the current hub's
 * events to every session subscribed to it), so a rebuild never strands a session. The hub starts
 * servers lazily, on first use.
 */
import { join } from 'node:path';
import type { Logger, ModelClient, ToolHost } from '../agent/ports';
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
import { ModelRouter } from './modelSources/modelRouter';
import type { ConsentStore } from './settings/consentStore';
import type { SecretConsent } from './settings/secretConsent';
import type { ClientFeatures } from '../mcp/clientFeatures';
import type { OAuthHost } from '../mcp/oauthClient';
import type { AdaptationMemory } from '../model/adaptationMemory';
import type { BaseUrlLevels, KeyConsent } from './settings/keyConsent';
import { resolveServers, type ServerSources } from './settings/serverConfigs';
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
  features?: ClientFeatures;
  /** Sign-in for HTTP servers (tokens in SecretStorage, the page in the browser). */
  oauth?: OAuthHost;
  /** Values for `${input:id}` in `.vscode/mcp.json` (SecretStorage, asked once). */
  inputs?: ServerSources['inputs'];
  /** Other agents' hook files that run beside the servers (asked about when the servers start). */
  hookFiles?: { load(taken: readonly string[]): Promise<HookFilesLoad> };
}

export class AgentHost {
  private building: Promise<McpHub> | undefined;
  /** Counts invalidations: a build that started before the latest one is superseded (its result dropped). */
  private generation = 0;
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

  constructor(private readonly deps: AgentHostDeps) {
    this.modelSources = new ModelRouter({
      settings: deps.settings,
      apiKey: deps.apiKey,
      keyConsent: deps.keyConsent,
      baseUrlLevels: deps.baseUrlLevels,
      memory: deps.modelMemory,
      logger: deps.logger,
    });
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
  agentSettings(): AgentSettings {
    const settings = this.modelSources.agentSettings();
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
    if (this.hub) return this.hub;
    const building = (this.building ??= this.build().finally(() => {
      if (this.building === building) this.building = undefined;
    }));
    return building;
  }

  status(): ServerStatus[] {
    return this.hub?.status() ?? [];
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

  /** A settings, trust or `.vscode/mcp.json` event: the servers start afresh if what they are resolved from changed. */
  async configurationChanged(): Promise<void> {
    const sources = this.currentSources();
    if (sources === this.sourcesSeen) return;
    this.sourcesSeen = sources;
    await this.invalidateServers();
  }

  private currentSources(): string {
    return serverSources(this.deps.workspaceFolder, this.deps.trusted());
  }

  /** The next use starts the servers afresh; a build in progress is superseded (see build). */
  async invalidateServers(): Promise<void> {
    this.generation++;
    this.building = undefined;
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
    this.modelSources.dispose();
    const hub = this.hub;
    this.use(undefined);
    await hub?.close();
  }

  private async build(): Promise<McpHub> {
    const generation = this.generation;
    this.sourcesSeen = this.currentSources();
    const settings = this.deps.settings();
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
        stateDir: ensurePrivateDir(join(this.deps.storageDir, 'servers')),
        protectedPaths: settings.protectedPaths,
        inputs: this.deps.inputs,
        knownSecrets: [this.deps.apiKey()].filter((key): key is string => key !== undefined),
        secretConsent: (use) => this.deps.secretConsent.ensure(use),
      },
      this.deps.consent,
    );
    for (const notice of resolved.notices) this.deps.logger.warn(notice);
    // Asked before the hub exists, as the servers' consents are, so a dropped build leaves nothing running.
    const files = await this.deps.hookFiles?.load(resolved.servers.map((s) => s.name));
    // Invalidated while resolving (a consent or `${input:}` prompt can wait on the user): this result
    // is stale and no server of it ever started; the newer build's hub is the answer.
    if (generation !== this.generation) return this.ensureServers();
    this.servers = resolved.servers;
    this.notices = [...resolved.notices, ...(files?.notices ?? [])];
    this.bundledWorkspaceServer = resolved.bundled.includes('workspace') ? 'workspace' : undefined;
    // Children get a minimal environment; the key is never in process.env of the host to begin with.
    // Each server's protocol era is remembered in the extension's private storage, across windows.
    this.eras ??= fileEraStore(join(this.deps.storageDir, 'mcp-eras.json'), (error) => this.deps.logger.warn('cannot keep MCP protocol eras', { error: error.message }));
    const mcp = { protocol: settings.mcpProtocol, eraStore: this.eras };
    const hub = createHub(resolved.servers, { logger: this.deps.logger, onServerStderr: this.deps.onServerStderr, features: this.deps.features, oauth: this.deps.oauth, ...mcp });
    hub.onStatus(() => {
      if (this.hub === hub) this.serversChanged();
    });
    this.use(hub, files?.host);
    this.serversChanged();
    return hub;
  }
}
