/**
 * The window's agent plumbing shared by every chat: one McpHub over the resolved servers and one model
 * client over the current endpoint and key. Both are rebuilt when their inputs change (settings,
 * `.vscode/mcp.json`, trust, the key); chats reach them through stable delegates, so a rebuild never
 * strands a session. The hub starts servers lazily, on first use. The key goes to an endpoint the
 * workspace chose only with the user's consent (keyConsent.ts).
 */
import { join } from 'node:path';
import type { Logger, ModelClient, ToolHost } from '../agent/ports';
import type { McpServerConfig } from '../mcp/config';
import { McpHub, type ServerStatus } from '../mcp/mcpHub';
import { OpenAiModelClient } from '../model/openAiModelClient';
import { ensurePrivateDir } from '../servers/shared/privateState';
import type { ConsentStore } from './settings/consentStore';
import { originNeedingConsent, type BaseUrlLevels, type KeyConsent } from './settings/keyConsent';
import { resolveServers } from './settings/serverConfigs';
import type { ExtensionSettings } from './settings/settingsMapping';
import { readMcpServersBySource } from './settings/configReader';

export interface AgentHostDeps {
  extensionPath: string;
  storageDir: string;
  workspaceFolder: string;
  logger: Logger;
  consent: ConsentStore;
  settings: () => ExtensionSettings;
  apiKey: () => string | undefined;
  keyConsent: KeyConsent;
  baseUrlLevels: () => BaseUrlLevels;
  trusted: () => boolean;
  onServerStderr?: (server: string, line: string) => void;
}

const EMPTY_HOST: ToolHost = {
  serverNames: () => [],
  listTools: async () => [],
  callTool: async () => ({ isError: true, text: 'MCP servers are not started yet.' }),
  killServer: async () => {},
  subscribe: () => () => {},
};

export class AgentHost {
  private hub: McpHub | undefined;
  private building: Promise<McpHub> | undefined;
  private modelClient: { client: OpenAiModelClient; baseUrl: string; apiKey: string | undefined } | undefined;
  servers: McpServerConfig[] = [];
  /** The name the bundled workspace server runs under (undefined when a configured server took the name, or it is off). */
  bundledWorkspaceServer: string | undefined;
  notices: string[] = [];
  private readonly hubListeners = new Set<() => void>();

  /** Every chat's model calls go through here, so a new key or URL applies to the next call. */
  readonly model: ModelClient = { complete: async (request, options) => (await this.currentModel()).complete(request, options) };

  constructor(private readonly deps: AgentHostDeps) {}

  /** The client for the current endpoint, carrying the key only where the user allowed it to go. */
  async currentModel(): Promise<OpenAiModelClient> {
    const baseUrl = this.deps.settings().baseUrl;
    const key = this.deps.apiKey();
    const origin = key === undefined ? undefined : originNeedingConsent(this.deps.baseUrlLevels(), baseUrl);
    const apiKey = origin === undefined || (await this.deps.keyConsent.ensure(origin, baseUrl)) ? key : undefined;
    const cached = this.modelClient;
    if (cached && cached.baseUrl === baseUrl && cached.apiKey === apiKey) return cached.client;
    const client = new OpenAiModelClient({ baseUrl, apiKey });
    this.modelClient = { client, baseUrl, apiKey };
    return client;
  }

  /** The live hub or, before the first start, a host that offers nothing. */
  currentTools(): ToolHost {
    return this.hub ?? EMPTY_HOST;
  }

  onHubChanged(listener: () => void): () => void {
    this.hubListeners.add(listener);
    return () => this.hubListeners.delete(listener);
  }

  async ensureServers(): Promise<McpHub> {
    if (this.hub) return this.hub;
    this.building ??= this.build().finally(() => (this.building = undefined));
    return this.building;
  }

  status(): ServerStatus[] {
    return this.hub?.status() ?? [];
  }

  /** False until the first prompt (or Restart MCP Servers) builds the hub, and again after a config change. */
  get started(): boolean {
    return this.hub !== undefined;
  }

  /** Settings, trust or the mcp.json changed: the next use starts the servers afresh. */
  async invalidateServers(): Promise<void> {
    const old = this.hub;
    this.hub = undefined;
    for (const listener of this.hubListeners) listener();
    await old?.close();
  }

  invalidateModel(): void {
    this.modelClient = undefined;
  }

  /** Restarts (or first starts) every server and lists their tools, so failures and hooks show at once. */
  async restartAll(): Promise<void> {
    if (this.hub) await this.hub.restartAll();
    await (await this.ensureServers()).listTools();
  }

  async dispose(): Promise<void> {
    await this.hub?.close();
    this.hub = undefined;
  }

  private async build(): Promise<McpHub> {
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
      },
      this.deps.consent,
    );
    for (const notice of resolved.notices) this.deps.logger.warn(notice);
    this.servers = resolved.servers;
    this.notices = resolved.notices;
    this.bundledWorkspaceServer = resolved.bundled.includes('workspace') ? 'workspace' : undefined;
    // Children get a minimal environment; the key is never in process.env of the host to begin with.
    const hub = new McpHub(resolved.servers, { clientName: 'sprout-agent', logger: this.deps.logger, onStderr: this.deps.onServerStderr });
    this.hub = hub;
    for (const listener of this.hubListeners) listener();
    return hub;
  }
}
