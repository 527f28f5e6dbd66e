/**
 * Transcripts the integration tests record, checked in under test/fixtures/transcripts/ so the views'
 * state tests replay the event orders the core really emits (test/unit/extension/viewStates.test.ts).
 * `SPROUT_RECORD_TRANSCRIPTS=1` (`npm run record:transcripts`) writes them anew; otherwise the test that
 * records one checks that today's run still emits what the fixture holds, in the same order, so a core
 * change that moves events fails there, naming the fixture to re-record.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentEvent, TranscriptRecord } from '../../../src/agent/events';

export const TRANSCRIPTS_DIR = resolve(__dirname, '..', '..', 'fixtures', 'transcripts');
export const RECORDING = process.env['SPROUT_RECORD_TRANSCRIPTS'] === '1';

/** The failing tests of the `stop-complied` story (its hook's structured content). */
export const CART_FAILURES = [
  { name: 'cart › totals prices', file: 'src/cart.test.js', line: 5, message: 'Expected: 11\nReceived: 12' },
  { name: 'cart › empties', message: 'boom' },
];

/** Fixed times: the fixture keeps how far apart events were, not when the recording ran. */
const EPOCH = Date.UTC(2025, 0, 1);

export function loadTranscript(name: string): TranscriptRecord[] {
  const text = readFileSync(join(TRANSCRIPTS_DIR, `${name}.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptRecord);
}

/** Events whose count or place depends on the machine's speed (how long servers took to start), not on the core's order. */
const TIMING_EVENTS = new Set<AgentEvent['type']>(['servers_waiting', 'servers_waited', 'tools_changed', 'usage', 'retry']);

/** One line per event, naming what a view folds it by; what varies run to run (durations, ids, times) is left out. */
export function eventOrder(records: readonly TranscriptRecord[]): string[] {
  return records.flatMap(({ event }) => (TIMING_EVENTS.has(event.type) ? [] : [describe(event)]));
}

function describe(event: AgentEvent): string {
  switch (event.type) {
    case 'hook_called':
      return `${event.type} ${event.hook} ${event.server}`;
    case 'hook_finished':
      return `${event.type} ${event.hook} ${event.server} ${event.result}${event.evidence?.status ? ` ${event.evidence.status}` : ''}`;
    case 'hook_objected':
      return `${event.type} ${event.hook} ${event.server} ${event.rejectionsUsed}/${event.maxRejections} ${event.scope}`;
    case 'tool_started':
    case 'tool_finished':
    case 'tool_denied':
      return `${event.type} ${event.name}`;
    case 'message':
      return `${event.type} ${event.message.role}${event.message.role === 'assistant' && event.message.toolCalls?.length ? ` ${event.message.toolCalls.length} calls` : ''}`;
    case 'outcome':
      return `${event.type} ${event.outcome.reason}${event.outcome.unresolved ? ` ${event.outcome.unresolved.cause}` : ''}`;
    case 'objection_resolved':
      return `${event.type} ${event.resolution}`;
    case 'budget':
      return `${event.type} ${event.used}/${event.max}`;
    case 'hook_injected':
      return `${event.type} ${event.hook} ${event.server}`;
    case 'approval_requested':
    case 'approval_resolved':
      return `${event.type} ${event.name}${event.type === 'approval_resolved' ? ` ${event.answer}` : ''}`;
    default:
      return event.type;
  }
}

/**
 * The transcript a test recorded: written as the fixture `name` when recording, else compared with
 * it. Absolute times become offsets from a fixed epoch and `workspace` (the test's temp folder) a
 * placeholder, so a re-recording differs only where the core's behaviour did.
 */
export function recordOrCheck(name: string, records: readonly TranscriptRecord[], workspace: string): void {
  const first = records[0]?.at ?? 0;
  const normalised = records.map((record) => JSON.parse(JSON.stringify({ ...record, at: EPOCH + record.at - first }).split(workspace).join('<workspace>')) as TranscriptRecord);
  if (RECORDING) {
    mkdirSync(TRANSCRIPTS_DIR, { recursive: true });
    writeFileSync(join(TRANSCRIPTS_DIR, `${name}.jsonl`), normalised.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return;
  }
  assert.deepEqual(
    eventOrder(normalised),
    eventOrder(loadTranscript(name)),
    `the core no longer emits what test/fixtures/transcripts/${name}.jsonl holds; if that is intended, re-record it (npm run record:transcripts) and check the view tests`,
  );
}
