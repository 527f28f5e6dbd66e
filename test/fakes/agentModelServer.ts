/**
 * FakeAgentModels: one HTTP server on 127.0.0.1 that speaks the model wires of the coding agents the
 * agents suite drives headless: Anthropic Messages (`POST /v1/messages`, SSE) for Claude Code, OpenAI
 * Responses (`POST .../responses`, SSE) for Codex, and Gemini `streamGenerateContent?alt=sse` for
 * Gemini CLI. Each agent's main-loop requests (the ones that offer tools) play a scripted reply; side
 * requests an agent makes on its own (a title, a summary) get a short text and are recorded apart. It
 * rejects, with each API's 400 shape, a request whose history the real API would refuse (a tool result
 * with no call before it, an empty conversation), and records every request for the test to read.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicStream, geminiStream, responsesStream, type ScriptedReply } from './agentModels/agentWires';
import { validateAnthropic, validateGemini, validateResponses } from './agentModels/agentValidation';

export type { ScriptedReply } from './agentModels/agentWires';

export type Wire = 'anthropic' | 'responses' | 'gemini';

export interface AgentModelRequest {
  wire: Wire;
  path: string;
  body: Record<string, unknown>;
  /** Offered tools: a main-loop request that played a scripted reply. */
  main: boolean;
  error?: string;
}

export interface FakeAgentModels {
  url: string;
  requests: AgentModelRequest[];
  main(): AgentModelRequest[];
  close(): Promise<void>;
}

/** Called for each main-loop request (0-based among them); undefined ends the turn with a plain "Done." */
export type AgentResponder = (index: number, request: AgentModelRequest) => ScriptedReply | undefined;

function wireOf(path: string): Wire | undefined {
  if (path.endsWith('/messages')) return 'anthropic';
  if (path.endsWith('/responses')) return 'responses';
  if (path.includes(':streamGenerateContent') || path.includes(':generateContent')) return 'gemini';
  return undefined;
}

function offersTools(wire: Wire, body: Record<string, unknown>): boolean {
  const tools = body.tools;
  if (wire !== 'gemini') return Array.isArray(tools) && tools.length > 0;
  return Array.isArray(tools) && tools.some((t) => Array.isArray((t as { functionDeclarations?: unknown[] }).functionDeclarations));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function reject(res: ServerResponse, wire: Wire, message: string): void {
  const body =
    wire === 'anthropic'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : wire === 'gemini'
        ? { error: { code: 400, message, status: 'INVALID_ARGUMENT' } }
        : { error: { message, type: 'invalid_request_error', param: null, code: null } };
  res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function stream(res: ServerResponse, wire: Wire, reply: ScriptedReply, model: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunks = wire === 'anthropic' ? anthropicStream(reply, model) : wire === 'responses' ? responsesStream(reply, model) : geminiStream(reply);
  res.end(chunks.join(''));
}

export async function startFakeAgentModels(responder: AgentResponder): Promise<FakeAgentModels> {
  const requests: AgentModelRequest[] = [];
  let mainCount = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const wire = req.method === 'POST' ? wireOf(path) : undefined;
      const text = await readBody(req);
      if (wire === undefined) {
        // Model lists, token counts, telemetry: nothing a headless run needs; a 404 each agent tolerates.
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const body = (JSON.parse(text || '{}') ?? {}) as Record<string, unknown>;
      const record: AgentModelRequest = { wire, path, body, main: offersTools(wire, body) };
      const problem = wire === 'anthropic' ? validateAnthropic(body) : wire === 'responses' ? validateResponses(body) : validateGemini(body);
      requests.push(problem === undefined ? record : { ...record, error: problem });
      if (problem !== undefined) return reject(res, wire, problem);
      const reply = record.main ? (responder(mainCount++, record) ?? { text: 'Done.' }) : { text: 'Sprout test' };
      stream(res, wire, reply, typeof body.model === 'string' ? body.model : 'fake-model');
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    main: () => requests.filter((r) => r.main && r.error === undefined),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // An agent that left a request open (a stream it stopped reading) must not hold the close.
        server.closeAllConnections();
      }),
  };
}
