// --session FILE: the transcript is appended as JSON lines and a later run resumes from it, with the
// first run's history in the next request and the session-scoped _Stop budget carried over; a run
// killed mid-answer leaves the streamed text to the next run.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { TranscriptRecord } from '../../../src/agent/events';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../../fakes/hookServer';
import { assertAllRequestsValid, waitUntil } from '../loop/loopHarness';
import { baseEnv, collect, ensureBuilt, outcomeOf, parseEvents, runCli, spawnCli, writeMcpConfig } from './cliHarness';

let fake: FakeOpenAi | undefined;
let dir: string;
before(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'sprout-cli-session-'));
});
after(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a second run resumes the session: history in the request, session budget carried, same session id', async () => {
  fake = await startFakeOpenAi({ responses: [fakeReply.text('first answer'), fakeReply.text('first answer, again'), fakeReply.text('second answer')] });
  const log = join(dir, 'nag.log');
  const config = writeMcpConfig(join(dir, 'mcp.json'), [hookServerMcpConfig('nag', hookServerConfig({ logFile: log, hooks: { _Stop: { kind: 'object', text: 'not yet' } } }))]);
  const session = join(dir, 'sessions', 'chat.jsonl');
  const env: Record<string, string> = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'nag', SPROUT_AGENT_STOP_MAX_REJECTIONS: '1' };

  const first = await runCli(['--json', '--session', session, '--mcp-config', config, 'first prompt'], { env });
  assert.equal(first.code, 4, `the model declined the objection, and the verdict says it still stands: ${first.stderr}`);
  assert.equal(readHookServerLog(log).filter((e) => e.tool === '_Stop').length, 2, 'the gate round, then the verdict after the decline');

  // The session budget of 1 was spent in the first run: the second run asks only for the final verdict,
  // and the hook still says "not yet": unresolved, exit 4.
  const second = await runCli(['--json', '--session', session, '--mcp-config', config, 'second prompt'], { env });
  assert.equal(second.code, 4, second.stderr);
  const stops = readHookServerLog(log).filter((e) => e.tool === '_Stop');
  assert.equal(stops.length, 3, 'one verdict call, no objection round');
  assert.equal((stops[2]?.meta as Record<string, { final?: boolean }>)['sprout/hook']?.final, true);
  const started = parseEvents(second.stdout)[0];
  assert.ok(started?.type === 'session_started' && started.resumed, 'the second run says it resumed');
  const outcome = outcomeOf(parseEvents(second.stdout));
  assert.equal(outcome?.reason, 'end_turn');
  assert.equal(outcome?.unresolved?.cause, 'budget_exhausted');

  const lastRequest = fake.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: string | null }> };
  const contents = lastRequest.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]);
  assert.deepEqual(contents.slice(0, 2), [
    ['user', 'first prompt'],
    ['assistant', 'first answer'],
  ]);
  assert.deepEqual(contents.slice(-2), [
    ['assistant', 'first answer, again'],
    ['user', 'second prompt'],
  ]);
  assert.ok(contents.some(([role, content]) => role === 'tool' && String(content).includes('not yet')), 'the hook pair was resumed');

  const records = readFileSync(session, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TranscriptRecord);
  const ids = records.flatMap((r) => (r.event.type === 'session_started' ? [r.event.sessionId] : []));
  assert.equal(ids.length, 2);
  assert.equal(ids[0], ids[1], 'both runs are the same session');
  assert.ok(records.every((r) => r.event.type !== 'text_delta'), 'deltas stay out of the transcript');
  assert.ok(!readFileSync(session, 'utf8').includes(env.OPENAI_API_KEY ?? '?'), 'no secret in the transcript');
  assertAllRequestsValid(fake.requests);
});

test('a torn last line (a crash mid-write) is skipped and the session goes on', async () => {
  await fake?.close();
  fake = await startFakeOpenAi({ responses: [fakeReply.text('one'), fakeReply.text('two')] });
  const session = join(dir, 'torn.jsonl');
  const env = baseEnv(fake.url);
  assert.equal((await runCli(['--session', session, 'hello'], { env })).code, 0);
  appendFileSync(session, '{"at":1,"event":{"type":"mess');
  const second = await runCli(['--session', session, 'again'], { env });
  assert.equal(second.code, 0, second.stderr);
  const messages = (fake.chatRequests().at(-1)?.body as { messages: Array<{ content: string }> }).messages.map((m) => m.content);
  assert.deepEqual(messages.slice(1), ['hello', 'one', 'again']);
  assertAllRequestsValid(fake.requests);
});

test('killed mid-answer (SIGKILL, no chance to save): the resumed session keeps what had streamed', async () => {
  await fake?.close();
  const answer = 'streamed words '.repeat(100);
  // 1500 characters in 100-character deltas; the stream stops after 10 chunks and stays open.
  fake = await startFakeOpenAi({ responses: [fakeReply.text(answer, { deltaSize: 100, hangAfterChunks: 10 }), fakeReply.text('carried on')] });
  const session = join(dir, 'killed.jsonl');
  const env = baseEnv(fake.url);
  const child = spawnCli(['--json', '--session', session, 'tell me'], { env });
  child.stdin?.end();
  const done = collect(child);
  let streamed = 0;
  child.stdout?.on('data', (d: Buffer | string) => (streamed += (String(d).match(/"text_delta"/g) ?? []).length));
  await waitUntil(() => streamed >= 9, 'nine deltas on stdout');
  child.kill('SIGKILL');
  assert.equal((await done).signal, 'SIGKILL');

  const resumed = await runCli(['--session', session, 'go on'], { env });
  assert.equal(resumed.code, 0, resumed.stderr);
  const messages = (fake.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: string | null }> }).messages.slice(1);
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
  const kept = String(messages[1]?.content);
  assert.ok(kept.length >= 512 && answer.startsWith(kept), `a prefix of the answer in saved pieces: ${kept.length} characters`);
  assertAllRequestsValid(fake.requests);
});
