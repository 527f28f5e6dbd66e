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

/**
 * An image in a message (a screenshot the user attached, an image a tool returned): checked by
 * imageParts.ts (a type models take, under the caps) before it joins a message. `content` stays the
 * message's text, so everything that reads text reads it as before; the model layer maps the images.
 */
export interface ImagePart {
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`, as read from the bytes. */
  mimeType: string;
  /** The bytes, base64 (no `data:` prefix). */
  data: string;
  /** What the user and the model call it: the file's name, `pasted image 1.png`, `image 1 from browser__screenshot`. */
  name: string;
  /** Pixels, read from the image's header when it says: the token estimate goes by them. */
  width?: number;
  height?: number;
}

/** A Chat Completions message in our own shape; the model adapter maps it to the wire format. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ImagePart[] }
  /** `reasoning` is the model's thinking text, never part of the answer; kept for providers that need it back. */
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[]; reasoning?: string }
  /** `images`: what the tool returned besides text (Chat Completions takes them in a user message after the tool messages). */
  | { role: 'tool'; toolCallId: string; content: string; images?: ImagePart[] };

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

/** A tool result flattened to text (non-text blocks described as `[image: mime, N bytes]`), its images beside it. */
export interface ToolCallResult {
  isError: boolean;
  text: string;
  /** The result's image blocks, unchecked (untrusted: the core checks them before they join the history). */
  images?: ImagePart[];
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

/**
 * A server's request for a model reply (MCP `sampling/createMessage`), text only. `maxTokens` is what the
 * server asked; `cappedTo` is set when Sprout lowered it to its cap. `modelHints` are the server's
 * `modelPreferences` hints (recorded: the chat's model answers).
 */
export interface SamplingRequest {
  id: string;
  server: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
  systemPrompt?: string;
  maxTokens: number;
  cappedTo?: number;
  modelHints?: string[];
}

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

export interface ElicitationAnswer {
  action: ElicitationAction;
  /** The answers, for `accept` only; valid against the requested schema. */
  content?: Record<string, string | number | boolean | string[]>;
}
