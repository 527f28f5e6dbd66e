/**
 * The MCP server and transport corpus (issue 32): behaviours of real servers from public reports,
 * each played by a real server (a stdio child process, FakeHookServer, or a Streamable HTTP server
 * on 127.0.0.1, scriptedMcpHttpServer.ts) and paired with what Sprout must do. Every case cites its
 * source. The runner is mcpServerCorpus.test.ts. Cases that need more than the hub live beside the
 * parts they need: a call kept alive by progress for ever (the loop's timeouts) in
 * test/integration/loop/progressForever.test.ts, an authorization server on another origin (a full
 * sign-in) in test/integration/mcp/oauth.test.ts.
 */
import type { HookServerConfig } from '../../../fakes/hookServer';
import type { ScriptedMcpHttpOptions } from '../../../fakes/scriptedMcpHttpServer';

export interface McpCase {
  id: string;
  source: string;
  /** A stdio FakeHookServer with this configuration, or a scripted Streamable HTTP server. */
  server: { stdio: HookServerConfig; tool?: string } | { http: ScriptedMcpHttpOptions };
  /**
   * The call `echo {text: "ping"}` (or the listing, for `listing`) ends so: answered `ping`, or failed with these words;
   * `thenLists`: a tool the server adds during the call is listed afterwards. Every listing holds each tool once.
   */
  expect: { answers: string; thenLists?: string } | { answersLength: number } | { fails: RegExp } | { listingFails: RegExp };
  /** What Sprout says about the server meanwhile (its `server_error` notes), for an answered call. */
  notes?: RegExp;
  /** Tools the server lists that must not be offered. */
  notListed?: string[];
}

const notFound = (body: string, status = 404, contentType = 'text/plain'): ScriptedMcpHttpOptions['unknownSession'] => ({ status, body, contentType });

