/**
 * ScriptedModelClient: a ModelClient that plays a script of replies, one per call, and records every
 * request. Like the real API it rejects a request whose history breaks OpenAI's tool-call rules
 * (a `bad_request` ModelError), so a loop bug that corrupts history fails the test that caused it.
 */
import { validateHistory } from '../../src/agent/historyValidity';
import { ModelError, type ModelCallOptions, type ModelClient, type ModelReply, type ModelRequest } from '../../src/agent/ports';
import type { ChatMessage, ToolCall, Usage } from '../../src/agent/messages';

export type ScriptStep = Partial<ModelReply> | Error | ((request: ModelRequest, options: ModelCallOptions) => Promise<ModelReply>);

let callCounter = 0;

export function call(name: string, args: unknown = {}, id?: string): ToolCall {
  callCounter += 1;
  return { id: id ?? `call_${callCounter}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

export const reply = {
  text: (content: string, finishReason = 'stop', usage: Usage | null = null): Partial<ModelReply> => ({ content, finishReason, usage }),
  tools: (...toolCalls: ToolCall[]): Partial<ModelReply> => ({ content: null, toolCalls, finishReason: 'tool_calls' }),
  /** Streams `deltas`, then waits until the call is aborted and rejects as the adapter does. */
  hang:
    (...deltas: string[]) =>
    (_request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> =>
      new Promise((_resolve, reject) => {
        for (const d of deltas) options.onTextDelta?.(d);
        const fail = (): void => reject(new ModelError('cancelled', 'cancelled'));
        if (options.signal.aborted) fail();
        options.signal.addEventListener('abort', fail, { once: true });
      }),
};

export class ScriptedModelClient implements ModelClient {
  readonly requests: ModelRequest[] = [];
  private readonly script: ScriptStep[];

  constructor(script: ScriptStep[]) {
    this.script = [...script];
  }

  push(...steps: ScriptStep[]): void {
    this.script.push(...steps);
  }

  get remaining(): number {
    return this.script.length;
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const copy: ModelRequest = { ...request, messages: structuredClone([...request.messages]) as ChatMessage[], tools: [...request.tools] };
    this.requests.push(copy);
    const problems = validateHistory(request.messages.filter((m) => m.role !== 'system'));
    if (problems.length > 0) throw new ModelError('bad_request', `400 invalid messages: ${problems.map((p) => p.problem).join('; ')}`, 400);
    const step = this.script.shift();
    if (step === undefined) throw new Error(`ScriptedModelClient: script exhausted at request ${this.requests.length}`);
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(request, options);
    if (step.content) options.onTextDelta?.(step.content);
    return { content: step.content ?? null, toolCalls: step.toolCalls ?? [], finishReason: step.finishReason ?? 'stop', usage: step.usage ?? null };
  }
}
