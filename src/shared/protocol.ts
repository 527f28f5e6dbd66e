/**
 * The host <-> webview protocol: one zod discriminated union per direction, parsed with `safeParse` at
 * both ends so a malformed message is dropped and logged, never acted on. The host owns the chat state:
 * it answers `ready` with a whole `snapshot`, then sends incremental messages (`entry` appends or
 * replaces one entry by id, `delta` appends streamed text). The webview only renders and reports
 * what the user did. Host-neutral: no vscode, no DOM, no Node. Written with `zod/mini` (the functional,
 * tree-shakable API): the webview bundles only the validators used here, not the whole of zod.
 */
import * as z from 'zod/mini';

export const toolStatusSchema = z.enum(['running', 'awaiting_approval', 'ok', 'error', 'denied', 'cancelled']);
export type ToolStatus = z.infer<typeof toolStatusSchema>;

export const approvalScopeSchema = z.enum(['once', 'chat', 'workspace']);
export type ApprovalScope = z.infer<typeof approvalScopeSchema>;

const objectionSchema = z.object({ server: z.string(), text: z.string() });

export const unresolvedCauseSchema = z.enum(['budget_exhausted', 'declined', 'max_rounds']);
export type UnresolvedCauseName = z.infer<typeof unresolvedCauseSchema>;

export const chatEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), text: z.string() }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string(), done: z.boolean() }),
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    name: z.string(),
    args: z.string(),
    status: toolStatusSchema,
    result: z.optional(z.string()),
    approvalId: z.optional(z.string()),
    /** While awaiting approval: the answers offered (all when absent) and a warning to show first. */
    approvalScopes: z.optional(z.array(approvalScopeSchema)),
    approvalWarning: z.optional(z.string()),
  }),
  z.object({ kind: z.literal('objection'), id: z.string(), server: z.string(), text: z.string(), used: z.number(), max: z.number() }),
  z.object({
    kind: z.literal('hookEvent'),
    id: z.string(),
    level: z.enum(['info', 'warning', 'error']),
    text: z.string(),
  }),
  z.object({
    kind: z.literal('compaction'),
    id: z.string(),
    trigger: z.enum(['auto', 'manual']),
    summary: z.nullable(z.string()),
    injected: z.array(objectionSchema),
    fallback: z.boolean(),
    droppedMessages: z.number(),
  }),
  z.object({
    kind: z.literal('outcome'),
    id: z.string(),
    reason: z.string(),
    message: z.optional(z.string()),
    unresolved: z.optional(z.object({ cause: unresolvedCauseSchema, objections: z.array(objectionSchema) })),
  }),
]);
export type ChatEntry = z.infer<typeof chatEntrySchema>;

export const chatSummarySchema = z.object({ id: z.string(), title: z.string(), updatedAt: z.number() });
export type ChatSummary = z.infer<typeof chatSummarySchema>;

export const setupSchema = z.object({ reason: z.string(), needsKey: z.boolean(), needsModel: z.boolean() });
export type SetupInfo = z.infer<typeof setupSchema>;

export const chatStateSchema = z.object({
  chatId: z.string(),
  entries: z.array(chatEntrySchema),
  running: z.boolean(),
  draft: z.string(),
  history: z.array(chatSummarySchema),
  setup: z.nullable(setupSchema),
  notice: z.nullable(z.string()),
  budget: z.string(),
});
export type ChatState = z.infer<typeof chatStateSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), state: chatStateSchema }),
  z.object({ type: z.literal('entry'), entry: chatEntrySchema }),
  z.object({ type: z.literal('delta'), id: z.string(), text: z.string() }),
  z.object({ type: z.literal('running'), running: z.boolean() }),
  z.object({ type: z.literal('history'), history: z.array(chatSummarySchema) }),
  z.object({ type: z.literal('setup'), setup: z.nullable(setupSchema) }),
  z.object({ type: z.literal('notice'), notice: z.nullable(z.string()) }),
  z.object({ type: z.literal('budget'), budget: z.string() }),
  z.object({ type: z.literal('focusInput'), text: z.optional(z.string()) }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('send'), text: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('openChat'), chatId: z.string() }),
  z.object({ type: z.literal('approve'), approvalId: z.string(), scope: approvalScopeSchema }),
  z.object({ type: z.literal('deny'), approvalId: z.string() }),
  z.object({ type: z.literal('continueAnyway') }),
  z.object({ type: z.literal('draft'), text: z.string() }),
  z.object({ type: z.literal('setup'), action: z.enum(['setApiKey', 'setBaseUrl', 'selectModel']) }),
  z.object({ type: z.literal('copy'), text: z.string() }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** Compile-time exhaustiveness for the switches over these unions. */
export function assertNever(value: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(value)}`);
}
