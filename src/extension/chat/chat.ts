/**
 * One chat: its AgentSession over the window's shared model and servers, its view state, its approval
 * decorator and the transcript file it is written to event by event. Opening replays the transcript,
 * so a chat survives a window reload or an extension-host crash. The open chat (the one the chat views
 * show) also publishes its events and its running flag on the window's view events; a `sprout` task's
 * chat, which no view shows, publishes nothing.
 */
import type { AgentSession } from '../../agent/session';
import type { Logger } from '../../agent/ports';
import type { SessionEndReason, TranscriptRecord } from '../../agent/events';
import { errorMessage } from '../../agent/errorMessage';
import type { PromptAttachment, PromptOptions } from '../../agent/promptAttachments';
import type { InstructionSet } from '../../agent/instructions';
import type { SkillSet } from '../../agent/skills';
import { openSession } from '../../runtime/compose';
import { JsonlTranscriptStore } from '../../runtime/jsonlTranscriptStore';
import type { HostMessage } from '../../shared/protocol';
import type { AgentHost } from '../agentHost';
import { ApprovalToolHost, type ApprovalPolicy } from '../approvals/approvalToolHost';
import { ChatViewState } from './chatViewState';
import { CheckpointStore } from '../../runtime/checkpointStore';
import { CheckpointToolHost } from '../../runtime/checkpointToolHost';
import type { ExtensionSettings } from '../settings/settingsMapping';
import type { ViewEvents } from '../viewEvents';

export interface ChatDeps {
  host: AgentHost;
  logger: Logger;
  settings: () => ExtensionSettings;
  policy: ApprovalPolicy;
  /** The chat views' incremental messages (the open chat only). */
  post?: (message: HostMessage) => void;
  /** The window's view events (the open chat only). */
  events?: ViewEvents;
  /** Reads the instruction files for a prompt (chatInstructions.ts); none when absent. */
  instructions?: () => InstructionSet | undefined;
  /** Reads the skills for each prompt (chatInstructions.ts). */
  skills?: () => SkillSet | undefined;
}

export interface ChatFiles {
  transcript: string;
  /** The checkpoints of the files the chat's tool calls changed. */
  changes: string;
}

/**
 * What a chat shows as it opens, before its session runs: `chat_opened`, then every stored event into
 * the chat's view state and onto the view events, as they happened. A transcript that ends mid-prompt
 * (a crash or reload while it ran) ends that prompt as interrupted: nothing runs now.
 */
export function replayTranscript(chatId: string, records: readonly TranscriptRecord[], view: ChatViewState, events?: ViewEvents): void {
  events?.publish({ type: 'chat_opened', chatId });
  for (const record of records) {
    view.apply(record.event);
    events?.publish({ type: 'agent', event: record.event, at: record.at });
  }
  view.endInterruptedPrompt();
}

export class Chat {
  private abort: AbortController | undefined;

  private constructor(
    readonly id: string,
    readonly session: AgentSession,
    readonly view: ChatViewState,
    readonly tools: ApprovalToolHost,
    readonly checkpoints: CheckpointStore,
    private readonly recorder: CheckpointToolHost,
    private readonly unsubscribe: () => void,
    private readonly logger: Logger,
    /** The views hear this chat (off while a replaced chat winds down), and how. */
    private readonly audience: { live: boolean; events?: ViewEvents },
    private readonly readInstructions?: () => InstructionSet | undefined,
    private readonly readSkills?: () => SkillSet | undefined,
  ) {}

  /** Opens (or resumes) the chat `id`; its view events start with `chat_opened` and the stored events. */
  static async open(id: string, files: ChatFiles, deps: ChatDeps): Promise<Chat> {
    const store = new JsonlTranscriptStore(files.transcript, { logger: deps.logger });
    // Loaded before the replay, so replayed tool cards find their checkpoints (Open diff, Undo) again.
    const checkpoints = new CheckpointStore(files.changes);
    const audience: { live: boolean; events?: ViewEvents } = { live: false, events: deps.events };
    const view = new ChatViewState((message) => audience.live && deps.post?.(message), {
      changeOf: (callId) => {
        const record = checkpoints.get(callId);
        return record && { path: record.path, undone: record.undone };
      },
      contextWindow: () => deps.settings().agent.contextWindowTokens,
    });
    replayTranscript(id, await store.load(), view, deps.events);
    // Approval outside, checkpoints inside: a file's "before" is read after the user said yes.
    const recorder = new CheckpointToolHost(deps.host.tools, checkpoints, { workspaceServer: () => deps.host.bundledWorkspaceServer, workspaceFolder: deps.host.workspaceFolder });
    const tools = new ApprovalToolHost(recorder, deps.policy);
    // The view was filled from the stored events above, so what the session says while opening is not needed.
    const { session } = await openSession({ sessionId: id, settings: deps.host.agentSettings(), model: deps.host.model, tools, logger: deps.logger, transcript: store });
    audience.live = true;
    const unsubscribe = session.subscribe((event) => {
      view.apply(event);
      if (audience.live) deps.events?.publish({ type: 'agent', event, at: Date.now() });
    });
    return new Chat(id, session, view, tools, checkpoints, recorder, unsubscribe, deps.logger, audience, deps.instructions, deps.skills);
  }

  /**
   * Whether a prompt runs in this chat: from the moment one is accepted (before its attachments are
   * read and its servers start) until it ended. The one flag the views, Send and Undo go by.
   */
  get running(): boolean {
    return this.abort !== undefined;
  }

  /** Runs `prompt`; `prepare` (reading attachments, starting servers) runs first, inside the prompt, so Stop reaches it too. `options`: the rest of the prompt (its images). */
  async run(prompt: string, prepare: () => Promise<readonly PromptAttachment[]> = async () => [], options: PromptOptions = {}): Promise<void> {
    if (this.abort) throw new Error('A prompt is already running in this chat.');
    const abort = new AbortController();
    this.abort = abort;
    this.tellRunning();
    try {
      const attachments = await prepare();
      // Read again for each prompt: the files may have changed, and trust may have been granted since.
      const instructions = options.instructions ?? this.readInstructions?.();
      const skills = options.skills ?? this.readSkills?.();
      await this.session.run(prompt, abort.signal, { ...options, attachments, ...(instructions === undefined ? {} : { instructions }), ...(skills === undefined ? {} : { skills }) });
    } finally {
      this.abort = undefined;
      this.tellRunning();
    }
  }

  private tellRunning(): void {
    if (this.audience.live) this.audience.events?.publish({ type: 'running', running: this.running });
  }

  stop(): void {
    this.abort?.abort();
  }

  /**
   * The chat is done with (another chat replaced it, or the window is closing): its session ends
   * (`_SessionEnd` with `reason`, bounded by the hook timeout), then the chat lets go of it. Never
   * throws, so closing always completes.
   */
  async close(reason: SessionEndReason): Promise<void> {
    this.stop();
    // The views show another chat by now: this one's last events must not reach them.
    this.audience.live = false;
    try {
      await this.session.end(reason);
    } catch (error) {
      this.logger.warn('ending the chat session failed', { chatId: this.id, message: errorMessage(error) });
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    this.stop();
    this.unsubscribe();
    this.session.dispose();
    // The recorder relays the window's tool host to this chat only.
    this.recorder.use(undefined);
  }
}
