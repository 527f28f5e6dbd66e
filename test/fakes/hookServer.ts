/**
 * FakeHookServer: a configurable MCP server over stdio, run as a real child process in tests. It
 * exposes `echo`, hook tools (`_Stop`, `_PreToolUse`, ...) with scripted behaviours (object N times,
 * hang, crash, flood, hostile text, spawn a grandchild, ignore SIGTERM, answer by `_meta`...), paginates tools/list, can
 * announce list changes, and logs every call and cancellation it receives to a JSON-lines file. It is
 * built on the v2 SDK and serves both protocol eras by default (`era` picks one: `modern` refuses the
 * 2025 `initialize`, `legacy` serves only it). Importing this file gives the typed helpers; running it
 * starts the server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Server, type CallToolResult, type InputRequiredResult, type InputResponses, type JSONRPCMessage, type Tool, type Transport, type TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { runBehaviour } from './hookServer/behaviours';
import { HOOK_SERVER_ENV, type FakeToolSpec, type HookServerConfig } from './hookServer/hookServerConfig';
import { appendLog, bumpCounter } from './hookServer/hookServerState';

export * from './hookServer/hookServerConfig';
export { readHookServerLog, type HookServerLogEntry } from './hookServer/hookServerState';
export { HOSTILE_TEXT } from './hookServer/behaviours';

const OPEN_SCHEMA = { type: 'object', properties: {} } as const;

function loadConfig(): HookServerConfig {
  const at = process.argv.indexOf('--config');
  const file = at >= 0 ? process.argv[at + 1] : undefined;
  const raw = file ? readFileSync(file, 'utf8') : process.env[HOOK_SERVER_ENV];
  if (!raw) throw new Error(`FakeHookServer: set ${HOOK_SERVER_ENV} or pass --config <file>`);
  return JSON.parse(raw) as HookServerConfig;
}

function initialTools(config: HookServerConfig): FakeToolSpec[] {
  const tools: FakeToolSpec[] = [];
  if (config.echo !== false) {
    tools.push({
      name: 'echo',
      description: 'Echoes its text argument.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
  }
  for (const [name, behaviour] of Object.entries(config.hooks ?? {})) tools.push({ name, description: `hook ${name}`, behaviour });
  tools.push(...(config.extraTools ?? []));
  for (const name of config.invalidToolNames ?? []) tools.push({ name, description: 'badly named', behaviour: { kind: 'empty' } });
  for (let i = 0; i < (config.manyTools ?? 0); i++) tools.push({ name: `tool_${i}`, description: `tool number ${i}` });
  return tools;
}

function toWire(tool: FakeToolSpec): Tool {
  return {
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: (tool.inputSchema ?? OPEN_SCHEMA) as Tool['inputSchema'],
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
  };
}

/** What a legacy server that refuses anything before `initialize` does on `server/discover`: says so (or not) and ends. */
function exitOnDiscover(how: { code: number; stderr?: string }): never {
  if (how.stderr !== undefined) process.stderr.write(`${how.stderr}\n`);
  process.exit(how.code);
}

/**
 * The stdio wire with a tap: requests and cancellations are logged as they arrive, before the SDK
 * turns them into handler calls and aborted signals (so a test sees the era question, or its absence).
 */
class TappedStdio implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly inner = new StdioServerTransport();

  constructor(private readonly config: HookServerConfig) {}

  start(): Promise<void> {
    const logFile = this.config.logFile;
    this.inner.onmessage = (message: JSONRPCMessage) => {
      if ('method' in message && 'id' in message) {
        appendLog(logFile, { type: 'request', method: message.method });
        if (message.method === 'server/discover' && this.config.exitOnDiscover) exitOnDiscover(this.config.exitOnDiscover);
      }
      if ('method' in message && message.method === 'notifications/cancelled') {
        const params = (message.params ?? {}) as { requestId?: string | number; reason?: string };
        appendLog(logFile, { type: 'cancelled', requestId: params.requestId, reason: params.reason });
      }
      this.onmessage?.(message);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** One server instance (per connection and era) over the process's shared tool list. */
function buildServer(config: HookServerConfig, tools: FakeToolSpec[], added: { n: number }): Server {
  const server = new Server({ name: config.serverName ?? 'fake-hook-server', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler('tools/list', async (request) => {
    if (config.listToolsDelayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, config.listToolsDelayMs));
    const start = Number(request.params?.cursor ?? 0);
    const size = config.pageSize ?? tools.length;
    const page = tools.slice(start, start + size).map(toWire);
    const next = start + size < tools.length ? { nextCursor: String(start + size) } : config.repeatCursor ? { nextCursor: String(start) } : {};
    return { tools: page, ...next };
  });
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const { name, arguments: args, _meta: meta } = request.params;
    appendLog(config.logFile, { type: 'call', tool: name, arguments: args ?? null, meta: meta ?? null });
    if (config.listChangedAfterCall) {
      tools.push({ name: `added_${added.n++}`, description: 'added after a call' });
      void server.sendToolListChanged();
    }
    const tool = tools.find((t) => t.name === name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `no tool ${name}` }] };
    if (name === 'echo') return { content: [{ type: 'text', text: String((args as { text?: unknown } | undefined)?.text ?? '') }] };
    return runBehaviour(name, tool.behaviour ?? { kind: 'text', text: `${name} ok` }, config.stateFile, meta as Record<string, unknown> | undefined, ctx.mcpReq.inputResponses as InputResponses | undefined);
  });
  return server;
}

function untilExists(file: string): Promise<void> {
  return new Promise((resolve) => {
    const look = (): void => void (existsSync(file) ? resolve() : setTimeout(look, 50));
    look();
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const tools = initialTools(config);
  if (config.ignoreSigterm) process.on('SIGTERM', () => appendLog(config.logFile, { type: 'sigterm' }));
  const added = { n: 0 };
  // A server slow to come back after a kill or crash: the agent must not wait for it.
  if (config.restartDelayMs !== undefined && bumpCounter(config.stateFile, 'starts') > 1) {
    await new Promise((resolve) => setTimeout(resolve, config.restartDelayMs));
  }
  if (config.startDelayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, config.startDelayMs));
  if (config.startWhenExists !== undefined) await untilExists(config.startWhenExists);
  if (config.stdoutLines !== undefined) await new Promise<void>((resolve) => process.stdout.write(config.stdoutLines?.map((line) => `${line}\n`).join('') ?? '', () => resolve()));
  const wire = new TappedStdio(config);
  if (config.era === 'legacy') await buildServer(config, tools, added).connect(wire);
  else serveStdio(() => buildServer(config, tools, added), { transport: wire, legacy: config.era === 'modern' ? 'reject' : 'serve' });
  appendLog(config.logFile, { type: 'started' });
}
if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`FakeHookServer failed: ${String(error)}\n`);
    process.exit(1);
  });
}
