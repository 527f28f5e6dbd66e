/**
 * One configured MCP server's life: lazy start, tools/list with pagination and list_changed refresh,
 * calls, kills, and lazy restarts after a kill or a crash (their backoff, attempt cap and the state views
 * see are kept in serverRestarts.ts). McpHub owns one of these per server and merges them.
 */
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import type { ToolCallOptions } from '../agent/ports';
import type { ToolCallResult, ToolInfo } from '../agent/messages';
import { isHookName } from '../agent/toolNames';
import { errorMessage } from '../agent/errorMessage';
import { abortError, raceAbort } from './abort';
import { afterSignIn, openClient, type Live, type Opened } from './clientOpener';
import type { McpServerConfig } from './config';
import type { ConnectionOptions, ServerState, ServerStatus } from './connectionTypes';
import { forgetSignIn, serverOAuth } from './oauthClient';
import { eraKey } from './protocolEra';
import { failureWords, httpLoss, serverTarget, startFailureMessage } from './connectionErrors';
import type { ServerTransport } from './serverTransport';
import { CallsInFlight, callToolOverClient, hookAskedForInput, isServerAnswer, serverRunsToolTasks } from './toolCall';
import { ToolListCache } from './toolListCache';
import { flattenToolResult } from './toolResults';
import { quotedName } from '../agent/nameText';
import { lostCallStream } from './callStreamGuard';
import { ServerRestarts } from './serverRestarts';

export class ServerConnection {
  private statusQueued = false;
  private live: Live | undefined;
  /** The era of the last connection that was up (shown while the server is down too). */
  private lastEra: Pick<Live, 'era' | 'protocolVersion'> | undefined;
  private pending: ServerTransport | undefined;
  private connecting: Promise<Client> | undefined;
  private readonly toolList: ToolListCache;
  private closed = false;
  private readonly inFlight = new CallsInFlight();
  private readonly closing = new AbortController();
  /** Aborted when a start in progress must give up (kill, reset, close): ends its connect or sign-in wait. */
  private abandon = new AbortController();
  /**
   * Its state, last error and restart budget (serverRestarts.ts). Every transition is reported, so views
   * follow the server without polling; the report goes out a microtask later, so it carries the fields set
   * together with the state (error, restarts, pid).
   */
  private readonly life: ServerRestarts;

  constructor(
    readonly config: McpServerConfig,
    private readonly opts: ConnectionOptions,
  ) {
    this.life = new ServerRestarts(config.name, opts, () => this.statusChanged(), this.closing.signal);
    this.toolList = new ToolListCache({
      server: config.name,
      timeoutMs: opts.connectTimeoutMs,
      live: () => this.live,
      abandon: () => this.abandon.signal,
      report: (message) => this.opts.emit({ type: 'server_error', server: this.name, message }),
      listed: () => this.statusChanged(),
    });
  }

  get name(): string {
    return this.config.name;
  }

  private statusChanged(): void {
    if (this.statusQueued || this.opts.onStatus === undefined) return;
    this.statusQueued = true;
    queueMicrotask(() => {
      this.statusQueued = false;
      this.opts.onStatus?.(this.status());
    });
  }

  status(): ServerStatus {
    const tools = this.lastTools();
    return {
      name: this.name,
      transport: this.live?.st.kind ?? this.config.transport.type,
      state: this.life.state,
      ...(this.life.error !== undefined ? { error: this.life.error } : {}),
      restarts: this.life.restarts,
      hooks: tools.filter((t) => t.isHook).map((t) => t.bareName),
      toolCount: tools.length,
      ...(this.live?.st.pid !== undefined ? { pid: this.live.st.pid } : {}),
      ...(this.lastEra !== undefined ? { era: this.lastEra.era, protocolVersion: this.lastEra.protocolVersion } : {}),
    };
  }

