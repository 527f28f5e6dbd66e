/**
 * One open chat: its AgentSession over the window's shared model and servers, its view state, its
 * approval decorator and the transcript file it is written to event by event. Opening replays the
 * transcript, so a chat survives a window reload or an extension-host crash.
 */
import type { AgentSession } from '../../agent/session';
import type { Logger } from '../../agent/ports';
import type { AgentEvent } from '../../agent/events';
import type { PromptAttachment } from '../../agent/promptAttachments';
import { openSession } from '../../runtime/compose';
import { JsonlTranscriptStore } from '../../runtime/jsonlTranscriptStore';
import type { HostMessage } from '../../shared/protocol';
import type { AgentHost } from '../agentHost';
import { ApprovalToolHost, type ApprovalPolicy } from '../approvals/approvalToolHost';
import { ChatViewState } from './chatViewState';
import { CheckpointStore } from '../checkpoints/checkpointStore';
import { CheckpointToolHost } from '../checkpoints/checkpointToolHost';
import type { ExtensionSettings } from '../settings/settingsMapping';

export interface ChatDeps {
  host: AgentHost;
  logger: Logger;
  settings: () => ExtensionSettings;
  policy: ApprovalPolicy;
  post: (message: HostMessage) => void;
  onEvent: (event: AgentEvent, at: number) => void;
}

export interface ChatFiles {
  transcript: string;
  /** The checkpoints of the files the chat's tool calls changed. */
  changes: string;
}

export class Chat {
  abort: AbortController | undefined;

  private constructor(
    readonly id: string,
    readonly session: AgentSession,
    readonly view: ChatViewState,
    readonly tools: ApprovalToolHost,
    readonly checkpoints: CheckpointStore,
    private readonly recorder: CheckpointToolHost,
    private readonly unsubscribe: () => void,
  ) {}

  /** Opens (or resumes) the chat `id`; `replay` receives the stored events before anything live. */
  static async open(id: string, files: ChatFiles, deps: ChatDeps, replay: (event: AgentEvent, at: number) => void): Promise<Chat> {
    const store = new JsonlTranscriptStore(files.transcript, { logger: deps.logger });
    // Loaded before the replay, so replayed tool cards find their checkpoints (Open diff, Undo) again.
    const checkpoints = new CheckpointStore(files.changes);
    let live = false;
    const view = new ChatViewState((message) => live && deps.post(message), {
      changeOf: (callId) => {
        const record = checkpoints.get(callId);
        return record && { path: record.path, undone: record.undone };
      },
      contextWindow: () => deps.settings().agent.contextWindowTokens,
    });
    for (const record of await store.load()) {
      view.apply(record.event);
      replay(record.event, record.at);
    }
    // A crash or reload mid-prompt leaves the stored chat "running"; nothing runs now.
    view.endInterruptedPrompt();
    // Approval outside, checkpoints inside: a file's "before" is read after the user said yes.
    const recorder = new CheckpointToolHost(deps.host.tools, checkpoints, { workspaceServer: () => deps.host.bundledWorkspaceServer, workspaceFolder: deps.host.workspaceFolder });
    const tools = new ApprovalToolHost(recorder, deps.policy);
    // The view was filled from the stored events above, so what the session says while opening is not needed.
    const { session } = await openSession({ sessionId: id, settings: deps.host.models.agentSettings(), model: deps.host.model, tools, logger: deps.logger, transcript: store });
    live = true;
    const unsubscribe = session.subscribe((event) => {
      view.apply(event);
      deps.onEvent(event, Date.now());
    });
    return new Chat(id, session, view, tools, checkpoints, recorder, unsubscribe);
  }

  async run(prompt: string, attachments: readonly PromptAttachment[] = []): Promise<void> {
    if (this.abort) throw new Error('A prompt is already running in this chat.');
    const abort = new AbortController();
    this.abort = abort;
    try {
      await this.session.run(prompt, abort.signal, attachments);
    } finally {
      this.abort = undefined;
    }
  }

  stop(): void {
    this.abort?.abort();
  }

  dispose(): void {
    this.stop();
    this.unsubscribe();
    this.session.dispose();
    // The recorder relays the window's tool host to this chat only.
    this.recorder.use(undefined);
  }
}
