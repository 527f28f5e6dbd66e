/**
 * Consent for workspace-defined MCP servers: a server from the workspace starts only after the user
 * allowed exactly its command, args and env. The answer is kept in globalState keyed by server name
 * and a hash of those, so a changed command asks again. The prompt is replaceable for tests.
 */
import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import type { McpServerConfig } from '../../mcp/config';

export type ConsentPrompt = (server: McpServerConfig) => Promise<boolean>;

export function serverFingerprint(server: McpServerConfig): string {
  const t = server.transport;
  const material = t.type === 'stdio' ? { type: t.type, command: t.command, args: t.args, env: t.env, cwd: t.cwd } : { type: t.type, url: t.url, headers: t.headers };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

export class ConsentStore {
  constructor(
    private readonly state: vscode.Memento,
    public prompt: ConsentPrompt,
  ) {}

  private key(server: McpServerConfig): string {
    return `sprout.consent.${server.name}.${serverFingerprint(server)}`;
  }

  has(server: McpServerConfig): boolean {
    return this.state.get<boolean>(this.key(server)) === true;
  }

  /** True when the server may start, asking the user when this exact definition was never answered. */
  async ensure(server: McpServerConfig): Promise<boolean> {
    const stored = this.state.get<boolean>(this.key(server));
    if (stored !== undefined) return stored;
    const allowed = await this.prompt(server);
    await this.state.update(this.key(server), allowed);
    return allowed;
  }

  async forget(server: McpServerConfig): Promise<void> {
    await this.state.update(this.key(server), undefined);
  }
}
