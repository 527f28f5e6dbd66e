/**
 * The window's two model sources and which one serves the chats: the OpenAI-compatible endpoint and
 * VS Code's language models (LanguageModelClient). The router owns both: the endpoint's client (one
 * per base URL, key and compatibility, shared by every chat and task of the window; what it keeps of
 * a conversation is that conversation's own) and the consent to send the key where a workspace
 * pointed the URL, asked before a prompt (`prepare`), never in the middle of a model call. Every
 * model call is routed here to the source in use (modelSource.ts decides, `sprout.model.provider`
 * `auto` included), so a change of source applies to the next call of every chat. The sessions'
 * settings also come through here: for a model in VS Code the context window is the model's own
 * input limit, not the setting. VS Code's models are listed lazily (listing activates the provider
 * extensions), on the chat's first look or the first prompt, and again when they change.
 */
import * as vscode from 'vscode';
import type { Logger, ModelCallOptions, ModelClient, ModelReply, ModelRequest } from '../../agent/ports';
import type { AgentSettings } from '../../agent/settings';
import { errorMessage } from '../../agent/errorMessage';
import type { AdaptationMemory } from '../../model/adaptationMemory';
import { OpenAiModelClient } from '../../model/openAiModelClient';
import type { ReachableModel } from '../../agent/agentProfiles';
import { EndpointModelList } from '../../runtime/endpointModels';
import type { ModelInUse, SetupInfo } from '../../shared/protocol';
import { originNeedingConsent, type BaseUrlLevels, type KeyConsent } from '../settings/keyConsent';
import type { ExtensionSettings } from '../settings/settingsMapping';
import { LanguageModelClient } from './languageModelClient';
import { LanguageModels } from './languageModels';
import type { LmModelInfo } from './lmMapping';
import { modelInUse, resolveModelSource, setupAdvice, type ModelSource, type SourceFacts } from './modelSource';

/** What the model picker reads: VS Code's models, the endpoint's, and the model in use. */
export interface ModelSources {
  readonly languageModels: LanguageModels;
  /** The endpoint's model listing (for a workspace-chosen URL this may ask whether the key may go there). */
  endpoint(): Promise<{ listModels(signal?: AbortSignal): Promise<string[]> }>;
  endpointUrl(): string;
  current(): { source: ModelSource; name: string };
}

/** A model a custom agent's `model` may name, with the source that serves it. */
export type SourcedModel = ReachableModel & { source: ModelSource };

export interface ModelRouterDeps {
  settings: () => ExtensionSettings;
  apiKey: () => string | undefined;
  /** Whether the key may go to an origin the workspace chose (keyConsent.ts). */
  keyConsent: KeyConsent;
  baseUrlLevels: () => BaseUrlLevels;
  /** What endpoints taught, kept as user state across restarts (adaptationStore.ts). */
  memory: AdaptationMemory;
  logger: Logger;
}

interface CachedEndpoint {
  client: OpenAiModelClient;
  baseUrl: string;
  apiKey: string | undefined;
  compatibility: ExtensionSettings['compatibility'];
}

/** What the endpoint's model list depends on: a change of any of these lists it again. */
type ListedEndpoint = Omit<CachedEndpoint, 'client'> & { provider: ExtensionSettings['provider'] };

const sameEndpoint = (a: ListedEndpoint, b: ListedEndpoint): boolean =>
  a.baseUrl === b.baseUrl && a.apiKey === b.apiKey && a.compatibility === b.compatibility && a.provider === b.provider;

export class ModelRouter implements ModelClient, ModelSources, vscode.Disposable {
  readonly languageModels = new LanguageModels();
  private readonly lmClient: LanguageModelClient;
  private listed: LmModelInfo[] | undefined;
  private listing: Promise<LmModelInfo[]> | undefined;
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  private cached: CachedEndpoint | undefined;
  /** The endpoint's models, listed once until its URL, key, compatibility or the provider change (or the picker lists them). */
  private readonly endpointModels = new EndpointModelList<ListedEndpoint>(sameEndpoint);
  /** Models a picked custom agent named, each served by its own source whichever serves the chat. */
  private readonly routes = new Map<string, ModelSource>();
  /** VS Code's models were listed anew: the source in use, the setup card or the window may differ. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: ModelRouterDeps) {
    this.lmClient = new LanguageModelClient({ models: this.languageModels, logger: deps.logger, memory: deps.memory });
    this.subscription = this.languageModels.onDidChange(() => {
      this.generation += 1;
      this.listed = undefined;
      void this.refresh();
    });
  }

  /** Lists VS Code's models, once until they change; a failure counts as none. */
  refresh(): Promise<LmModelInfo[]> {
    if (this.listing) return this.listing;
    const generation = this.generation;
    this.listing = this.languageModels
      .list()
      .catch((error: unknown) => {
        this.deps.logger.warn("could not list VS Code's language models", { message: errorMessage(error) });
        return [];
      })
      .then((models) => {
        this.listing = undefined;
        // The models changed while they were being listed: that list is stale already.
        if (generation !== this.generation) return this.refresh();
        this.listed = models;
        this.changed.fire();
        return models;
      });
    return this.listing;
  }

  /**
   * Before a prompt: the source in use and its window are known (VS Code's models listed) and, for
   * an endpoint the workspace chose, the user has said whether the key may go there.
   */
  async prepare(): Promise<void> {
    if (this.listed === undefined) await this.refresh();
    if (this.source() === 'openai') await this.askKeyConsent();
  }

