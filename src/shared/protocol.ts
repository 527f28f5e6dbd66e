/**
 * The host <-> webview protocol: one zod discriminated union per direction, parsed with `safeParse` at
 * both ends so a malformed message is dropped and logged, never acted on. The host owns the chat state:
 * it answers `ready` with a whole `snapshot`, then sends incremental messages (`entry` appends or
 * replaces one entry by id, `delta` appends streamed text to an open answer or thinking entry). The webview only renders and reports
 * what the user did. Host-neutral: no vscode, no DOM, no Node. Written with `zod/mini` (the functional,
 * tree-shakable API): the webview bundles only the validators used here, not the whole of zod.
 */
import * as z from 'zod/mini';
import { COMPLETED_MENTIONS } from './mentions';

export const toolStatusSchema = z.enum(['running', 'awaiting_approval', 'ok', 'error', 'denied', 'cancelled']);
export type ToolStatus = z.infer<typeof toolStatusSchema>;

export const approvalScopeSchema = z.enum(['once', 'chat', 'workspace', 'rule']);
/** The composer's mode picker (the core's modes: src/agent/modes.ts). */
export const chatModeSchema = z.enum(['agent', 'ask', 'plan']);
export type ChatMode = z.infer<typeof chatModeSchema>;
export type ApprovalScope = z.infer<typeof approvalScopeSchema>;

/** A failing test (or other finding) a hook attached to its objection; `file` relative to the workspace or absolute. */
export const failureSchema = z.object({ name: z.string(), file: z.optional(z.string()), line: z.optional(z.number()), message: z.string(), package: z.optional(z.string()) });
export type FailureView = z.infer<typeof failureSchema>;

/** What one server's hook said (injected context, or an objection still standing). */
const hookReplySchema = z.object({ server: z.string(), text: z.string(), failures: z.optional(z.array(failureSchema)) });

/** A running tool's last progress report, as the server sent it (progressText words it). */
export const toolProgressSchema = z.object({ progress: z.optional(z.number()), total: z.optional(z.number()), message: z.optional(z.string()) });
export type ToolProgressInfo = z.infer<typeof toolProgressSchema>;

export const elicitationActionSchema = z.enum(['accept', 'decline', 'cancel']);
export const elicitationStatusSchema = z.enum(['pending', 'accept', 'decline', 'cancel', 'withdrawn']);
export type ElicitationStatus = z.infer<typeof elicitationStatusSchema>;

export const unresolvedCauseSchema = z.enum(['budget_exhausted', 'declined', 'max_rounds']);
export type UnresolvedCauseName = z.infer<typeof unresolvedCauseSchema>;

/** Why a prompt ended (the core's OutcomeReason; the host's mapping fails to compile if they part). */
export const outcomeReasonSchema = z.enum(['end_turn', 'max_rounds', 'cancelled', 'error', 'length', 'content_filter']);
export type OutcomeReasonName = z.infer<typeof outcomeReasonSchema>;

/** What became of a hook's objection: still standing, acted on, ended over, or let go because the budget was spent. */
export const objectionOutcomeSchema = z.enum(['pending', 'complied', 'declined', 'overridden']);
export type ObjectionOutcome = z.infer<typeof objectionOutcomeSchema>;

/** A hook call that passed quietly in a turn (shown in the turn's footer, not as an entry of its own); `calls` of it (1 when absent), `durationMs` the longest. */
export const hookCheckSchema = z.object({ server: z.string(), hook: z.string(), durationMs: z.number(), calls: z.optional(z.number()) });
export type HookCheck = z.infer<typeof hookCheckSchema>;

/** A file the user attached to a prompt (the whole file, or lines of it); the host reads it when the prompt is sent. */
export const attachmentSchema = z.object({
  path: z.string().check(z.minLength(1)),
  label: z.string(),
  startLine: z.optional(z.number()),
  endLine: z.optional(z.number()),
});
export type AttachmentRef = z.infer<typeof attachmentSchema>;

