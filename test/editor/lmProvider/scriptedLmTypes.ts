/**
 * What the ScriptedLmProvider fixture extension exports (its `activate` result), shared as types with
 * the suites that drive it. Plain data only, so this file imports nothing.
 */

/** One reply of the scripted model, used in order; with none left it answers "Scripted reply to: <last user text>". */
export type ScriptedLmReply =
  /** Text streamed in `chunks` pieces (default 3). */
  | { kind: 'text'; text: string; chunks?: number }
  /** Optional text, then one tool call per entry. */
  | { kind: 'toolCalls'; text?: string; calls: { name: string; input: Record<string, unknown>; callId?: string }[] }
  /** Thrown from the provider: a LanguageModelError by code, or a plain Error. */
  | { kind: 'error'; code: 'NoPermissions' | 'Blocked' | 'NotFound' | 'plain'; message: string }
  /** Streams `text`, then waits until the request is cancelled. */
  | { kind: 'hang'; text?: string };

export type RecordedLmPart =
  | { kind: 'text'; value: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; text: string }
  /** A LanguageModelDataPart: its MIME type and byte count. */
  | { kind: 'data'; mimeType: string; bytes: number }
  | { kind: 'other' };

export interface RecordedLmRequest {
  model: string;
  messages: { role: 'user' | 'assistant' | 'other'; parts: RecordedLmPart[] }[];
  /** Names of the tools offered with the request. */
  tools: string[];
  /** Set once the request's cancellation token fired. */
  cancelled: boolean;
  /** Set once the reply was given in full (or thrown). */
  done: boolean;
}

export interface ScriptedLmModel {
  id: string;
  name: string;
  family: string;
  maxInputTokens: number;
  /** What its token counter answers: characters per token (the small model's tokenizer is dense, so only its own count shows how full a request is). */
  charsPerToken: number;
  /** Takes images; one that does not refuses a request with an image part in Copilot's words ("not supported for vision"). */
  imageInput: boolean;
}

export interface ScriptedLmProviderApi {
  readonly vendor: string;
  readonly models: readonly ScriptedLmModel[];
  /** Queues replies (after any still queued). */
  script(replies: ScriptedLmReply[]): void;
  /** Every request so far, oldest first. */
  readonly requests: RecordedLmRequest[];
  /** How many times VS Code asked the provider to count tokens. */
  readonly tokenCounts: number;
  /** Offers only the models with these ids from now on (VS Code is told the list changed); undefined offers all. */
  offerOnly(ids: string[] | undefined): void;
  /** Forgets the script, the requests and the counts, and offers every model again. */
  reset(): void;
}

export const SCRIPTED_LM_EXTENSION_ID = 'sprout-test.scripted-lm-provider';
export const SCRIPTED_LM_VENDOR = 'sprout-test';
/** JSON array of ScriptedLmReply queued at activation. */
export const SCRIPTED_LM_SCRIPT_ENV = 'SPROUT_TEST_LM_SCRIPT';
