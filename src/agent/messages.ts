/**
 * The conversation's vocabulary: chat messages in the core's own shape (the model adapter maps them to
 * the wire), tool calls, usage, and the tools MCP servers offer. Plain data, so it crosses process
 * boundaries (webview, JSON lines) unchanged.
 */

/** One tool call as the model emitted it (`arguments` is the raw JSON text). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  /**
   * Opaque data the provider attached to this call and wants back verbatim with it (Gemini's
   * `extra_content` holding the thought signature). The model adapter decides whether it is sent back.
   */
  providerData?: Record<string, unknown>;
}

/** A Chat Completions message in our own shape; the model adapter maps it to the wire format. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  /** `reasoning` is the model's thinking text, never part of the answer; kept for providers that need it back. */
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[]; reasoning?: string }
  | { role: 'tool'; toolCallId: string; content: string };

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Set when the endpoint reported no usage and the adapter estimated it from the sizes sent and received. */
  estimated?: boolean;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool of a connected MCP server. Hooks (bare name starting with `_`) are listed too, flagged. */
export interface ToolInfo {
  server: string;
  bareName: string;
  /** `<server>__<bare>` */
  qualifiedName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  isHook: boolean;
  /** MCP `execution.taskSupport`: the tool runs as a task (`required`) or may (`optional`). */
  taskSupport?: 'optional' | 'required';
}

/** A tool result flattened to text (non-text blocks described as `[image: mime, N bytes]`). */
export interface ToolCallResult {
  isError: boolean;
  text: string;
  /** The result's `structuredContent`, as the server sent it (untrusted; hooks' is read by hookEvidence). */
  structured?: unknown;
}

/** A question a server asks the user (MCP elicitation, form mode): `schema` is the flat requested schema. */
export interface ElicitationRequest {
  id: string;
  server: string;
  message: string;
  schema: Record<string, unknown>;
}

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

export interface ElicitationAnswer {
  action: ElicitationAction;
  /** The answers, for `accept` only; valid against the requested schema. */
  content?: Record<string, string | number | boolean | string[]>;
}