/** An image of a prompt as the chat shows it: its name and its bytes (base64), for a thumbnail. */
export const imageViewSchema = z.object({ name: z.string(), mimeType: z.string(), data: z.string() });
export type ImageView = z.infer<typeof imageViewSchema>;

/** An image the user pasted, dropped or picked, before the host checked it: its name and bytes (base64). */
export const imageInputSchema = z.object({ name: z.string(), data: z.string().check(z.minLength(1)) });
export type ImageInput = z.infer<typeof imageInputSchema>;

/** The tokens the last model call used, against the model's context window. */
/** `sampled`: tokens the chat's model spent answering MCP servers' sampling requests in this chat (not in its context). */
export const contextUsageSchema = z.object({ used: z.number(), window: z.number(), estimated: z.boolean(), sampled: z.optional(z.number()) });
export type ContextUsage = z.infer<typeof contextUsageSchema>;

/** The hooks in one line for the chat's header and empty state; `state` picks the icon. */
export const hooksSummarySchema = z.object({ text: z.string(), tooltip: z.string(), state: z.enum(['off', 'on', 'warning']) });
export type HooksSummary = z.infer<typeof hooksSummarySchema>;

export const chatEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), text: z.string(), prompt: z.optional(z.number()), attachments: z.optional(z.array(z.string())), images: z.optional(z.array(imageViewSchema)), mode: z.optional(chatModeSchema) }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string(), done: z.boolean() }),
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    name: z.string(),
    args: z.string(),
    status: toolStatusSchema,
    result: z.optional(z.string()),
    approvalId: z.optional(z.string()),
    progress: z.optional(toolProgressSchema),
    /** While awaiting approval: the answers offered (all when absent) and a warning to show first. */
    approvalScopes: z.optional(z.array(approvalScopeSchema)),
    approvalWarning: z.optional(z.string()),
    /** The command rule "Always allow" offers (`npm test`), when approvalScopes has `rule`. Model text: shown as text only. */
    approvalRule: z.optional(z.string()),
    /** The file this call changed (a checkpoint holds its before and after): the card offers Open diff. */
    change: z.optional(z.object({ path: z.string(), undone: z.boolean() })),
    /** The call runs (or ran) in a Sprout terminal that is still open: the card offers Show terminal. */
    terminal: z.optional(z.boolean()),
    /** A `_PreToolUse` hook denied the call (it never ran): which server, and what it said (untrusted). */
    blocked: z.optional(z.object({ server: z.string(), text: z.string() })),
    /** A subagent's call (docs/hooks.md#subagents): which one made it and the model it ran on (its agent's own, or the chat's); drawn nested under its delegate card. */
    subagent: z.optional(z.object({ id: z.string(), name: z.string(), model: z.optional(z.string()) })),
  }),
  z.object({
    kind: z.literal('objection'),
    id: z.string(),
    server: z.string(),
    text: z.string(),
    used: z.number(),
    max: z.number(),
    failures: z.optional(z.array(failureSchema)),
    /** The raw hook name (`_Stop`), for the card's details; the card words it (hookText.ts). */
    hook: z.optional(z.string()),
    scope: z.optional(z.enum(['session', 'prompt'])),
    outcome: z.optional(objectionOutcomeSchema),
  }),
  z.object({
    kind: z.literal('hookEvent'),
    id: z.string(),
    level: z.enum(['info', 'warning', 'error']),
    text: z.string(),
    /** Files the note names, each opened by a click (`openLocation`): the instruction files that apply. */
    files: z.optional(z.array(z.string())),
  }),
  /** Hook text put into the history (`_SessionStart`, `_UserPromptSubmit`, `_PostToolUse`): the raw hook name, its server, its text (untrusted). */
  z.object({ kind: z.literal('injection'), id: z.string(), hook: z.string(), server: z.string(), text: z.string() }),
  z.object({
    kind: z.literal('compaction'),
    id: z.string(),
    trigger: z.enum(['auto', 'manual']),
    summary: z.nullable(z.string()),
    injected: z.array(hookReplySchema),
    fallback: z.boolean(),
    droppedMessages: z.number(),
  }),
  z.object({
    kind: z.literal('outcome'),
    id: z.string(),
    reason: outcomeReasonSchema,
    message: z.optional(z.string()),
    unresolved: z.optional(z.object({ cause: unresolvedCauseSchema, objections: z.array(hookReplySchema) })),
    /** Which prompt of the chat this ends (0-based), the hook calls that passed in it and the files it changed. */
    turn: z.optional(z.number()),
    checks: z.optional(z.array(hookCheckSchema)),
    files: z.optional(z.object({ paths: z.array(z.string()), undone: z.boolean() })),
    /** The turn's `_Stop` verdict (src/agent/rewind.ts): `passed` is a green state Back to last green returns to, `none` when no `_Stop` hook was asked. */
    verdict: z.optional(z.enum(['passed', 'objected', 'none'])),
  }),
  /** A server's question (MCP form elicitation); `schema` is the requested schema (elicitationFields reads it). */
  z.object({
    kind: z.literal('elicitation'),
    id: z.string(),
    requestId: z.string(),
    server: z.string(),
    message: z.string(),
    schema: z.record(z.string(), z.unknown()),
    status: elicitationStatusSchema,
  }),
  /**
   * A server's MCP sampling request (it asked the chat's model for a reply): who asked, the first line
   * of what, the token limit (and the cap), then how it ended, the model that answered and its tokens.
   */
  z.object({
    kind: z.literal('sampling'),
    id: z.string(),
    server: z.string(),
    prompt: z.string(),
    maxTokens: z.number(),
    cappedTo: z.optional(z.number()),
    status: z.enum(['asked', 'answered', 'refused', 'withdrawn', 'failed']),
    model: z.optional(z.string()),
    tokens: z.optional(z.object({ prompt: z.number(), completion: z.number(), total: z.number() })),
    note: z.optional(z.string()),
  }),
  /** The model's thinking (reasoning fields, `<think>` text): shown collapsed, never the answer. `delta` appends to it while `done` is false. */
  z.object({ kind: z.literal('thinking'), id: z.string(), text: z.string(), done: z.boolean() }),
  /**
   * A Plan-mode answer's steps (model text), for the user to edit and approve: `open` offers Approve,
   * `approved` once the plan runs, `closed` when another prompt came first.
   */
  z.object({ kind: z.literal('plan'), id: z.string(), steps: z.array(z.string()), state: z.enum(['open', 'approved', 'closed']) }),
]);
export type ChatEntry = z.infer<typeof chatEntrySchema>;

