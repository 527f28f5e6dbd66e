/**
 * `--session FILE --rewind N [--force]`: the session goes back to before user message N. Which history
 * stays and which calls' files go back is the core's decision (src/agent/rewind.ts); here the files the
 * bundled workspace server wrote since are put back from the session's checkpoints (kept in its private
 * state folder, recorded by the same decorator the editor uses), and one `rewound` record is appended
 * to the transcript, so the next run (this one's prompt, or a later one) continues from there. A file
 * changed outside Sprout since the agent wrote it is not overwritten without `--force`: the rewind is
 * refused naming the files, and nothing changes. What `run_command` or other servers changed cannot be
 * known: those calls are listed, not undone. The bundled todo list goes back to how it stood before
 * message N (src/runtime/todoRewind.ts).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentEvent } from '../agent/events';
import type { Logger, ToolHost } from '../agent/ports';
import { rewindPlan } from '../agent/rewind';
import { type Checkpoint, CheckpointStore, editedOutside, netChanges, unrecordedCalls } from '../runtime/checkpointStore';
import { CheckpointToolHost } from '../runtime/checkpointToolHost';
import { JsonlTranscriptStore } from '../runtime/jsonlTranscriptStore';
import { rewindTodoList, todoRewindText } from '../runtime/todoRewind';
import type { StateEnv } from '../platform/privateState';
import type { CliIo } from './cliIo';
import { stateDirFor } from './cliSession';
import { UsageError } from './exitCodes';

/** Where a --session run keeps its checkpoints: the session's private state folder. */
export function cliCheckpoints(sessionId: string, env: StateEnv): CheckpointStore {
  return new CheckpointStore(join(stateDirFor(sessionId, true, env), 'checkpoints.json'));
}

/** With --session and the bundled workspace server: its writes are recorded, so a later --rewind can put them back. */
export function checkpointing(sessionFile: string | undefined, sessionId: string, env: StateEnv, workspace: { server?: string; folder: string }): ((hub: ToolHost) => ToolHost) | undefined {
  if (sessionFile === undefined || workspace.server === undefined) return undefined;
  const store = cliCheckpoints(sessionId, env);
  return (hub) => new CheckpointToolHost(hub, store, { workspaceServer: () => workspace.server, workspaceFolder: workspace.folder });
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function putBack(change: Checkpoint): void {
  if (change.before === null) return rmSync(change.absolute, { force: true });
  mkdirSync(dirname(change.absolute), { recursive: true });
  writeFileSync(change.absolute, change.before);
}

/** The bundled servers that write no file. */
const QUIET_SERVERS: ReadonlySet<string> = new Set(['todo', 'tests']);

export interface CliRewind {
  prompt: number;
  force: boolean;
  sessionFile: string | undefined;
  sessionId: string;
  workspaceServer: string | undefined;
}

/** Rewinds the session; the event appended (its text is the message's), or a UsageError saying why not. */
export async function rewindCliSession(rewind: CliRewind, io: CliIo, logger: Logger): Promise<AgentEvent> {
  if (rewind.sessionFile === undefined) throw new UsageError('--rewind needs --session FILE: it rewinds that session.');
  const transcript = new JsonlTranscriptStore(rewind.sessionFile, { logger });
  const events = (await transcript.load()).map((r) => r.event);
  const plan = rewindPlan(events, rewind.prompt);
  if (typeof plan === 'string') throw new UsageError(`--rewind ${rewind.prompt}: ${plan}.`);
  const store = cliCheckpoints(rewind.sessionId, io.env);
  const records = store.of(plan.calls.map((c) => c.callId)).filter((r) => !r.undone);
  const edited = editedOutside(records, readOrNull);
  if (edited.length > 0 && !rewind.force) {
    throw new UsageError(
      `--rewind ${rewind.prompt}: ${edited.join(', ')} changed after the agent wrote ${edited.length === 1 ? 'it' : 'them'} (the file no longer holds what the agent wrote), ` +
        'so putting back what it held before would overwrite those edits. Nothing was changed. Keep a copy of your edits and pass --force to rewind anyway.',
    );
  }
  const changes = netChanges(records);
  for (const change of changes.filter((c) => !c.tooLarge)) putBack(change);
  store.drop(plan.calls.map((c) => c.callId));
  const todo = rewindTodoList(stateDirFor(rewind.sessionId, true, io.env), rewind.sessionId, events, plan.keep);
  const event: AgentEvent = { type: 'rewound', prompt: plan.prompt, text: plan.text };
  transcript.append({ at: Date.now(), event });
  await transcript.flush();
  tellRewind(io, plan.prompt, changes, unrecordedCalls(plan.calls, new Set(records.map((r) => r.callId)), rewind.workspaceServer, QUIET_SERVERS));
  if (todo !== undefined) io.stderr.write(`sprout-agent: ${todoRewindText(todo)}\n`);
  return event;
}

function tellRewind(io: CliIo, prompt: number, changes: readonly Checkpoint[], unknown: readonly string[]): void {
  const restored = changes.filter((c) => !c.tooLarge).map((c) => c.path);
  const tooLarge = changes.filter((c) => c.tooLarge).map((c) => c.path);
  const lines = [`rewound to before message ${prompt}; ${restored.length === 0 ? 'no file to put back' : `put back ${restored.join(', ')}`}`];
  if (tooLarge.length > 0) lines.push(`not put back (too large to have kept a copy): ${tooLarge.join(', ')}`);
  if (unknown.length > 0) lines.push(`not put back (Sprout cannot know what these changed; check them yourself): ${unknown.join(', ')}`);
  for (const line of lines) io.stderr.write(`sprout-agent: ${line}\n`);
}

/** A rewind with no prompt to run: the message's text on stdout (to edit and send again), or its event with --json. */
export function printRewound(event: AgentEvent, json: boolean, io: CliIo): number {
  if (json) io.stdout.write(`${JSON.stringify(event)}\n`);
  else if (event.type === 'rewound') io.stdout.write(`${event.text}\n`);
  return 0;
}
