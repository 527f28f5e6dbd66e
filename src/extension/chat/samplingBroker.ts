/**
 * Asks the user before a server's sampling request (MCP `sampling/createMessage`) reaches the chat's
 * model: a modal names the server, what it asks for (its first message, the token limit and cap) and
 * offers the approval scopes: once, in this chat (the chat open now, until it closes), or always for
 * this workspace (remembered in workspace state). Closing the modal refuses; the server then gets an
 * MCP error. The request and its answer are events in the chat's stream like every other step.
 */
import * as vscode from 'vscode';
import type { SamplingRequest } from '../../agent/messages';
import type { SamplingPermission } from '../../mcp/clientFeatures';
import { quotedName } from '../../agent/nameText';

const WORKSPACE_KEY = 'sprout.sampling.allowedServers';
const ONCE = 'Allow Once';
const CHAT = 'Allow in This Chat';
const WORKSPACE = 'Always Allow in This Workspace';

/** How the permission is asked: VS Code's modal by default; extension-host tests play the user through the API. */
export type SamplingAsk = (message: string, detail: string, choices: string[]) => Thenable<string | undefined>;

export const askSamplingModal: SamplingAsk = (message, detail, choices) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices);

export class SamplingBroker implements SamplingPermission {
  readonly by = 'user' as const;
  /** Servers allowed for a chat, keyed by the chat (its view state), so a closed chat's allowances go with it. */
  private readonly inChat = new WeakMap<object, Set<string>>();

  constructor(
    private readonly state: vscode.Memento,
    /** The chat open now (undefined while chats switch): "in this chat" is about it. */
    private readonly chat: () => object | undefined,
    /** Read at each request, so a replaced asker applies at once. */
    private readonly ask: () => SamplingAsk = () => askSamplingModal,
  ) {}

  async allow(request: SamplingRequest, signal: AbortSignal): Promise<boolean> {
    const chat = this.chat();
    if (this.workspaceServers().includes(request.server) || (chat !== undefined && this.inChat.get(chat)?.has(request.server) === true)) return true;
    if (signal.aborted) return false;
    const choices = chat === undefined ? [ONCE, WORKSPACE] : [ONCE, CHAT, WORKSPACE];
    const choice = await this.ask()(`The MCP server ${quotedName(request.server)} asks to use the chat's model.`, samplingDetail(request), choices);
    if (signal.aborted || choice === undefined) return false;
    if (choice === CHAT && chat !== undefined) this.inChat.set(chat, new Set([...(this.inChat.get(chat) ?? []), request.server]));
    if (choice === WORKSPACE) await this.state.update(WORKSPACE_KEY, [...new Set([...this.workspaceServers(), request.server])]);
    return true;
  }

  private workspaceServers(): string[] {
    const value = this.state.get<unknown>(WORKSPACE_KEY);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }
}

/** What the modal shows: the server's first message (shortened) and the token limit, with the cap. */
export function samplingDetail(request: SamplingRequest): string {
  const first = request.messages[0]?.text ?? '';
  const shown = first.length > 400 ? `${first.slice(0, 400)}…` : first;
  const limit = request.cappedTo === undefined ? `up to ${request.maxTokens} tokens` : `up to ${request.cappedTo} tokens (it asked for ${request.maxTokens}; capped)`;
  return `It sends ${request.messages.length} message${request.messages.length === 1 ? '' : 's'} for one reply, ${limit}, without tools.\n\n${shown}`;
}