/** `vscodeModels`: VS Code offers chat models, so the card can offer one of them. `pendingPrompt`: what the user sent before setup was done; it is sent once it is. */
/** One entry of the composer's `/` menu: `source` is the file it comes from, or "Sprout" for Sprout's own. */
/** A custom agent the composer's mode picker lists after Agent, Ask and Plan (README.md#custom-agents). */
export const agentChoiceSchema = z.object({ name: z.string().check(z.minLength(1)), description: z.string(), source: z.string() });
export type AgentChoice = z.infer<typeof agentChoiceSchema>;

/** A VS Code handoff of the agent that worked the last turn: a button that puts (or sends, `send`) `prompt` with `agent` picked. */
export const handoffSchema = z.object({ label: z.string(), agent: z.string(), prompt: z.optional(z.string()), send: z.optional(z.boolean()) });
export type Handoff = z.infer<typeof handoffSchema>;
export const mentionItemSchema = z.object({ insert: z.string().check(z.minLength(1)), description: z.string() });
export type MentionItem = z.infer<typeof mentionItemSchema>;

export const slashCommandSchema = z.object({ name: z.string().check(z.minLength(1)), description: z.string(), argumentHint: z.optional(z.string()), source: z.string() });
export type SlashCommandInfo = z.infer<typeof slashCommandSchema>;

