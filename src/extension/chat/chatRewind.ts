/**
 * Rewind to here (a user message) and Back to last green, in the editor. The core decides which history
 * stays, which calls' files go back and which turn is the last green one (src/agent/rewind.ts, over the
 * chat's transcript); here the files are put back through the editor (fileChanges.ts: a WorkspaceEdit,
 * saved, Ctrl+Z takes it back; a file changed outside Sprout since is overwritten only after a modal
 * says yes) and the `rewound` record is appended, so a reload shows the rewound chat. The controller
 * then reopens the chat from its transcript and puts the message's text back in the message box. The
 * chat's bundled todo list goes back with the conversation (src/runtime/todoRewind.ts).
 */
import * as vscode from 'vscode';
import type { AgentEvent } from '../../agent/events';
import { lastGreen, rewindPlan, type RewindPlan } from '../../agent/rewind';
import { unrecordedCalls } from '../../runtime/checkpointStore';
import { JsonlTranscriptStore } from '../../runtime/jsonlTranscriptStore';
import { rewindTodoList, todoRewindText } from '../../runtime/todoRewind';
import { restoreChanges } from '../checkpoints/fileChanges';
import type { Chat } from './chat';

/** The servers that write no file: the bundled todo and tests servers, the editor's own. */
const QUIET_SERVERS: ReadonlySet<string> = new Set(['todo', 'tests', 'editor']);

export interface RewindTarget {
  chat: Chat;
  transcript: string;
  workspaceServer: string | undefined;
  /** The bundled servers' state folder: the chat's todo list goes back there (src/runtime/todoRewind.ts). */
  serversStateDir: string;
  /** Asked before overwriting `edited` (changed outside Sprout since the agent wrote them). */
  confirm: (plan: RewindPlan, edited: readonly string[]) => Promise<boolean>;
}

async function events(transcript: string): Promise<AgentEvent[]> {
  return (await new JsonlTranscriptStore(transcript).load()).map((r) => r.event);
}

/** The plan for "Rewind to here" on message `prompt`, or undefined (the user was told why). */
export async function planRewind(target: RewindTarget, prompt: number): Promise<RewindPlan | undefined> {
  const plan = rewindPlan(await events(target.transcript), prompt);
  if (typeof plan !== 'string') return plan;
  void vscode.window.showInformationMessage(`Sprout cannot rewind: ${plan}.`);
  return undefined;
}

/** The plan for "Back to last green", or undefined (no green turn, or the last turn is the green one: said in the chat and a notification). */
export async function planBackToGreen(target: RewindTarget): Promise<RewindPlan | undefined> {
  const green = lastGreen(await events(target.transcript));
  if (green.kind === 'rewind') return green.plan;
  const why =
    green.kind === 'already'
      ? `Back to last green: the last turn (message ${green.green}) is the newest whose _Stop checks all passed, so this chat is at its last green state already.`
      : 'Back to last green: there is no green state to go back to. No turn of this chat ended with its _Stop checks (tests, Problems, todo) all passed; a turn with no _Stop hook asked is not green.';
  // In the chat too: the command runs from the palette or the view's menu, not only from a turn's card.
  target.chat.view.say('info', why);
  void vscode.window.showInformationMessage(`Sprout: ${why}`);
  return undefined;
}

/** The modal before a rewind overwrites files changed since the agent wrote them (the editor tests answer it through the controller). */
export async function confirmRewind(plan: RewindPlan, edited: readonly string[]): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `${edited.join(', ')} changed after the agent's edit. Rewind to before message ${plan.prompt} anyway?`,
    { modal: true, detail: 'Rewinding puts back what the files held before that message; the later changes are replaced (Ctrl+Z in the editor brings them back).' },
    'Rewind Anyway',
  );
  return choice === 'Rewind Anyway';
}

/** Puts the files back and appends the `rewound` record; true when the chat is rewound (then the caller reopens it). */
export async function applyRewind(target: RewindTarget, plan: RewindPlan): Promise<boolean> {
  const { chat } = target;
  if (chat.running) {
    void vscode.window.showInformationMessage('Sprout: wait for the agent to finish (or stop it) before rewinding.');
    return false;
  }
  const callIds = plan.calls.map((c) => c.callId);
  const recorded = new Set(chat.checkpoints.of(callIds).map((r) => r.callId));
  const { result, paths } = await restoreChanges(chat.checkpoints, callIds, (edited) => target.confirm(plan, edited));
  if (result === 'declined' || result === 'failed') return false;
  chat.checkpoints.drop(callIds);
  const todo = rewindTodoList(target.serversStateDir, chat.id, await events(target.transcript), plan.keep);
  const transcript = new JsonlTranscriptStore(target.transcript);
  transcript.append({ at: Date.now(), event: { type: 'rewound', prompt: plan.prompt, text: plan.text } });
  await transcript.flush();
  const unknown = unrecordedCalls(plan.calls, recorded, target.workspaceServer, QUIET_SERVERS);
  const put = paths.length === 0 ? '' : ` Put back ${paths.join(', ')} (Ctrl+Z in an editor takes it back).`;
  const notPut = unknown.length === 0 ? '' : ` Not put back, Sprout cannot know what they changed: ${unknown.join(', ')}.`;
  const list = todo === undefined ? '' : ` ${todoRewindText(todo)}`;
  void vscode.window.showInformationMessage(`Sprout: rewound to before message ${plan.prompt}.${put}${notPut}${list}`);
  return true;
}
