/**
 * One server's tool list as ServerConnection keeps it: the listing of the connection that is up (if
 * it is current), the last successful listing (kept across kills so UIs can still show what the
 * server offers), one shared fetch at a time, and a version so a listing that a `list_changed`
 * overtook is not kept. The connection says which client is current and what to report.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ToolInfo } from '../agent/messages';
import { afterSignIn, type Live } from './clientOpener';
import { serverRunsToolTasks } from './toolCall';
import { toToolInfos, type RawTool } from './toolInfos';

/** What the cache needs from its connection. */
export interface ToolListOwner {
  readonly server: string;
  readonly timeoutMs: number;
  /** The connection that is up, if any (a listing is kept only for it). */
  live(): Live | undefined;
  /** Aborted when a start or a sign-in wait must give up. */
  abandon(): AbortSignal;
  /** A tool the server listed could not be used (bad or duplicate name). */
  report(message: string): void;
  /** A listing was kept: the status changed. */
  listed(): void;
}

export class ToolListCache {
  private current: ToolInfo[] | undefined;
  /** The last successful listing, kept across kills so UIs can still show what the server offers. */
  private lastListed: ToolInfo[] = [];
  private version = 0;
  private fetching: Promise<ToolInfo[]> | undefined;
  /** Each listed tool's outputSchema, by bare name (a call's structured content is checked against it). */
  private outputSchemas = new Map<string, Record<string, unknown>>();

  constructor(private readonly owner: ToolListOwner) {}

  /** The listing of the connection that is up, when it is current. */
  get tools(): ToolInfo[] | undefined {
    return this.current;
  }

  /** What the server last listed (kept while it is down or slow). */
  get last(): ToolInfo[] {
    return this.lastListed;
  }

  /** A listed tool's definition for a call: its input schema and the outputSchema the server listed for it, if any. */
  definition(tool: ToolInfo | undefined): { definition?: { inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> } } {
    if (tool === undefined) return {};
    const outputSchema = this.outputSchemas.get(tool.bareName);
    return { definition: { inputSchema: tool.inputSchema, ...(outputSchema !== undefined ? { outputSchema } : {}) } };
  }

  /** Every page at once (the SDK follows nextCursor, bounded); toolListWire.ts has made each tool readable. */
  private async listRaw(client: Client): Promise<RawTool[]> {
    return (await client.listTools(undefined, { timeout: this.owner.timeoutMs, cacheMode: 'refresh' })).tools as RawTool[];
  }

  /** The connection changed (dropped, or a new one is up): its listing is asked for again. */
  drop(): void {
    this.current = undefined;
  }

  /** The server said its list changed: a fetch already running is not kept. */
  changed(): void {
    this.current = undefined;
    this.version++;
  }

  /** One fetch for every caller at once; `failed` hears of a failure before the callers do. */
  shared(client: Client, failed: (error: unknown) => void): Promise<ToolInfo[]> {
    this.fetching ??= this.fetch(client)
      .catch((error: unknown) => {
        failed(error);
        throw error;
      })
      .finally(() => (this.fetching = undefined));
    return this.fetching;
  }

  async fetch(client: Client): Promise<ToolInfo[]> {
    const version = this.version;
    const live = this.owner.live()?.client === client ? this.owner.live() : undefined;
    // From the wire: this runs because the list is new or changed.
    const report = (message: string): void => this.owner.report(message);
    const raw = await afterSignIn(live, () => this.listRaw(client), this.owner.abandon(), this.owner.server);
    const tools = toToolInfos(this.owner.server, raw, report, serverRunsToolTasks(client));
    if (this.owner.live()?.client === client && this.version === version) {
      this.outputSchemas = new Map(raw.flatMap((t) => (t.outputSchema !== undefined && typeof t.outputSchema === 'object' ? [[t.name, t.outputSchema] as const] : [])));
      this.current = tools;
      this.lastListed = tools;
      this.owner.listed();
    }
    return tools;
  }
}
