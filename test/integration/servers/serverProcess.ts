/**
 * Starts a bundled MCP server as a real child process (its TypeScript entry under tsx, or a built
 * bundle) and connects the MCP SDK client to it. Used by the server integration tests.
 */
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

export interface ServerProcess {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  /** Text of a tool call's result, with its error flag and structured content. */
  call(name: string, args?: Record<string, unknown>, meta?: Record<string, unknown>): Promise<{ text: string; isError: boolean; structured?: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startServer(name: 'workspace' | 'todo' | 'tests', args: string[], script?: string): Promise<ServerProcess> {
  const entry = script ?? resolve(REPO_ROOT, 'src', 'servers', name, 'main.ts');
  const nodeArgs = script ? [entry, ...args] : ['--import', 'tsx', entry, ...args];
  const transport = new StdioClientTransport({ command: process.execPath, args: nodeArgs, cwd: REPO_ROOT, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'sprout-test', version: '0.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close();
    throw new Error(`server ${name} did not start: ${String(error)}\n${stderr}`, { cause: error });
  }
  return {
    client,
    transport,
    pid: transport.pid ?? -1,
    async call(tool, toolArgs = {}, meta) {
      const result = await client.callTool({ name: tool, arguments: toolArgs, ...(meta ? { _meta: meta } : {}) }, undefined, { timeout: 600_000 });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      const structured = result.structuredContent as Record<string, unknown> | undefined;
      return { text: content.map((c) => c.text ?? '').join(''), isError: result.isError === true, ...(structured ? { structured } : {}) };
    },
    close: () => client.close(),
  };
}
