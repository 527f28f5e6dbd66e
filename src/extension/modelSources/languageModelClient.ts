/**
 * The ModelClient port over VS Code's Language Model API: one `sendRequest` per `complete`, to the
 * model `request.model` names as `vendor/id`, with the MCP tools as LanguageModelChatTools (the core
 * never puts hooks among them). Text parts stream into `onTextDelta` as they arrive, tool-call parts
 * become the reply's calls, and the prompt's AbortSignal cancels the request's CancellationToken.
 *
 * No retries here: the provider extension (Copilot, say) retries its own transport, and a second
 * request could show the consent dialog twice. The API reports no usage, so the reply's usage is
 * counted with the model's tokenizer (TokenTally); a provider that cannot count leaves it null.
 * The first request of the extension may show VS Code's consent dialog, which is why requests are
 * only made for a prompt the user sent.
 */
import * as vscode from 'vscode';
import { onAbort } from '../../agent/cancellation';
import { errorMessage } from '../../agent/errorMessage';
import { ModelError, type Logger, type ModelCallOptions, type ModelClient, type ModelConversation, type ModelReply, type ModelRequest } from '../../agent/ports';
import type { Usage } from '../../agent/messages';
import { modelLabel, type LanguageModels } from './languageModels';
import { classifyLmError, LmReplyBuilder, toLmMessages, toLmTools, type LmMessage, type LmPart } from './lmMapping';
import { TokenTally, type CountTokens } from './tokenTally';
import { imagesOf } from '../../agent/imageParts';
import type { AdaptationMemory } from '../../model/adaptationMemory';
import type { LmImageMode } from './lmImages';
import { LmImageLessons } from './lmImageLessons';
import { namesOf } from '../../model/wire';
import { WireNames } from '../../model/wireNames';
import { toolCountError } from '../../model/toolCountRefusal';

export const LM_JUSTIFICATION = 'Sprout Agent sends your prompt, the chat so far and the results of its tools to this model, so it can work on your request.';

/**
 * LanguageModelDataPart, finalised in VS Code 1.106: newer than the engine Sprout declares, so looked
 * up at run time (lmImageLessons.ts sends notes where it is missing).
 */
const DataPart = (vscode as unknown as { LanguageModelDataPart?: { image(data: Uint8Array, mimeType: string): vscode.LanguageModelTextPart } }).LanguageModelDataPart;

function toVsPart(part: LmPart): vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart {
  switch (part.kind) {
    case 'image':
      // Only reached with DataPart present: without it every image is a note (LmImageLessons).
      return DataPart ? DataPart.image(Buffer.from(part.data, 'base64'), part.mimeType) : new vscode.LanguageModelTextPart('[image not sent]');
    case 'text':
      return new vscode.LanguageModelTextPart(part.value);
    case 'toolCall':
      return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
    case 'toolResult':
      return new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)]);
  }
}

export function toVsMessages(messages: readonly LmMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map(
    (message) =>
      new vscode.LanguageModelChatMessage(
        message.role === 'user' ? vscode.LanguageModelChatMessageRole.User : vscode.LanguageModelChatMessageRole.Assistant,
        message.parts.map(toVsPart),
      ),
  );
}

/** The provider's own words, kept on the ModelError a failure becomes (its message is Sprout's). */
const SAID = Symbol('said');