const OBJECT_ARM = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

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
  // ── Added in the second corpus round (issue 32) ────────────────────────────────────────────────
  {
    id: 'stdio: the server dies mid-call after printing why on stderr: the call ends at once with the exit code and the stderr line',
    source: 'https://github.com/anthropics/claude-code/issues/35287',
    server: { stdio: { extraTools: [{ name: 'query', behaviour: { kind: 'crash', exitCode: 2, stderr: 'Error: SQLITE_CANTOPEN: unable to open database file' } }] }, tool: 'query' },
    expect: { fails: /code 2[\s\S]*SQLITE_CANTOPEN|SQLITE_CANTOPEN[\s\S]*code 2/ },
  },
  {
    id: 'stdio: tools/list paginates with nextCursor: a tool on the second page is listed and callable',
    source: 'https://github.com/vercel/ai/issues/19240',
    server: { stdio: { pageSize: 2, extraTools: [{ name: 'first' }, { name: 'late', behaviour: { kind: 'text', text: 'ping' } }] }, tool: 'late' },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: a nextCursor that never advances (the last page names itself again): the listing ends, each tool once',
    source: 'https://github.com/DeusData/codebase-memory-mcp/issues/1247',
    server: { stdio: { pageSize: 5, repeatCursor: true } },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: notifications/tools/list_changed during a call: the call answers, and the added tool is listed afterwards',
    source: 'https://github.com/anthropics/claude-code/issues/79826',
    server: { stdio: { listChangedAfterCall: true } },
    expect: { answers: 'ping', thenLists: 'added_0' },
  },
  {
    id: 'stdio: one tool\'s inputSchema is a top-level anyOf with no "type": "object": that tool and its neighbours stay usable',
    source: 'https://github.com/anthropics/claude-code/issues/88049',
    server: { stdio: { extraTools: [{ name: 'search', inputSchema: { anyOf: [OBJECT_ARM, { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] }] }, behaviour: { kind: 'text', text: 'ping' } }] }, tool: 'search' },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: tools whose inputSchema is only {"$schema": ...} (no type): listed and callable, not the whole server dropped',
    source: 'https://github.com/awwaiid/mcp-server-taskwarrior/issues/11',
    server: { stdio: { extraTools: [{ name: 'add_task', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' }, behaviour: { kind: 'text', text: 'ping' } }] }, tool: 'add_task' },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: a tool whose inputSchema is {"type": "string"} does not take the server\'s other tools down',
    source: 'https://github.com/sandialabs/atlas-ui-3/issues/727',
    server: { stdio: { extraTools: [{ name: 'lookup', inputSchema: { type: 'string', description: 'the document title' } }] } },
    expect: { answers: 'ping' },
    notListed: ['lookup'],
    notes: /"lookup".*inputSchema has type "string"/,
  },
  {
    id: 'stdio: one tool\'s outputSchema has top-level type "array": the tool is listed and answers, the schema ignored',
    source: 'https://github.com/Wynelson94/longhand/issues/10',
    server: { stdio: { extraTools: [{ name: 'search_sessions', outputSchema: { type: 'array', items: { type: 'string' } }, behaviour: { kind: 'text', text: 'ping' } }] }, tool: 'search_sessions' },
    expect: { answers: 'ping' },
    notes: /"search_sessions" has an outputSchema that is not an object schema/,
  },
  {
    id: 'stdio: an error result whose structuredContent does not match the outputSchema: the server\'s own error words reach the model',
    source: 'https://github.com/HexSleeves/tailscale-mcp/pull/101',
    server: {
      stdio: {
        extraTools: [{ name: 'manage_dns', outputSchema: { type: 'object', properties: { data: { type: 'string' } }, required: ['data'] }, behaviour: { kind: 'structured', isError: true, text: 'Tool requires write/admin risk level', structured: { error: { code: 'FORBIDDEN' } } } }],
      },
      tool: 'manage_dns',
    },
    expect: { fails: /requires write\/admin risk level/ },
  },
  {
    id: 'stdio: content and structuredContent that misses the outputSchema (a number sent as a string): the content is answered, the mismatch named',
    source: 'https://github.com/MCPJam/inspector/pull/1513',
    server: {
      stdio: {
        extraTools: [{ name: 'weather', outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] }, behaviour: { kind: 'structured', text: 'ping', structured: { temperature: '21' } } }],
      },
      tool: 'weather',
    },
    expect: { answers: 'ping' },
    notes: /"weather" answered, but its structured content does not match its outputSchema \(.*temperature/,
  },
  {
    id: 'stdio: a tool that declares an outputSchema answers with text only (no structuredContent): the text is the answer',
    source: 'https://github.com/rekog-labs/MCP-Nest/issues/79',
    server: { stdio: { extraTools: [{ name: 'getUserProfile', outputSchema: { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' }, behaviour: { kind: 'text', text: 'ping' } }] }, tool: 'getUserProfile' },
    expect: { answers: 'ping' },
  },
  {
    id: 'stdio: a 10 MiB text result in one message: read whole (the agent caps it for the model with a marker), the server stays up',
    source: 'https://github.com/DeusData/codebase-memory-mcp/issues/1375',
    server: { stdio: { extraTools: [{ name: 'query_graph', behaviour: { kind: 'bigText', bytes: 10 * 1024 * 1024 } }] }, tool: 'query_graph' },
    expect: { answersLength: 10 * 1024 * 1024 },
  },
  {
    id: 'Streamable HTTP: POST /mcp answered 307 to /mcp/ (Starlette trailing slash): followed, the call goes through',
    source: 'https://github.com/modelcontextprotocol/python-sdk/issues/732',
    server: { http: { redirect: 307 } },
    expect: { answers: 'ping' },
  },
  {
    // First written expecting a refusal; 2024-10-07 is a real early revision the SDK speaks, so the server is usable.
    id: 'Streamable HTTP: initialize answered with the early revision 2024-10-07 (that stricter clients refuse): spoken, the call goes through',
    source: 'https://github.com/strowk/mcp-k8s-go/issues/40',
    server: { http: { protocolVersion: '2024-10-07' } },
    expect: { answers: 'ping' },
  },
  {
    id: 'Streamable HTTP: initialize answered with a revision no client knows (the server answers its own whatever was asked): words naming the version',
    source: 'https://github.com/jonnyzzz/mcp-steroid/issues/482',
    server: { http: { protocolVersion: '2099-01-01' } },
    expect: { listingFails: /2099-01-01/ },
  },
  {
    id: 'HTTP+SSE (2024-11-05) server only: the POST is refused, the legacy event stream is used and the call goes through',
    source: 'https://github.com/quarkiverse/quarkus-mcp-server/pull/326',
    server: { http: { legacySse: true } },
    expect: { answers: 'ping' },
  },
];
