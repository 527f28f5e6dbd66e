/**
 * What each message from a chat webview does: one table with a handler per message type (the
 * compiler insists on every one), each a call into the part that owns the matter: the open chat
 * (send, stop, switch, undo, rewind), the chat views (notice, snapshot), the questions (approvals, servers'
 * questions), the Testing view's mirror, the editor (code blocks, diffs, attachments) or a command.
 * Every message was validated by the webview's connection before it gets here.
 */
import * as vscode from 'vscode';
import type { WebviewMessage } from '../../shared/protocol';
import { openDiff } from '../checkpoints/turnChanges';
import type { SproutTerminals } from '../terminal/sproutTerminals';
import type { TestResultsMirror } from '../testing/testResultsMirror';
import { pickAttachment, type QuickPicks } from './attachments';
import { mentionCompletions } from './mentionCompletions';
import { checkComposerImage, pickImage } from './composerImages';
import type { ChatController } from './chatController';
import { DRAFT_KEY, type ChatViews } from './chatViews';
import { applyToFile, insertAtCursor } from './codeActions';
import { openNamedFile } from './noteFiles';
import type { QuestionBrokers } from './questionBrokers';

export interface ChatMessageContext {
  chats: ChatController;
  views: ChatViews;
  questions: QuestionBrokers;
  testing: TestResultsMirror;
  state: vscode.Memento;
  runCommand: (command: string, ...args: unknown[]) => void;
  terminals: SproutTerminals;
  /** How the Attach menu asks (attachments.ts). */
  picks: QuickPicks;
}

type Handlers = { [T in WebviewMessage['type']]: (message: Extract<WebviewMessage, { type: T }>, ctx: ChatMessageContext) => Promise<unknown> | void };

/** The setup card's actions, as the commands they run (`useVscodeModel` is the model picker, for VS Code's models). */
const SETUP_COMMANDS = { setApiKey: 'sprout.setApiKey', selectModel: 'sprout.selectModel', setBaseUrl: 'sprout.setBaseUrl' } as const;

const HANDLERS: Handlers = {
  ready: async (_m, { chats, views }) => {
    views.sendSnapshot(await chats.current(), chats.facts());
    views.broadcast({ type: 'commands', commands: await chats.slashCommands() });
    views.broadcast({ type: 'agents', agents: chats.agentChoices() });
  },
  send: (m, { chats }) => chats.send(m.text, m.attachments, m.images, m.mode, m.agent),
  stop: (_m, { chats }) => chats.stop(),
  newChat: (_m, { chats }) => chats.newChat(),
  openChat: (m, { chats }) => chats.openChat(m.chatId),
  continueAnyway: (_m, { chats }) => chats.continueAnyway(),
  approvePlan: (m, { chats }) => chats.approvePlan(m.text),
  undoTurn: (m, { chats }) => chats.undoTurn(m.turn),
  rewind: (m, { chats }) => chats.rewind(m.prompt),
  backToGreen: (_m, { chats }) => chats.backToGreen(),
  showHistory: (_m, { chats }) => chats.showHistory(),
  cancelPendingPrompt: (_m, { chats }) => chats.dropPending(),
  openDiff: async (m, { chats }) => openDiff(await chats.current(), m.entryId),
  showTerminal: (m, { terminals }) => void terminals.showEntry(m.entryId),
  approve: (m, { questions }) => void questions.approvals.answer(m.approvalId, m.scope),
  deny: (m, { questions }) => void questions.approvals.answer(m.approvalId, 'deny'),
  elicitationAnswer: (m, { questions }) =>
    void questions.elicitations.reply(m.id, m.action === 'accept' ? { action: 'accept', content: m.content ?? {} } : { action: m.action }),
  draft: async (m, { state }) => {
    await state.update(DRAFT_KEY, m.text);
  },
  dismissNotice: (_m, { views }) => views.dismissNotice(),
  attach: async (m, { chats, views, picks }) => {
    const attachment = await pickAttachment(picks, () => chats.startedResources());
    if (typeof attachment === 'object' && 'mention' in attachment) views.broadcast({ type: 'insertMention', text: attachment.mention });
    else if (attachment === 'image') {
      const picked = await pickImage(m.heldImages ?? 0);
      if (picked) views.broadcast({ type: 'imageChecked', id: `picked:${Date.now()}`, ...picked });
    } else if (attachment) views.broadcast({ type: 'attached', attachment });
  },
  completeMention: async (m, { chats, views }) => views.broadcast({ type: 'mentionItems', kind: m.kind, query: m.query, items: await mentionCompletions(m.kind, m.query, chats.resources) }),
  checkImage: (m, { views }) => views.broadcast({ type: 'imageChecked', id: m.id, ...checkComposerImage(m.image, m.held) }),
  openLocation: async (m, { chats, testing }) => openNamedFile((await chats.current()).view.entries, m, testing),
  showInTesting: (_m, { testing }) => testing.reveal(),
  copy: async (m) => {
    await vscode.env.clipboard.writeText(m.text);
  },
  insertCode: (m) => insertAtCursor(m.text),
  applyCode: (m) => applyToFile(m.text, m.path),
  setup: (m, { runCommand }) => (m.action === 'useVscodeModel' ? runCommand('sprout.selectModel', { source: 'vscode' }) : runCommand(SETUP_COMMANDS[m.action])),
  showHooks: (_m, { runCommand }) => runCommand('sprout.showHooks'),
  pickTools: (_m, { runCommand }) => runCommand('sprout.pickTools'),
  enableTestHook: (_m, { runCommand }) => runCommand('sprout.enableTestRunnerHook'),
};

export async function handleChatMessage(message: WebviewMessage, ctx: ChatMessageContext): Promise<void> {
  const handler = HANDLERS[message.type] as (message: WebviewMessage, ctx: ChatMessageContext) => Promise<unknown> | void;
  await handler(message, ctx);
}
