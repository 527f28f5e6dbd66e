/**
 * A stable ToolHost in front of a replaceable one (an McpHub). A long-lived host (the extension's window) builds
 * a new hub whenever the configured servers change, while sessions hold on to one ToolHost for their
 * whole life: they subscribe here once, and whatever hub is current forwards its events (restarts,
 * errors, tool list changes) through this relay. Before the first hub, and between a configuration
 * change and the next start, it offers no servers and no tools.
 */
import type { ToolCallOptions, ToolHost, ToolHostEvent, ToolListOptions } from '../agent/ports';
import type { ToolCallResult, ToolInfo } from '../agent/messages';
import type { ResourceHost } from '../agent/resources';

export const NOT_STARTED_RESULT: ToolCallResult = { isError: true, text: 'MCP servers are not started yet.' };

export class ToolHostRelay<Hub extends ToolHost = ToolHost> implements ToolHost {
  private hub: Hub | undefined;
  private stopForwarding: (() => void) | undefined;
  private readonly listeners = new Set<(event: ToolHostEvent) => void>();

  /** The hub calls go to from now on (undefined: none); events of the previous one stop here. */
  use(hub: Hub | undefined): void {
    if (hub === this.hub) return;
    this.stopForwarding?.();
    this.stopForwarding = undefined;
    this.hub = hub;
    if (hub) this.stopForwarding = hub.subscribe((event) => this.forward(event));
  }

  get current(): Hub | undefined {
    return this.hub;
  }

  /** The servers' resources, forwarded (resources.ts): the current hub's. */
  get resources(): ResourceHost | undefined {
    return this.hub?.resources;
  }

  serverNames(): string[] {
    return this.hub?.serverNames() ?? [];
  }

  listTools(signal?: AbortSignal, options?: ToolListOptions): Promise<ToolInfo[]> {
    return this.hub?.listTools(signal, options) ?? Promise.resolve([]);
  }

  cachedTools(): ToolInfo[] | undefined {
    return this.hub ? this.hub.cachedTools?.() : [];
  }

  callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    return this.hub?.callTool(server, bareName, args, options) ?? Promise.resolve(NOT_STARTED_RESULT);
  }

  killServer(server: string, reason: string): Promise<void> {
    return this.hub?.killServer(server, reason) ?? Promise.resolve();
  }

  subscribe(listener: (event: ToolHostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private forward(event: ToolHostEvent): void {
    // The hub already isolates its listeners; this relay is one of them and isolates its own.
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not keep the event from the others.
      }
    }
  }
}