  /** Asks (once per origin, remembered) whether the key may go to a URL the workspace set; no-op otherwise. */
  private async askKeyConsent(): Promise<void> {
    const origin = this.consentOrigin();
    if (origin !== undefined && this.deps.keyConsent.decided(origin) === undefined) await this.deps.keyConsent.ensure(origin, this.deps.settings().baseUrl);
  }

  /** The origin whose consent the key needs, or undefined when there is no key or the user chose the URL. */
  private consentOrigin(): string | undefined {
    if (this.deps.apiKey() === undefined) return undefined;
    return originNeedingConsent(this.deps.baseUrlLevels(), this.deps.settings().baseUrl);
  }

  /** The key, where the user allowed it to go; a question not yet answered sends none. */
  private allowedKey(): string | undefined {
    const origin = this.consentOrigin();
    return origin === undefined || this.deps.keyConsent.decided(origin) === true ? this.deps.apiKey() : undefined;
  }

  /** The endpoint's client for the current URL, key and compatibility; the same object while they stay. */
  private endpointClient(): OpenAiModelClient {
    const { baseUrl, compatibility } = this.deps.settings();
    const apiKey = this.allowedKey();
    const cached = this.cached;
    if (cached && cached.baseUrl === baseUrl && cached.apiKey === apiKey && cached.compatibility === compatibility) return cached.client;
    const client = new OpenAiModelClient({ baseUrl, apiKey, compatibility, memory: this.deps.memory });
    this.cached = { client, baseUrl, apiKey, compatibility };
    return client;
  }

  private facts(): SourceFacts {
    const settings = this.deps.settings();
    return { provider: settings.provider, baseUrlConfigured: settings.baseUrlConfigured, hasApiKey: this.deps.apiKey() !== undefined, vscodeModels: this.listed };
  }

  source(): ModelSource {
    return resolveModelSource(this.facts());
  }

  /** One call, to the source in use at the time of the call (or the one serving an agent's own model). */
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const client: ModelClient = (this.routes.get(request.model) ?? this.source()) === 'vscode' ? this.lmClient : this.endpointClient();
    return client.complete(request, options);
  }

  /** For the model picker, a user's own action: the key question may be asked here too; its listing is fresh, and kept. */
  async endpoint(): Promise<{ listModels(signal?: AbortSignal): Promise<string[]> }> {
    await this.askKeyConsent();
    return { listModels: (signal) => this.listEndpointModels({ ...(signal ? { signal } : {}), fresh: true }) };
  }

  /** The endpoint's model ids, kept while the endpoint's settings stay (a failure is not kept). */
  private listEndpointModels(options: { signal?: AbortSignal; fresh?: boolean }): Promise<string[]> {
    const { baseUrl, compatibility, provider } = this.deps.settings();
    const endpoint: ListedEndpoint = { baseUrl, apiKey: this.allowedKey(), compatibility, provider };
    return this.endpointModels.list(endpoint, (signal) => this.endpointClient().listModels(signal), options);
  }

  endpointUrl(): string {
    return this.deps.settings().baseUrl;
  }

  current(): { source: ModelSource; name: string } {
    return { source: this.source(), name: this.deps.settings().agent.model };
  }

  /**
   * The model the next prompt goes to, for the composer's button (so a model chosen by a workspace's
   * settings is always in sight); null while none is chosen (the setup card asks for one).
   */
  inUse(): ModelInUse | null {
    const { source, name } = this.current();
    return modelInUse({ source, name, baseUrl: this.endpointUrl(), vscodeModels: this.listed });
  }

  /** What the setup card asks; the first look lists VS Code's models in the background (the card follows). */
  setup(): SetupInfo | null {
    if (this.listed === undefined) void this.refresh();
    const settings = this.deps.settings();
    return setupAdvice({ ...this.facts(), model: settings.agent.model, baseUrl: settings.baseUrl });
  }

  /**
   * The models a custom agent's `model` may name: VS Code's and, when an endpoint is in use or
   * configured, the endpoint's (listed once per endpoint settings; a listing that fails counts as none
   * and is asked again next time); the source in use first.
   */
  async reachableModels(signal?: AbortSignal): Promise<SourcedModel[]> {
    const vscodeModels = (this.listed ?? (await this.refresh())).map((m): SourcedModel => ({ id: m.ref, name: m.name || m.id, source: 'vscode' }));
    const facts = this.facts();
    const inUse = this.source();
    let endpointModels: SourcedModel[] = [];
    if (inUse === 'openai' || facts.baseUrlConfigured || facts.hasApiKey) {
      endpointModels = await this.listEndpointModels({ ...(signal ? { signal } : {}) })
        .then((ids) => ids.map((id): SourcedModel => ({ id, source: 'openai' })))
        .catch(() => []);
    }
    return inUse === 'openai' ? [...endpointModels, ...vscodeModels] : [...vscodeModels, ...endpointModels];
  }

  /** A model a picked agent named is served by `source` from now on (`complete` reads it). */
  routeModel(model: string, source: ModelSource): void {
    this.routes.set(model, source);
  }

  /** The sessions' settings (`model`: a picked agent's own): for a model in VS Code, its own input limit is the context window. */
  agentSettings(model?: string): AgentSettings {
    const agent = model === undefined ? this.deps.settings().agent : { ...this.deps.settings().agent, model };
    if ((this.routes.get(agent.model) ?? this.source()) !== 'vscode') return agent;
    const listed = this.listed?.find((m) => m.ref === agent.model);
    return listed && listed.maxInputTokens > 0 ? { ...agent, contextWindowTokens: listed.maxInputTokens } : agent;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.languageModels.dispose();
  }
}
