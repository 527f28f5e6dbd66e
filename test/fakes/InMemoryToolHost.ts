/**
 * InMemoryToolHost: a ToolHost whose servers are plain objects with handler functions. It records
 * every call (with its `_meta`), every cancellation (the signal aborting mid-call) and every kill, so
 * tests can check what the agent sent and that it let go of hung calls. Handlers get the call's signal.
 */
import type { ToolCallOptions, ToolHost, ToolHostEvent } from '../../src/agent/ports';
import type { ToolAnnotations, ToolCallResult, ToolInfo } from '../../src/agent/messages';

export type ToolHandler = (args: Record<string, unknown>, options: ToolCallOptions) => ToolCallResult | string | Promise<ToolCallResult | string>;

export interface InMemoryServer {
  name: string;
  tools: Record<string, ToolHandler>;
  /** Annotations by bare tool name (`readOnlyHint`...); a listing reads them as they are then. */
  annotations?: Record<string, ToolAnnotations>;
}

export interface RecordedCall {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  meta: Record<string, unknown> | undefined;
  cancelled: boolean;
  settled: boolean;
}

/** A handler that never answers until the call is aborted. */
export const hangs: ToolHandler = (_args, options) =>
  new Promise((_resolve, reject) => {
    const fail = (): void => reject(new Error('request cancelled'));
    if (options.signal.aborted) fail();
    options.signal.addEventListener('abort', fail, { once: true });
  });

export const delayed =
  (ms: number, result: string): ToolHandler =>
  (_args, options) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(result), ms);
      options.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new Error('request cancelled'));
      });
    });

/** A `_Stop` handler answering from a list, then with no objection. */
export function objects(...texts: string[]): ToolHandler {
  const queue = [...texts];
  return () => queue.shift() ?? '';
}

export class InMemoryToolHost implements ToolHost {
  readonly calls: RecordedCall[] = [];
  readonly kills: { server: string; reason: string }[] = [];
  active = 0;
  maxActive = 0;
  private readonly listeners = new Set<(event: ToolHostEvent) => void>();

  constructor(readonly servers: InMemoryServer[]) {}

  serverNames(): string[] {
    return this.servers.map((s) => s.name);
  }

  async listTools(): Promise<ToolInfo[]> {
    return this.servers.flatMap((server) =>
      Object.keys(server.tools).map((bareName) => ({
        server: server.name,
        bareName,
        qualifiedName: `${server.name}__${bareName}`,
        description: `${bareName} of ${server.name}`,
        inputSchema: { type: 'object', properties: {} },
        annotations: { ...server.annotations?.[bareName] },
        isHook: bareName.startsWith('_'),
      })),
    );
  }

  async callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    const handler = this.servers.find((s) => s.name === server)?.tools[bareName];
    const record: RecordedCall = { server, tool: bareName, args, meta: options.meta, cancelled: false, settled: false };
    this.calls.push(record);
    if (handler === undefined) throw new Error(`no tool ${bareName} on ${server}`);
    options.signal.addEventListener('abort', () => {
      if (!record.settled) record.cancelled = true;
    });
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      const result = await handler(args, options);
      return typeof result === 'string' ? { isError: false, text: result } : result;
    } finally {
      record.settled = true;
      this.active -= 1;
    }
  }

  async killServer(server: string, reason: string): Promise<void> {
    this.kills.push({ server, reason });
  }

  subscribe(listener: (event: ToolHostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  fire(event: ToolHostEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  callsTo(tool: string): RecordedCall[] {
    return this.calls.filter((c) => c.tool === tool);
  }
}
