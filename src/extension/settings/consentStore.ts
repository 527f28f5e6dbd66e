/**
 * Consent for workspace-defined MCP servers: a server from the workspace starts only after the user
 * allowed exactly its command, args and env. The answer is kept in globalState keyed by server name
 * and a hash of those, so a changed command asks again. The prompt is replaceable for tests.
 *
 * The prompt is a modal that may outlive the build that asked (openQuestions.ts): the answer, when
 * it comes, is still the user's answer about exactly that definition, so it is kept.
 */
import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import type { McpServerConfig } from '../../mcp/config';
import { OpenQuestions } from './openQuestions';

export type ConsentPrompt = (server: McpServerConfig) => Promise<boolean>;

export function serverFingerprint(server: McpServerConfig): string {
  const t = server.transport;
  const material =
    t.type === 'stdio' ? { type: t.type, command: t.command, args: t.args, env: t.env, cwd: t.cwd } : t.type === 'http' ? { type: t.type, url: t.url, headers: t.headers } : { type: t.type };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

export class ConsentStore {
  private readonly asking = new OpenQuestions<boolean>();

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
    return this.asking.ask(key, () => this.ask(server, key), signal);
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