  /** The listing `listTools` would return at once: the server is up and its list is current. */
  cachedTools(): ToolInfo[] | undefined {
    return this.live !== undefined && !this.closed ? this.toolList.tools : undefined;
  }

  /** What the server last listed (kept while it is down or slow); no I/O. */
  lastTools(): ToolInfo[] {
    return this.toolList.tools ?? this.toolList.last;
  }

  /** The connected client when its capabilities include resources (no I/O), for mcpResources.ts. */
  resourceClient = (): Client | undefined => (this.live !== undefined && !this.closed && this.live.client.getServerCapabilities()?.resources !== undefined ? this.live.client : undefined);

  /** Tells a running server that the roots changed; it asks again with roots/list. */
  rootsChanged = async (): Promise<void> => void (await this.live?.client.sendRootsListChanged().catch(() => undefined));

  async listTools(signal?: AbortSignal): Promise<ToolInfo[]> {
    if (this.isDown()) {
      // Lists run every round: waiting for a backoff or a slow (hostile) restart would break the bound of docs/hooks.md#sovereignty-timeouts-kills-budgets,
      // bound. Restart in the background; calls wait for it within their own timeouts.
      void this.getClient().catch(() => undefined);
      return this.life.gaveUp ? [] : this.toolList.last;
    }
    const client = await this.getClient(signal);
    const listed = this.toolList.tools;
    if (listed) return listed;
    const live = this.live;
    const fetching = this.toolList.shared(client, (error) => {
      if (this.httpSessionLost(live, error) === undefined && this.live === live && !this.rememberedEraFailed(live, error)) this.listFailed(error);
    });
    return raceAbort(fetching, signal, `tools/list of MCP server ${quotedName(this.name)}`);
  }

  callTool(bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    return this.call(bareName, args, options, false);
  }

  private async call(bareName: string, args: Record<string, unknown>, options: ToolCallOptions, retried: boolean): Promise<ToolCallResult> {
    const { signal, meta, onProgress } = options;
    const what = `call of ${bareName} on MCP server ${quotedName(this.name)}`;
    const client = await this.getClient(signal);
    const live = this.live;
    const isHook = isHookName(bareName);
    const end = this.inFlight.begin(isHook);
    try {
      const listed = this.lastTools().find((t) => t.bareName === bareName);
      const asTask = listed?.taskSupport !== undefined && serverRunsToolTasks(client);
      const onMismatch = (why: string): void => this.opts.emit({ type: 'server_error', server: this.name, message: `MCP server ${quotedName(this.name)}: the tool ${quotedName(bareName)} answered, but ${why}.` });
      const plan = { name: bareName, args, meta, asTask, isHook, signal, onProgress, ...this.toolList.definition(listed), onMismatch };
      const result = await afterSignIn(live, () => callToolOverClient(client, plan), signal, this.name);
      return flattenToolResult(end() ? hookAskedForInput(bareName) : result);
    } catch (error) {
      if (signal.aborted) throw abortError(`${what} aborted`);
      // The server answered, with an error: that is a tool result for the model, not a broken transport.
      if (isServerAnswer(error)) return { isError: true, text: error.message };
      // Lost before this error came (a refused resume, the process gone): that loss ended the call.
      const lostWhileRunning = live?.lost;
      const lost = this.httpSessionLost(live, error);
      // A server that no longer knows the session never ran the call: one retry on a new session is safe.
      if (lost === 'unknown_session' && !retried) return this.call(bareName, args, options, true);
      const exit = live?.st.describeExit();
      const where = this.config.transport.type === 'http' ? ` (${serverTarget(this.config)})` : '';
      // The connection was lost while the call ran: the loss is what ended it, in its own words.
      const why = lostWhileRunning !== undefined ? `the connection was lost while it ran: ${lostWhileRunning}` : failureWords(error);
      throw new Error(`${what}${where} failed: ${why}${exit ? ` (${exit})` : ''}`, { cause: error });
    } finally {
      end();
    }
  }

