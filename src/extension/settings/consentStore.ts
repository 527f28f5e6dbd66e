/**
 * Consent for workspace-defined MCP servers: a server from the workspace starts only after the user
 * allowed exactly its command, args and env. The answer is kept in globalState keyed by server name
 * and a hash of those, so a changed command asks again. The prompt is replaceable for tests.
 *
 * The prompt is a modal, which VS Code cannot dismiss by a CancellationToken (showWarningMessage takes
 * none): a server build superseded or ended while it is open stops waiting for it (agentHost.ts), and
 * the answer, when it comes, is still the user's answer about exactly that definition, so it is kept.
 * A newer build that needs the same answer shares the open question instead of opening a second one.
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
  /** Questions on screen, by key: a second ask for the same definition waits for the same answer. */
  private readonly asking = new Map<string, Promise<boolean>>();

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

  /**
   * True when the server may start, asking the user when this exact definition was never answered.
   * Nothing new is asked once `signal` (the asking build's) has aborted.
   */
  async ensure(server: McpServerConfig, signal?: AbortSignal): Promise<boolean> {
    const key = this.key(server);
    const stored = this.state.get<boolean>(key);
    if (stored !== undefined) return stored;
    let pending = this.asking.get(key);
    if (pending === undefined) {
      signal?.throwIfAborted();
      pending = this.ask(server, key).finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  private async ask(server: McpServerConfig, key: string): Promise<boolean> {
    const allowed = await this.prompt(server);
    await this.state.update(key, allowed);
    return allowed;
  }

  async forget(server: McpServerConfig): Promise<void> {
    await this.state.update(this.key(server), undefined);
  }
}
