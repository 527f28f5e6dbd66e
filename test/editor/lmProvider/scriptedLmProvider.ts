/**
 * ScriptedLmProvider: a test-only extension that registers chat models with VS Code's Language Model
 * API (`vscode.lm.registerLanguageModelChatProvider`, contributed as vendor `sprout-test`), answers
 * each request with the next scripted reply (text, tool calls, an error, or a stream that hangs until
 * cancelled) and records what every request carried. The suites reach it through its exports, or
 * script it with SPROUT_TEST_LM_SCRIPT (JSON replies) in the extension host's environment.
 *
 * The provider API is newer than the `@types/vscode` Sprout builds against (it needs only the consumer
 * half), so the few provider types used here are declared locally.
 */
import * as vscode from 'vscode';
import { SCRIPTED_LM_SCRIPT_ENV, SCRIPTED_LM_VENDOR, type RecordedLmPart, type RecordedLmRequest, type ScriptedLmModel, type ScriptedLmProviderApi, type ScriptedLmReply } from './scriptedLmTypes';

interface ChatInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly toolCalling?: boolean | number; readonly imageInput?: boolean };
}

interface RequestMessage {
  readonly role: vscode.LanguageModelChatMessageRole;
  readonly content: readonly unknown[];
}

interface ChatProvider {
  readonly onDidChangeLanguageModelChatInformation?: vscode.Event<void>;
  provideLanguageModelChatInformation(options: { readonly silent: boolean }, token: vscode.CancellationToken): vscode.ProviderResult<ChatInformation[]>;
  provideLanguageModelChatResponse(
    model: ChatInformation,
    messages: readonly RequestMessage[],
    options: { readonly tools?: readonly vscode.LanguageModelChatTool[] },
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Thenable<void>;
  provideTokenCount(model: ChatInformation, text: string | RequestMessage, token: vscode.CancellationToken): Thenable<number>;
}

const lm = vscode.lm as typeof vscode.lm & { registerLanguageModelChatProvider(vendor: string, provider: ChatProvider): vscode.Disposable };

const MODELS: ScriptedLmModel[] = [
  { id: 'scripted', name: 'Scripted Model', family: 'scripted', maxInputTokens: 100_000, charsPerToken: 4, imageInput: true },
  { id: 'scripted-small', name: 'Scripted Small Model', family: 'scripted-small', maxInputTokens: 3_000, charsPerToken: 2, imageInput: true },
  { id: 'scripted-text-only', name: 'Scripted Text-Only Model', family: 'scripted-text-only', maxInputTokens: 100_000, charsPerToken: 4, imageInput: false },
];

/** A LanguageModelDataPart, told by its shape (the class is newer than the types this fixture builds against). */
function dataPart(part: unknown): { mimeType: string; data: Uint8Array } | undefined {
  const p = part as { mimeType?: unknown; data?: unknown } | null;
  return typeof p?.mimeType === 'string' && p.data instanceof Uint8Array ? { mimeType: p.mimeType, data: p.data } : undefined;
}

function textOf(parts: readonly unknown[]): string {
  return parts.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

function record(part: unknown): RecordedLmPart {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', value: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return { kind: 'toolResult', callId: part.callId, text: textOf(part.content) };
  const data = dataPart(part);
  if (data) return { kind: 'data', mimeType: data.mimeType, bytes: data.data.length };
  return { kind: 'other' };
}

function roleOf(role: vscode.LanguageModelChatMessageRole): 'user' | 'assistant' | 'other' {
  if (role === vscode.LanguageModelChatMessageRole.User) return 'user';
  return role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'other';
}

function thrown(reply: Extract<ScriptedLmReply, { kind: 'error' }>): Error {
  if (reply.code === 'plain') return new Error(reply.message);
  return vscode.LanguageModelError[reply.code](reply.message);
}

function pieces(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

class ScriptedProvider implements ChatProvider, ScriptedLmProviderApi {
  readonly vendor = SCRIPTED_LM_VENDOR;
  readonly models = MODELS;
  readonly requests: RecordedLmRequest[] = [];
  tokenCounts = 0;
  private queue: ScriptedLmReply[] = [];
  private offered: string[] | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  script(replies: ScriptedLmReply[]): void {
    this.queue.push(...replies);
  }

  offerOnly(ids: string[] | undefined): void {
    this.offered = ids;
    this.changed.fire();
  }

  reset(): void {
    this.queue = [];
    this.requests.length = 0;
    this.tokenCounts = 0;
    if (this.offered !== undefined) this.offerOnly(undefined);
  }

  provideLanguageModelChatInformation(): ChatInformation[] {
    return MODELS.filter((m) => this.offered === undefined || this.offered.includes(m.id)).map(({ id, name, family, maxInputTokens, imageInput }) => ({
      id,
      name,
      family,
      maxInputTokens,
      version: '1',
      maxOutputTokens: 4096,
      capabilities: { toolCalling: true, imageInput },
    }));
  }

  async provideLanguageModelChatResponse(
    model: ChatInformation,
    messages: readonly RequestMessage[],
    options: { readonly tools?: readonly vscode.LanguageModelChatTool[] },
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const request: RecordedLmRequest = {
      model: model.id,
      messages: messages.map((m) => ({ role: roleOf(m.role), parts: m.content.map(record) })),
      tools: (options.tools ?? []).map((t) => t.name),
      cancelled: false,
      done: false,
    };
    this.requests.push(request);
    if (MODELS.find((m) => m.id === model.id)?.imageInput === false && messages.some((m) => m.content.some((part) => dataPart(part) !== undefined))) {
      request.done = true;
      // Copilot's provider refusing an image for a model without vision.
      throw new Error(`Request Failed: 400 {"error":{"message":"model \\"${model.id}\\" not supported for vision","code":""}}`);
    }
    const cancelled = new Promise<void>((resolve) => token.onCancellationRequested(() => ((request.cancelled = true), resolve())));
    try {
      await this.answer(this.queue.shift() ?? this.echo(messages), progress, cancelled);
    } finally {
      request.done = true;
    }
  }

  private echo(messages: readonly RequestMessage[]): ScriptedLmReply {
    const lastUser = [...messages].reverse().find((m) => m.role === vscode.LanguageModelChatMessageRole.User && textOf(m.content) !== '');
    return { kind: 'text', text: `Scripted reply to: ${textOf(lastUser?.content ?? []).slice(0, 200)}` };
  }

  private async answer(reply: ScriptedLmReply, progress: vscode.Progress<unknown>, cancelled: Promise<void>): Promise<void> {
    switch (reply.kind) {
      case 'text':
        for (const piece of pieces(reply.text, reply.chunks ?? 3)) progress.report(new vscode.LanguageModelTextPart(piece));
        return;
      case 'toolCalls':
        if (reply.text) progress.report(new vscode.LanguageModelTextPart(reply.text));
        reply.calls.forEach((call, i) => progress.report(new vscode.LanguageModelToolCallPart(call.callId ?? `scripted-call-${this.requests.length}-${i}`, call.name, call.input)));
        return;
      case 'error':
        throw thrown(reply);
      case 'hang':
        if (reply.text) progress.report(new vscode.LanguageModelTextPart(reply.text));
        await cancelled;
        return;
    }
  }

  async provideTokenCount(model: ChatInformation, text: string | RequestMessage): Promise<number> {
    this.tokenCounts += 1;
    const perToken = MODELS.find((m) => m.id === model.id)?.charsPerToken ?? 4;
    return Math.ceil((typeof text === 'string' ? text : textOf(text.content)).length / perToken);
  }
}

export function activate(context: vscode.ExtensionContext): ScriptedLmProviderApi {
  const provider = new ScriptedProvider();
  // A suite that cannot reach the exports (e2e drives a browser) scripts the replies through the environment.
  const script = process.env[SCRIPTED_LM_SCRIPT_ENV];
  if (script) provider.script(JSON.parse(script) as ScriptedLmReply[]);
  context.subscriptions.push(lm.registerLanguageModelChatProvider(SCRIPTED_LM_VENDOR, provider));
  return provider;
}
