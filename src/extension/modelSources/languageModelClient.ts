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
import { ModelError, type Logger, type ModelCallOptions, type ModelClient, type ModelReply, type ModelRequest } from '../../agent/ports';
import type { Usage } from '../../agent/messages';
import { modelLabel, type LanguageModels } from './languageModels';
import { classifyLmError, LmReplyBuilder, toLmMessages, toLmTools, type LmMessage, type LmPart } from './lmMapping';
import { TokenTally, type CountTokens } from './tokenTally';

export const LM_JUSTIFICATION = 'Sprout Agent sends your prompt, the chat so far and the results of its tools to this model, so it can work on your request.';

function toVsPart(part: LmPart): vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart {
  switch (part.kind) {
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

function cancelled(): ModelError {
  return new ModelError('cancelled', 'The model call was cancelled.');
}

export interface LanguageModelClientOptions {
  models: LanguageModels;
  logger?: Logger;
  /** Shown in VS Code's consent dialog. */
  justification?: string;
}

export class LanguageModelClient implements ModelClient {
  private readonly tally = new TokenTally();
  private countingFailed = false;

  constructor(private readonly options: LanguageModelClientOptions) {}

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const { signal } = options;
    if (signal.aborted) throw cancelled();
    const model = await this.options.models.resolve(request.model);
    if (signal.aborted) throw cancelled();
    const source = new vscode.CancellationTokenSource();
    const stopForwarding = onAbort(signal, () => source.cancel());
    try {
      const count: CountTokens = (text) => model.countTokens(text, source.token);
      const prompt = this.tally.promptTokens(request.model, count, request);
      // Counting runs beside the request; a failure there must not become an unhandled rejection.
      prompt.catch(() => undefined);
      const response = await model.sendRequest(
        toVsMessages(toLmMessages(request.messages)),
        {
          justification: this.options.justification ?? LM_JUSTIFICATION,
          ...(request.tools.length > 0 ? { tools: toLmTools(request.tools) } : {}),
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
      return builder.reply(await this.usage(request.model, count, prompt, builder));
    } catch (error) {
      if (signal.aborted) throw cancelled();
      throw this.failure(error, modelLabel(model));
    } finally {
      stopForwarding();
      source.dispose();
    }
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
