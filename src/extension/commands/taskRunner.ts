/** Runs one `sprout` task prompt in a chat of its own (listed with the others), streaming its events. */
import { windowInstructions, windowSkills } from '../chat/chatInstructions';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../agent/ports';
import type { AgentEvent, Outcome } from '../../agent/events';
import type { AgentHost } from '../agentHost';
import { Chat } from '../chat/chat';
import type { QuestionBrokers } from '../chat/questionBrokers';
import { type ChatIndex, chatTitle } from '../chat/chatIndex';
import type { ExtensionSettings } from '../settings/settingsMapping';

export interface TaskRunnerDeps {
  host: AgentHost;
  index: ChatIndex;
  logger: Logger;
  settings: () => ExtensionSettings;
  questions: QuestionBrokers;
}

export async function runPromptInNewChat(deps: TaskRunnerDeps, prompt: string, onEvent: (event: AgentEvent) => void, signal: AbortSignal): Promise<Outcome> {
  const id = randomUUID();
  let outcome: Outcome = { reason: 'cancelled', rounds: 0 };
  // The session opens with the settings of the model source in use, window included.
  await deps.host.modelSources.prepare();
  const chat = await Chat.open(id, deps.index.files(id), {
    host: deps.host,
    logger: deps.logger,
    settings: deps.settings,
    // No chat view shows a task's chat: its questions are notifications.
    policy: deps.questions.notificationPolicy,
    instructions: windowInstructions(deps.host.workspaceFolder, deps.settings),
    skills: windowSkills(deps.host.workspaceFolder),
  });
  const stopListening = chat.session.subscribe((event) => {
    if (event.type === 'outcome') outcome = event.outcome;
    onEvent(event);
  });
  deps.index.touch(id, `Task: ${chatTitle(prompt)}`, Date.now());
  const stop = (): void => chat.stop();
  signal.addEventListener('abort', stop, { once: true });
  try {
    await deps.host.ensureServers();
    chat.session.updateSettings(deps.host.agentSettings());
    await chat.run(prompt);
  } finally {
    signal.removeEventListener('abort', stop);
    // A task's chat ends with the task, as a CLI run does (its _SessionEnd events still reach the task).
    await chat.close(signal.aborted ? 'interrupted' : 'exit');
    stopListening();
  }
  return outcome;
}

