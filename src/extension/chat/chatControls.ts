/**
 * What the chat's smaller controls do: the setup card's buttons, code blocks' Insert and Apply, a tool
 * card's diff, a turn's Undo, the history and hooks links, attaching, and the notice and pending-prompt
 * dismissals. Separate from the chat controller, which keeps the chat, its views and its prompt: these
 * only need a few of its doings, lent as closures (`ControlContext`), so the controller stays its core.
 */
import { assertNever, type HostMessage, type SetupInfo, type WebviewMessage } from '../../shared/protocol';
import type { Chat } from './chat';
import { pickAttachment } from './attachments';
import { applyToFile, insertAtCursor } from './codeActions';
import { openDiff } from '../checkpoints/turnChanges';

export type ControlMessage = Extract<
  WebviewMessage,
  { type: 'setup' | 'insertCode' | 'applyCode' | 'openDiff' | 'undoTurn' | 'showHistory' | 'showHooks' | 'enableTestHook' | 'attach' | 'dismissNotice' | 'cancelPendingPrompt' }
>;

/** What the controls use of the controller. */
export interface ControlContext {
  current(): Promise<Chat>;
  undoTurn(turn: number): Promise<boolean>;
  showHistory(): void;
  onCommand(command: string, ...args: unknown[]): void;
  broadcast(message: HostMessage): void;
  /** The notice shown now is the one the user dismissed. */
  dismissNotice(): void;
  /** The prompt kept during setup is dropped. */
  dropPending(): void;
  setupNeeded(): SetupInfo | null;
}

/** The setup card's actions, as the commands they run (`useVscodeModel` is the model picker, for VS Code's models). */
const SETUP_COMMANDS = { setApiKey: 'sprout.setApiKey', selectModel: 'sprout.selectModel', setBaseUrl: 'sprout.setBaseUrl' } as const;

/** The messages of the chat's setup card and newer controls (code blocks, cards, the context bar, the notice). */
export async function handleControl(message: ControlMessage, ctx: ControlContext): Promise<void> {
  switch (message.type) {
    case 'setup':
      if (message.action === 'useVscodeModel') ctx.onCommand('sprout.selectModel', { source: 'vscode' });
      else ctx.onCommand(SETUP_COMMANDS[message.action]);
      return;
    case 'insertCode':
      await insertAtCursor(message.text);
      return;
    case 'applyCode':
      return void (await applyToFile(message.text, message.path));
    case 'openDiff':
      return openDiff(await ctx.current(), message.entryId);
    case 'undoTurn':
      await ctx.undoTurn(message.turn);
      return;
    case 'showHistory':
      return ctx.showHistory();
    case 'showHooks':
      return ctx.onCommand('sprout.showHooks');
    case 'enableTestHook':
      return ctx.onCommand('sprout.enableTestRunnerHook');
    case 'attach': {
      const attachment = await pickAttachment();
      if (attachment) ctx.broadcast({ type: 'attached', attachment });
      return;
    }
    case 'dismissNotice':
      ctx.dismissNotice();
      ctx.broadcast({ type: 'notice', notice: null });
      return;
    case 'cancelPendingPrompt':
      ctx.dropPending();
      ctx.broadcast({ type: 'setup', setup: ctx.setupNeeded() });
      return;
    default:
      assertNever(message);
  }
}