  async kill(reason: string): Promise<void> {
    this.abandon.abort();
    const pending = this.pending;
    const live = this.takeLive();
    if (this.life.state !== 'failed' || live || pending) this.life.markDown('killed', `killed: ${reason}`);
    this.opts.logger?.info('mcp server killed', { server: this.name, reason });
    await Promise.all([live?.st.kill(), pending?.kill()]);
  }

  /** Stops the server and forgets its failures; the next use starts it afresh. */
  async reset(): Promise<void> {
    await this.shutDown();
    this.life.reset();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    await this.shutDown();
  }

  private async shutDown(): Promise<void> {
    this.abandon.abort();
    await Promise.all([this.takeLive()?.st.close(), this.pending?.close()]);
    await this.connecting?.catch(() => undefined);
    // A start that completed while we waited must not survive the reset or close either.
    await this.takeLive()?.st.close();
  }

  /** Went down after a start attempt (killed, crashed, failed) and is not back yet. */
  private isDown(): boolean {
    return !this.live && this.life.wentDown;
  }

  private takeLive(): Live | undefined {
    const live = this.live;
    this.live = undefined;
    this.toolList.drop();
    void live?.oauth?.done();
    return live;
  }

  /** The client of the connection that is up, started if needed (calls, prompts, completions). */
  getClient(signal?: AbortSignal): Promise<Client> {
    if (this.closed) return Promise.reject(new Error(`MCP server ${quotedName(this.name)}: the MCP hub is closed`));
    if (this.live) return Promise.resolve(this.live.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return raceAbort(this.connecting, signal, `start of MCP server ${quotedName(this.name)}`);
  }

  private async connect(): Promise<Client> {
    const restarting = this.life.state !== 'idle';
    if (restarting) await this.life.waitBackoff();
    if (this.closed) throw new Error(`MCP server ${quotedName(this.name)}: the MCP hub is closed`);
    this.life.state = restarting ? 'restarting' : 'starting';
    this.abandon = new AbortController();
    const oauth = serverOAuth(this.config, this.opts.oauth);
    await oauth?.prepare();
    let opened: Opened;
    try {
      opened = await openClient({
        config: this.config,
        opts: this.opts,
        oauth,
        abandon: this.abandon.signal,
        onStderrLine: (line) => (this.opts.onStderr ? this.opts.onStderr(this.name, line) : this.opts.logger?.debug('mcp server stderr', { server: this.name, line })),
        onToolsChanged: (client) => this.onToolsChanged(client),
        onNote: (what) => this.opts.emit({ type: 'server_error', server: this.name, message: `MCP server ${quotedName(this.name)}: ${what}.` }),
        questionFromHook: () => this.inFlight.questionFromHook(),
        track: (st) => (this.pending = st),
        failed: (error, st) => this.startFailed(error, st),
      });
    } catch (error) {
      await oauth?.done();
      throw error;
    }
    const { client, st, era, protocolVersion } = opened;
    client.onclose = () => this.onClientClosed(client);
    const logError = client.onerror;
    client.onerror = (error) => {
      logError?.(error);
      this.onTransportError(client, error);
    };
    if (this.closed || (this.life.state as ServerState) === 'killed') {
      await Promise.all([st.close(), oauth?.done()]);
      throw new Error(`MCP server ${quotedName(this.name)} was stopped while starting`);
    }
    this.live = { ...opened, ...(oauth !== undefined ? { oauth } : {}) };
    this.lastEra = { era, protocolVersion };
    this.life.ready();
    this.toolList.drop();
    this.opts.logger?.info('mcp server ready', { server: this.name, pid: st.pid, era, protocolVersion });
    this.opts.emit({ type: 'server_connected', server: this.name, era, protocolVersion });
    if (restarting) this.life.restarted();
    return client;
  }

  /** Forgets this server's sign-in (tokens and registration) and drops the connection; the next use signs in again. */
  async signOut(): Promise<void> {
    if (await forgetSignIn(this.config, this.opts.oauth)) await this.reset();
  }

  private startFailed(error: unknown, st: ServerTransport): Error {
    if (this.life.state === 'killed' || this.closed) return new Error(`MCP server ${quotedName(this.name)} was stopped while starting`);
    const message = startFailureMessage(this.config, error, st.describeExit());
    this.life.markDown('failed', message);
    this.opts.emit({ type: 'server_error', server: this.name, message });
    return new Error(message);
  }

  private onClientClosed(client: Client): void {
    if (this.live?.client !== client) return;
    const exit = this.live.st.describeExit();
    this.opts.logger?.warn('mcp server stopped', { server: this.name, exit });
    this.connectionLost(`MCP server ${quotedName(this.name)} stopped unexpectedly${exit ? ` (${exit})` : ''}; it restarts on next use.`);
  }

  /**
   * Streamable HTTP has no process to watch: the session is gone when the server cannot be reached or
   * answers 404 (it restarted and no longer knows the session, which the MCP spec says calls for a new
   * one). That is handled like a stdio server that exited: dropped, reported, reconnected on next use.
   */
  private httpSessionLost(live: ServerConnection['live'], error: unknown): 'unknown_session' | 'unreachable' | undefined {
    if (this.config.transport.type !== 'http' || live === undefined || this.live !== live) return undefined;
    const loss = httpLoss(error);
    if (loss === undefined) return undefined;
    const { kind, what } = loss;
    this.opts.logger?.warn('mcp http session lost', { server: this.name, kind });
    this.connectionLost(`MCP server ${quotedName(this.name)} (${serverTarget(this.config)}) ${what}; it reconnects on next use.`);
    return kind;
  }

  /**
   * A connection opened from a remembered era whose first listing the server refused: the memory is
   * wrong (the server changed). It is forgotten, and the reconnect asks again.
   */
  private rememberedEraFailed(live: Live | undefined, error: unknown): boolean {
    if (live?.remembered !== true || !(error instanceof ProtocolError)) return false;
    this.opts.eras.set(eraKey(this.config), undefined);
    this.connectionLost(`MCP server ${quotedName(this.name)} refused the protocol era it spoke before (${errorMessage(error)}); it reconnects and asks again.`);
    return true;
  }

  /** An error the transport reported outside any request: a running call's lost event stream ends the connection (callStreamGuard.ts). */
  private onTransportError(client: Client, error: Error): void {
    const live = this.live;
    if (live?.client !== client || this.config.transport.type !== 'http' || !this.inFlight.busy) return;
    const lost = lostCallStream(error, `MCP server "${this.name}" (${serverTarget(this.config)})`);
    if (lost === undefined) return;
    this.opts.logger?.warn('mcp http stream resume failed', { server: this.name, error: error.message });
    this.connectionLost(lost);
  }

  /** The live connection is gone for good: stop what is left of it and restart lazily with backoff. */
  private connectionLost(message: string): void {
    if (this.live !== undefined) this.live.lost = message;
    const live = this.takeLive();
    // A stdio leader is gone, so whatever it left in its process group is orphaned and must go too.
    void live?.st.kill().catch(() => undefined);
    this.life.markDown('restarting', message);
    this.opts.emit({ type: 'server_error', server: this.name, message });
  }

  private onToolsChanged(client: Client): void {
    if (this.live?.client !== client) return;
    this.toolList.changed();
    this.toolList.fetch(client).then(
      () => this.opts.emit({ type: 'tools_changed', server: this.name }),
      (error: unknown) => this.listFailed(error),
    );
  }

  private listFailed(error: unknown): void {
    this.opts.emit({ type: 'server_error', server: this.name, message: `MCP server ${quotedName(this.name)} (${serverTarget(this.config)}): tools/list failed: ${failureWords(error)}` });
  }
}
