/**
 * The MCP server and transport corpus (issue 32): behaviours of real servers from public reports,
 * each played by a real server (a stdio child process, FakeHookServer, or a Streamable HTTP server
 * on 127.0.0.1, scriptedMcpHttpServer.ts) and paired with what Sprout must do. Every case cites its
 * source. The runner is mcpServerCorpus.test.ts.
 */
import type { HookServerConfig } from '../../../fakes/hookServer';
import type { ScriptedMcpHttpOptions } from '../../../fakes/scriptedMcpHttpServer';

export interface McpCase {
  id: string;
  source: string;
  /** A stdio FakeHookServer with this configuration, or a scripted Streamable HTTP server. */
  server: { stdio: HookServerConfig; tool?: string } | { http: ScriptedMcpHttpOptions };
  /** The call `echo {text: "ping"}` (or the listing, for `listing`) ends so: answered `ping`, or failed with these words. */
  expect: { answers: string } | { fails: RegExp } | { listingFails: RegExp };
}

const notFound = (body: string, status = 404, contentType = 'text/plain'): ScriptedMcpHttpOptions['unknownSession'] => ({ status, body, contentType });

export const MCP_CASES: McpCase[] = [
  // ── A call in flight ends when its transport or session does ───────────────────────────────────
  {
    id: 'Streamable HTTP: the session ends (404) while a call stream is open: the call ends at once, naming the session',
    source: 'https://github.com/anthropics/claude-code/issues/60061',
    server: { http: { call: { kind: 'endSessionMidCall' } } },
    expect: { fails: /session/ },
  },
  {
    id: 'Streamable HTTP: the session ends mid-call and the server answers the old id with 400 "Unknown Mcp-Session-Id": the call ends',
    source: 'https://github.com/diegosouzapw/OmniRoute/pull/5191',
    server: { http: { call: { kind: 'endSessionMidCall' }, unknownSession: notFound('Bad Request: Unknown Mcp-Session-Id header', 400) } },
    // The SDK drops the body of a refused resume, so the words say what Sprout saw: the stream could not be resumed.
    expect: { fails: /session|event stream/ },
  },
  {
    id: 'Streamable HTTP: the session ends mid-call and the server answers 401 "Session not found" (rmcp): the call ends',
    source: 'https://github.com/modelcontextprotocol/rust-sdk/issues/689',
    server: { http: { call: { kind: 'endSessionMidCall' }, unknownSession: notFound('Unauthorized: Session not found', 401) } },
    expect: { fails: /session|event stream/ },
  },
  {
    id: 'Streamable HTTP: the call stream closes with no answer and no event id to resume from: the call ends',
    source: 'https://github.com/modelcontextprotocol/python-sdk/issues/1811',
    server: { http: { call: { kind: 'dropStreamMidCall' } } },
    expect: { fails: /stream|closed|ended/ },
  },
  // ── A session the server forgot before the call: a new one, the call retried once ──────────────
  {
    id: 'Streamable HTTP: 404 for a session the server forgot (restart): new session, the call goes through',
    source: 'https://github.com/modelcontextprotocol/python-sdk/issues/1676',
    server: { http: { call: { kind: 'forgetSessionBeforeCall' } } },
    expect: { answers: 'ping' },
  },
  {
    id: 'Streamable HTTP: 404 with a JSON-RPC "Session not found" body (id "server-error"): new session, the call goes through',
    source: 'https://github.com/datagouv/datagouv-mcp/issues/25',
    server: { http: { call: { kind: 'forgetSessionBeforeCall' }, unknownSession: notFound(JSON.stringify({ jsonrpc: '2.0', id: 'server-error', error: { code: -32600, message: 'Session not found' } }), 404, 'application/json') } },
    expect: { answers: 'ping' },
  },
  {
    id: 'Streamable HTTP: 400 "Bad Request: Unknown Mcp-Session-Id header" for a forgotten session: new session, the call goes through',
    source: 'https://github.com/diegosouzapw/OmniRoute/pull/5191',
    server: { http: { call: { kind: 'forgetSessionBeforeCall' }, unknownSession: notFound('Bad Request: Unknown Mcp-Session-Id header', 400) } },
    expect: { answers: 'ping' },
  },
  {
    id: 'Streamable HTTP: 401 "Unauthorized: Session not found" for a forgotten session (no OAuth challenge): new session, the call goes through',
    source: 'https://github.com/modelcontextprotocol/rust-sdk/issues/689',
    server: { http: { call: { kind: 'forgetSessionBeforeCall' }, unknownSession: notFound('Unauthorized: Session not found', 401) } },
    expect: { answers: 'ping' },
  },
  {
    id: 'Streamable HTTP: a forgotten session answered 404 with an empty body: new session, the call goes through',
    source: 'https://github.com/modelcontextprotocol/rust-sdk/issues/733',
    server: { http: { call: { kind: 'forgetSessionBeforeCall' }, unknownSession: notFound('', 404) } },
    expect: { answers: 'ping' },
  },
  {
    id: 'Streamable HTTP: a forgotten session answered 200 with an event stream carrying {"error":"Session not found"}: the call ends with words',
    source: 'https://github.com/actionhero/keryx/issues/503',
    server: { http: { call: { kind: 'forgetSessionBeforeCall' }, unknownSession: notFound('event: message\ndata: {"error":"Session not found"}\n\n', 200, 'text/event-stream') } },
    expect: { fails: /event stream|session/i },
  },
  {
    id: 'Streamable HTTP: a forgotten session answered 200 with a bare JSON-RPC -32600 "Invalid Request" (id null): the call ends with the server\'s words',
    source: 'https://github.com/aklivity/zilla/issues/2525',
    server: { http: { call: { kind: 'forgetSessionBeforeCall' }, unknownSession: notFound(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }), 200, 'application/json') } },
    expect: { fails: /Invalid Request/ },
  },
  // ── A standalone stream the server does not offer is no lost session ──────────────────────────
  {
    id: 'Streamable HTTP: the standalone GET stream refused with 400 (not the spec\'s 405): the server stays usable',
    source: 'https://github.com/IvanMurzak/MCP-Plugin-dotnet/issues/105',
    server: { http: { standaloneGet: { status: 400, body: 'Bad Request' } } },
    expect: { answers: 'ping' },
  },
  {
    id: 'Streamable HTTP: the standalone GET stream answered 404 "Cannot GET /mcp" (a POST-only route): not taken for a lost session',
    source: 'https://github.com/aklivity/zilla/issues/2525',
    server: { http: { standaloneGet: { status: 404, body: 'Cannot GET /mcp', contentType: 'text/html' } } },
    expect: { answers: 'ping' },
  },
  // ── Authorization metadata: words naming the field ─────────────────────────────────────────────
  {
    id: 'OAuth: authorization-server metadata without authorization_endpoint (client credentials only): words naming the field',
    source: 'https://github.com/mistralai/mistral-vibe/issues/953',
    server: {
      http: {
        authMetadata: {
          issuer: 'ORIGIN',
          token_endpoint: 'ORIGIN/api/users/oauth2/token',
          registration_endpoint: 'ORIGIN/api/users/oauth2/register',
          grant_types_supported: ['client_credentials'],
          response_types_supported: [],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        },
      },
    },
    expect: { listingFails: /authorization_endpoint/ },
  },
  {
    id: 'OAuth: authorization-server metadata without token_endpoint: words naming the field',
    source: 'https://github.com/anthropics/claude-ai-mcp/issues/134',
    server: { http: { authMetadata: { issuer: 'ORIGIN', authorization_endpoint: 'ORIGIN/authorize', response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] } } },
    expect: { listingFails: /token_endpoint/ },
  },
  // ── stdio servers that print to stdout ─────────────────────────────────────────────────────────
  {
    id: 'stdio: a startup banner on stdout ("... MCP Server running...") before the first message',
    source: 'https://github.com/starwind-ui/starwind-ui-mcp/pull/2',
    server: { stdio: { stdoutLines: ['Starwind UI MCP Server running...'] } },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: .NET console logger lines on stdout ("info: Microsoft.Hosting.Lifetime[14]")',
    source: 'https://github.com/sbroenne/mcp-server-excel/issues/636',
    server: { stdio: { stdoutLines: ['info: Microsoft.Hosting.Lifetime[14]', '      Now listening on: stdio', 'info: Microsoft.Hosting.Lifetime[0]'] } },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: JSON log lines on stdout that are not JSON-RPC ({"level":"info","msg":...})',
    source: 'https://github.com/kud/mcp-jenkins/issues/6',
    server: { stdio: { stdoutLines: ['{"level":"info","msg":"Jenkins client initialized","time":"2026-04-17T10:00:00.000Z"}', '{"level":"info","msg":"Jenkins MCP server running on stdio"}'] } },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: an emoji banner on stdout',
    source: 'https://github.com/Aas-ee/open-webSearch/issues/23',
    server: { stdio: { stdoutLines: ['🚀 open-webSearch MCP server started', '🔍 engines: bing, duckduckgo'] } },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: a version line on stdout at startup',
    source: 'https://github.com/microsoft/azure-devops-mcp/issues/147',
    server: { stdio: { stdoutLines: ['Azure DevOps MCP Server version : 1.0.0'] } },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: log lines on stdout while a call runs, then the answer',
    source: 'https://github.com/TSavo/printify-mcp/issues/3',
    server: { stdio: { extraTools: [{ name: 'shops', behaviour: { kind: 'printThen', lines: ['Fetching shops...', 'Shops response: [', '  {"id": 1}', ']', 'Found 2 shops: ['], text: 'ping' } }] }, tool: 'shops' },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: the server exits in the middle of a call (half a message written): the call ends, naming the exit',
    source: 'https://github.com/kud/mcp-jenkins/issues/6',
    server: { stdio: { extraTools: [{ name: 'dies', behaviour: { kind: 'exitMidCall', exitCode: 3 } }] }, tool: 'dies' },
    expect: { fails: /exit|stopped|code 3/ },
  },
];
