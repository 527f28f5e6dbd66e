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
import { CheckpointToolHost, type CheckpointTargets } from '../../runtime/checkpointToolHost';
import { TerminalToolHost, type CommandTerminals, type TerminalTargets } from '../terminal/terminalToolHost';
import type { ToolHostRelay } from '../../runtime/toolHostRelay';
import { join } from 'node:path';
import type { ExtensionSettings } from '../settings/settingsMapping';
import type { ViewEvents } from '../viewEvents';
import type { ToolSelection } from '../../agent/toolSelection';
import { readToolChoice, writeToolChoice } from './toolChoiceFile';

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
  /** The window's Sprout terminals: `run_command` runs in one (terminalToolHost.ts); without them, as the server runs it. */
  terminals?: CommandTerminals;
  /** The files a call will change where the host can plan them (the editor's `rename_symbol`), for the checkpoints. */
  plannedFiles?: CheckpointTargets['plannedFiles'];
}

export interface ChatFiles {
  transcript: string;
  /** The checkpoints of the files the chat's tool calls changed. */
  changes: string;
  /** The chat's tool picker choice (toolPicker.ts); absent: every tool. */
  tools?: string;
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

/** What the terminal decorator needs of the window, and its one note in this chat's view. */
function terminalTargets(deps: ChatDeps, view: ChatViewState): TerminalTargets {
  return {
    workspaceServer: () => deps.host.bundledWorkspaceServer,
    workspaceFolder: deps.host.workspaceFolder,
    stateDir: join(deps.host.serversStateDir, 'workspace'),
    enabled: () => deps.settings().runInTerminal,
    say: (text) => view.say('info', text),
  };
}

export class Chat {
  private abort: AbortController | undefined;

  private constructor(
    readonly id: string,
    readonly session: AgentSession,
    readonly view: ChatViewState,
    readonly tools: ApprovalToolHost,
    readonly checkpoints: CheckpointStore,
    /** The chat's own relays of the window's tool host (checkpoints, the terminal). */
    private readonly relays: readonly ToolHostRelay[],
    private readonly unsubscribe: () => void,
    private readonly logger: Logger,
    /** The views hear this chat (off while a replaced chat winds down), and how. */
    private readonly audience: { live: boolean; events?: ViewEvents },
    private readonly readInstructions?: () => InstructionSet | undefined,
    private readonly readSkills?: () => SkillSet | undefined,
    private readonly choiceFile?: string,
  ) {
    this.toolChoice = readToolChoice(choiceFile, logger);
  }

  /** The servers and tools turned off in this chat (the tools button), kept in the chat's own file across reloads. */
  toolChoice: ToolSelection;

  setToolChoice(choice: ToolSelection): void {
    this.toolChoice = choice;
    if (this.choiceFile !== undefined) writeToolChoice(this.choiceFile, choice);
  }

  /** Opens (or resumes) the chat `id`; its view events start with `chat_opened` and the stored events. */
  static async open(id: string, files: ChatFiles, deps: ChatDeps): Promise<Chat> {
    const store = new JsonlTranscriptStore(files.transcript, { logger: deps.logger });
    // Loaded before the replay, so replayed tool cards find their checkpoints (Open diff, Undo) again.
    const checkpoints = new CheckpointStore(files.changes);
    const audience: { live: boolean; events?: ViewEvents } = { live: false, events: deps.events };
    const view = new ChatViewState((message) => audience.live && deps.post?.(message), {
      changeOf: (callId) => {
        const record = checkpoints.get(callId);
        const all = checkpoints.of([callId]);
        return record && { path: record.path, undone: record.undone, ...(all.length > 1 ? { paths: all.map((r) => r.path) } : {}) };
      },
      contextWindow: () => deps.settings().agent.contextWindowTokens,
      terminalOf: (callId) => deps.terminals?.has(callId) === true,
    });
    replayTranscript(id, await store.load(), view, deps.events);
    // Approval outside, checkpoints inside: a file's "before" is read after the user said yes; the
    // terminal innermost, so a command runs there only once the rules and the user let it.
    const workspaceServer = () => deps.host.bundledWorkspaceServer;
    const runner = deps.terminals === undefined ? deps.host.tools : new TerminalToolHost(deps.host.tools, deps.terminals, terminalTargets(deps, view));
    const recorder = new CheckpointToolHost(runner, checkpoints, { workspaceServer, workspaceFolder: deps.host.workspaceFolder, ...(deps.plannedFiles ? { plannedFiles: deps.plannedFiles } : {}) });
    const tools = new ApprovalToolHost(recorder, deps.policy);
    // The view was filled from the stored events above, so what the session says while opening is not needed.
    const { session } = await openSession({ sessionId: id, settings: deps.host.agentSettings(), model: deps.host.model, models: deps.host.models, tools, logger: deps.logger, transcript: store });
    audience.live = true;
    const unsubscribe = session.subscribe((event) => {
      view.apply(event);
      if (audience.live) deps.events?.publish({ type: 'agent', event, at: Date.now() });
    });
    return new Chat(id, session, view, tools, checkpoints, [recorder, ...(runner instanceof TerminalToolHost ? [runner] : [])], unsubscribe, deps.logger, audience, deps.instructions, deps.skills, files.tools);
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
      const tools = options.tools ?? ((this.toolChoice.off ?? []).length > 0 ? this.toolChoice : undefined);
      await this.session.run(prompt, abort.signal, {
        // `agents`: the custom agents a delegation may name besides the generic one (subagents.ts).
        agents: [],
        ...options,
        attachments,
        ...(instructions === undefined ? {} : { instructions }),
        ...(skills === undefined ? {} : { skills }),
        ...(tools === undefined ? {} : { tools }),
      });
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
    // The relays pass the window's tool host to this chat only.
    for (const relay of this.relays) relay.use(undefined);
  }
}
