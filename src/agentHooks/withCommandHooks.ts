/**
 * One ToolHost made of the MCP servers and the command-hook sources, so a session sees agent hook
 * files as more hook servers and calls them through the same caller and gate. MCP servers come first
 * in configuration order, then the sources in discovery order; calls go to whichever owns the server.
 */
import type { CommandHookHost } from './commandHookHost';
import type { ToolCallResult, ToolInfo } from '../agent/messages';
import type { ToolCallOptions, ToolHost, ToolHostEvent, ToolListOptions } from '../agent/ports';
import type { ResourceHost } from '../agent/resources';

export class WithCommandHooks implements ToolHost {
  constructor(
    readonly mcp: ToolHost,
    readonly commands: CommandHookHost,
  ) {}

  /** The servers' resources, forwarded (resources.ts): hook files have none. */
  get resources(): ResourceHost | undefined {
    return this.mcp.resources;
  }

  serverNames(): string[] {
    return [...this.mcp.serverNames(), ...this.commands.serverNames()];
  }

  async listTools(signal?: AbortSignal, options?: ToolListOptions): Promise<ToolInfo[]> {
    return [...(await this.mcp.listTools(signal, options)), ...this.commands.cachedTools()];
  }

  cachedTools(): ToolInfo[] | undefined {
    if (this.mcp.cachedTools === undefined) return undefined;
    const tools = this.mcp.cachedTools();
    return tools === undefined ? undefined : [...tools, ...this.commands.cachedTools()];
  }

  authorize(server: string, bareName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult | undefined> {
    // Sources offer hooks only, and the model is never offered a hook: nothing of theirs is authorised.
    if (this.commands.has(server) || this.mcp.authorize === undefined) return Promise.resolve(undefined);
    return this.mcp.authorize(server, bareName, args, signal);
  }

  callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    return this.commands.has(server) ? this.commands.callTool(server, bareName, args, options) : this.mcp.callTool(server, bareName, args, options);
  }

  killServer(server: string, reason: string): Promise<void> {
    return this.commands.has(server) ? this.commands.killServer(server) : this.mcp.killServer(server, reason);
  }

  subscribe(listener: (event: ToolHostEvent) => void): () => void {
    return this.mcp.subscribe(listener);
  }
}
