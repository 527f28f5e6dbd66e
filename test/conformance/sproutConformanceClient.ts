/**
 * The client the official MCP conformance suite drives (`conformance client --command ...`): Sprout's
 * own McpHub, as the product composes it (elicitation, roots, OAuth sign-in), pointed at the suite's
 * server URL. It lists the tools and calls each one with arguments made from its schema, the way a
 * model would, then closes. Sign-in follows the authorization redirect as a browser would; a form
 * question is accepted as presented (defaults filled in). In the schema-preservation scenario the echo
 * tool gets the other tool's schema as Sprout sends it to the model (docs/conformance.md).
 */
import type { JSONSchema7 } from './jsonSchemaLite';
import type { ToolInfo } from '../../src/agent/messages';
import { toolSpecs } from '../../src/agent/roundRequest';
import { McpHub } from '../../src/mcp/mcpHub';
import { toWireTools } from '../../src/model/wire';
import type { OAuthRecord, OAuthStore } from '../../src/mcp/oauthClient';

class InMemoryOAuthStore implements OAuthStore {
  private readonly records = new Map<string, OAuthRecord>();
  async load(key: string) {
    return this.records.get(key);
  }
  async save(key: string, record: OAuthRecord) {
    this.records.set(key, record);
  }
  async clear(key: string) {
    this.records.delete(key);
  }
}

/** The user's browser: opens the sign-in URL and follows redirects until one lands on our loopback listener. */
async function browse(url: URL): Promise<void> {
  let next = url.href;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (location === null) return;
    next = new URL(location, next).href;
    if (next.startsWith('http://127.0.0.1:') && next.includes('/callback')) {
      await fetch(next);
      return;
    }
  }
}

function sample(schema: JSONSchema7 | undefined): unknown {
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v)]));
    default:
      return Array.isArray(schema?.enum) ? schema.enum[0] : 'x';
  }
}

/** The `json-schema-2020-12-preservation` scenario's tools: its focal tool, and the tool that echoes a schema back to the suite. */
const SCHEMA_SCENARIO = { name: 'json-schema-2020-12-preservation', focal: 'json_schema_2020_12_tool', echo: 'json_schema_echo' };

/**
 * The focal tool's parameter schema exactly as Sprout sends it to the model: the hub's listing, through
 * the core's tool specs and the request mapping with the default rules (docs/model-servers.md names the
 * servers whose dialect reduces schemas). The scenario compares it with the schema it served.
 */
function schemaTheModelSees(tools: readonly ToolInfo[]): unknown {
  const focal = tools.find((tool) => tool.bareName === SCHEMA_SCENARIO.focal);
  return toWireTools(toolSpecs(tools))?.find((tool) => tool.function.name === focal?.qualifiedName)?.function.parameters;
}

/**
 * Arguments made from the tool's schema, as a model would. The suite names its scenario in
 * MCP_CONFORMANCE_SCENARIO; the schema scenario's echo tool asks for the focal tool's schema back.
 */
function argumentsFor(tool: ToolInfo, tools: readonly ToolInfo[]): Record<string, unknown> {
  if (process.env.MCP_CONFORMANCE_SCENARIO === SCHEMA_SCENARIO.name && tool.bareName === SCHEMA_SCENARIO.echo) return { schema: schemaTheModelSees(tools) };
  return sample(tool.inputSchema as JSONSchema7) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const url = process.argv[2];
  if (url === undefined) throw new Error('usage: sproutConformanceClient <server-url>');
  const hub = new McpHub([{ name: 'conformance', transport: { type: 'http', url, headers: {} } }], {
    clientName: 'sprout-agent',
    clientVersion: '0.1.0',
    features: { elicitation: { by: 'policy', answer: async () => ({ action: 'accept', content: {} }) }, roots: () => [] },
    oauth: { store: new InMemoryOAuthStore(), openSignIn: (_server, signInUrl) => void browse(signInUrl).catch(() => undefined) },
    connectTimeoutMs: 20_000,
  });
  hub.subscribe((event) => process.stderr.write(`${JSON.stringify(event)}\n`));
  try {
    const tools = await hub.listTools();
    for (const tool of tools) {
      const args = argumentsFor(tool, tools);
      // A call the client refuses (a malformed result) fails that call, as it does for the model, not the run.
      const result = await hub.callTool(tool.server, tool.bareName, args, { signal: new AbortController().signal }).catch((error: unknown) => ({ isError: true, text: String(error) }));
      process.stdout.write(`${tool.bareName}: ${result.isError ? 'error: ' : ''}${result.text.slice(0, 200)}\n`);
    }
  } finally {
    await hub.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`conformance client failed: ${String(error)}\n`);
    process.exit(1);
  },
);