function rawText(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${errorMessage(error)}${cause}`;
}

function saidOf(error: ModelError): string {
  const said = (error as ModelError & { [SAID]?: string })[SAID];
  return said ?? error.message;
}

function cancelled(): ModelError {
  return new ModelError('cancelled', 'The model call was cancelled.');
}

export interface LanguageModelClientOptions {
  models: LanguageModels;
  logger?: Logger;
  /** Shown in VS Code's consent dialog. */
  justification?: string;
  /** Where the models that refused images are remembered (the endpoint client's memory). */
  memory?: AdaptationMemory;
}

export class LanguageModelClient implements ModelClient {
  private readonly tally = new TokenTally();
  /**
   * Each conversation's tool aliases. VS Code's models are served by providers (Copilot, say) that hand
   * the tools on to OpenAI- and Anthropic-style APIs, so the names follow OpenAI's rule.
   */
  private readonly names = new WeakMap<ModelConversation, WireNames>();
  private countingFailed = false;
  private readonly images: LmImageLessons;

  constructor(private readonly options: LanguageModelClientOptions) {
    this.images = new LmImageLessons(options.memory, DataPart !== undefined);
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const { signal } = options;
    if (signal.aborted) throw cancelled();
    const model = await this.options.models.resolve(request.model);
    if (signal.aborted) throw cancelled();
    const withImages = request.messages.some((m) => imagesOf(m).length > 0);
    const mode = this.images.mode(request.model, options, withImages);
    let shown = false;
    const watched: ModelCallOptions = { ...options, onTextDelta: (delta) => ((shown = true), options.onTextDelta?.(delta)) };
    try {
      return await this.send(model, request, watched, mode);
    } catch (error) {
      // A model that refuses images is told once and asked again at once (nothing of its answer was shown), with notes in their place.
      const said = error instanceof ModelError && error.kind !== 'cancelled' ? saidOf(error) : undefined;
      if (mode === 'parts' && withImages && !shown && said !== undefined && this.images.learn(request.model, said, options)) {
        return await this.send(model, request, options, 'note');
      }
      throw error;
    }
  }

  private async send(model: vscode.LanguageModelChat, request: ModelRequest, options: ModelCallOptions, images: LmImageMode): Promise<ModelReply> {
    const { signal } = options;
    const source = new vscode.CancellationTokenSource();
    const stopForwarding = onAbort(signal, () => source.cancel());
    try {
      const count: CountTokens = (text) => model.countTokens(text, source.token);
      const names = this.namesOf(options.conversation);
      names.claim(namesOf(request));
      const alias = (name: string): string => names.wire(name);
      const prompt = this.tally.promptTokens(request.model, count, request);
      // Counting runs beside the request; a failure there must not become an unhandled rejection.
      prompt.catch(() => undefined);
      const response = await model.sendRequest(
        toVsMessages(toLmMessages(request.messages, images, alias)),
        {
          justification: this.options.justification ?? LM_JUSTIFICATION,
          ...(request.tools.length > 0 ? { tools: toLmTools(request.tools, alias) } : {}),
        },
        source.token,
      );
      const builder = new LmReplyBuilder();
      for await (const part of response.stream) {
        if (signal.aborted) break;
        if (part instanceof vscode.LanguageModelTextPart) {
          builder.addText(part.value);
          options.onTextDelta?.(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          builder.addToolCall(part.callId, part.name, part.input);
        }
      }
      if (signal.aborted) throw cancelled();
      return builder.reply(await this.usage(request.model, count, prompt, builder), (wire) => names.real(wire));
    } catch (error) {
      if (signal.aborted) throw cancelled();
      const said = rawText(error);
      const failure = toolCountError(said, request.tools.map((t) => t.name), `The model ${modelLabel(model)}`) ?? this.failure(error, modelLabel(model));
      throw Object.assign(failure, { [SAID]: said });
    } finally {
      stopForwarding();
      source.dispose();
    }
  }

  private namesOf(conversation: ModelConversation | undefined): WireNames {
    if (conversation === undefined) return new WireNames('openai');
    let names = this.names.get(conversation);
    if (names === undefined) this.names.set(conversation, (names = new WireNames('openai')));
    return names;
  }

  private async usage(model: string, count: CountTokens, prompt: Promise<number>, builder: LmReplyBuilder): Promise<Usage | null> {
    try {
      return await this.tally.usage(model, count, prompt, builder);
    } catch (error) {
      if (!this.countingFailed) this.options.logger?.warn(`could not count tokens with ${model}; compaction estimates from characters`, { message: errorMessage(error) });
      this.countingFailed = true;
      return null;
    }
  }

  private failure(error: unknown, model: string): ModelError {
    if (error instanceof ModelError) return error;
    if (error instanceof vscode.CancellationError) return cancelled();
    const code = error instanceof vscode.LanguageModelError ? error.code : undefined;
    const message = error instanceof vscode.LanguageModelError && error.cause instanceof Error ? `${errorMessage(error)}: ${error.cause.message}` : errorMessage(error);
    this.options.logger?.warn('language model request failed', { model, code: code ?? 'none', message });
    return classifyLmError({ ...(code === undefined ? {} : { code }), message }, model);
  }
}