export const setupSchema = z.object({ reason: z.string(), needsKey: z.boolean(), needsModel: z.boolean(), vscodeModels: z.boolean(), pendingPrompt: z.optional(z.string()) });
export type SetupInfo = z.infer<typeof setupSchema>;

/** The model the next prompt goes to, for the composer's model button: its name, where it comes from, and a line of detail (the endpoint's host, or the vendor and family). */
export const modelInUseSchema = z.object({ label: z.string(), source: z.enum(['openai', 'vscode']), detail: z.string() });
export type ModelInUse = z.infer<typeof modelInUseSchema>;

export const chatStateSchema = z.object({
  chatId: z.string(),
  entries: z.array(chatEntrySchema),
  running: z.boolean(),
  draft: z.string(),
  setup: z.nullable(setupSchema),
  notice: z.nullable(z.string()),
  usage: z.optional(z.nullable(contextUsageSchema)),
  hooks: z.optional(hooksSummarySchema),
  model: z.optional(z.nullable(modelInUseSchema)),
});
export type ChatState = z.infer<typeof chatStateSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), state: chatStateSchema }),
  z.object({ type: z.literal('entry'), entry: chatEntrySchema }),
  z.object({ type: z.literal('delta'), id: z.string(), text: z.string() }),
  z.object({ type: z.literal('running'), running: z.boolean() }),
  z.object({ type: z.literal('setup'), setup: z.nullable(setupSchema) }),
  z.object({ type: z.literal('notice'), notice: z.nullable(z.string()) }),
  z.object({ type: z.literal('focusInput'), text: z.optional(z.string()) }),
  /** A mention to put at the caret (the Attach menu's Resource…: `#resource:server:uri`). */
  z.object({ type: z.literal('insertMention'), text: z.string() }),
  z.object({ type: z.literal('usage'), usage: contextUsageSchema }),
  z.object({ type: z.literal('hooks'), hooks: hooksSummarySchema }),
  z.object({ type: z.literal('model'), model: z.nullable(modelInUseSchema) }),
  /** How many tools the open chat turned off with the tool picker (the tools button shows it; 0: every tool). */
  z.object({ type: z.literal('toolsOff'), count: z.number() }),
  /** The file or selection the user picked for the context bar (an answer to `attach`). */
  z.object({ type: z.literal('attached'), attachment: attachmentSchema }),
  /** The host's check of an image for the message box (`checkImage` by id, or `picked:N` from Attach): the image, or null and why it was refused. */
  z.object({ type: z.literal('imageChecked'), id: z.string(), image: z.nullable(imageViewSchema), refusal: z.optional(z.string()) }),
  /** The slash commands the `/` menu offers: Sprout's own and the window's prompt files (README.md#prompt-files-and-slash-commands). */
  z.object({ type: z.literal('commands'), commands: z.array(slashCommandSchema) }),
  /** The window's custom agents, for the mode picker. */
  z.object({ type: z.literal('agents'), agents: z.array(agentChoiceSchema) }),
  /** The handoff buttons after a turn a custom agent worked (none: the row is hidden). */
  z.object({ type: z.literal('handoffs'), handoffs: z.array(handoffSchema) }),
  /** The `#` menu's completions of `#kind:query` (an answer to `completeMention`): what to insert, and a description. */
  z.object({ type: z.literal('mentionItems'), kind: z.enum(COMPLETED_MENTIONS), query: z.string(), items: z.array(mentionItemSchema) }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** `mode`: the composer's mode picker (absent: Agent); `agent`: the custom agent picked there, by name. */
  z.object({ type: z.literal('send'), text: z.string().check(z.minLength(1)), attachments: z.optional(z.array(attachmentSchema)), images: z.optional(z.array(imageInputSchema)), mode: z.optional(chatModeSchema), agent: z.optional(z.string()) }),
  /** An image pasted or dropped into the message box, to be checked (type, size, and `held`, the images the box holds already). */
  z.object({ type: z.literal('checkImage'), id: z.string(), image: imageInputSchema, held: z.number() }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('openChat'), chatId: z.string() }),
  z.object({ type: z.literal('approve'), approvalId: z.string(), scope: approvalScopeSchema }),
  z.object({ type: z.literal('deny'), approvalId: z.string() }),
  z.object({ type: z.literal('continueAnyway') }),
  /** The plan card's Approve: `text` is its steps as the user left them, one numbered line each. */
  z.object({ type: z.literal('approvePlan'), text: z.string() }),
  z.object({ type: z.literal('draft'), text: z.string() }),
  z.object({ type: z.literal('setup'), action: z.enum(['setApiKey', 'setBaseUrl', 'selectModel', 'useVscodeModel']) }),
  z.object({ type: z.literal('copy'), text: z.string() }),
  z.object({
    type: z.literal('elicitationAnswer'),
    id: z.string(),
    action: elicitationActionSchema,
    content: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))),
  }),
  /** A file a failure or a note names; `entryId`: the note it came from (a user-level instruction file opens only when that note lists it). */
  z.object({ type: z.literal('openLocation'), file: z.string().check(z.minLength(1)), line: z.optional(z.number()), entryId: z.optional(z.string()) }),
  z.object({ type: z.literal('showInTesting') }),
  /** Code block actions: put the code at the editor's cursor, or make it a file's content (`path` from the fence, else the active editor's). */
  z.object({ type: z.literal('insertCode'), text: z.string() }),
  z.object({ type: z.literal('applyCode'), text: z.string(), path: z.optional(z.string()) }),
  /** A tool card's Open diff (by entry id), a turn footer's Undo (by turn). */
  z.object({ type: z.literal('openDiff'), entryId: z.string() }),
  /** A tool card's Show terminal: the Sprout terminal its command runs in. */
  z.object({ type: z.literal('showTerminal'), entryId: z.string() }),
  z.object({ type: z.literal('undoTurn'), turn: z.number() }),
  /** A user message's Rewind to here (`prompt`: its number, 1-based), and Back to last green (src/agent/rewind.ts). */
  z.object({ type: z.literal('rewind'), prompt: z.number() }),
  z.object({ type: z.literal('backToGreen') }),
  z.object({ type: z.literal('showHistory') }),
  z.object({ type: z.literal('showHooks') }),
  z.object({ type: z.literal('enableTestHook') }),
  /** `heldImages`: the images the message box holds already (an image picked counts against the cap). */
  z.object({ type: z.literal('attach'), heldImages: z.optional(z.number()) }),
  /** The composer's tools button: the open chat's tool picker (Sprout: Pick Tools). */
  z.object({ type: z.literal('pickTools') }),
  z.object({ type: z.literal('dismissNotice') }),
  z.object({ type: z.literal('cancelPendingPrompt') }),
  /** The `#` menu asks for completions of `#kind:query` (src/shared/mentions.ts). */
  z.object({ type: z.literal('completeMention'), kind: z.enum(COMPLETED_MENTIONS), query: z.string() }),
]);

export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** "3/6 · Building" for a tool card; empty when there is nothing to say. */
export function progressText(p: ToolProgressInfo): string {
  const amount = p.progress === undefined ? '' : p.total !== undefined && p.total > 0 ? `${p.progress}/${p.total}` : String(p.progress);
  return [amount, p.message ?? ''].filter((part) => part !== '').join(' · ');
}

/** What was wrong with a rejected message, for the log: zod/mini carries no message texts, so the path and the issue code. */
export function describeIssues(error: z.core.$ZodError): string[] {
  return error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.code}`);
}

/** Compile-time exhaustiveness for the switches over these unions. */
export function assertNever(value: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(value)}`);
}
