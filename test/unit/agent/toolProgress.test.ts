// The tool timeout with progress: each report restarts the idle timeout, never past the max total;
// reports become tool_progress events (repeats skipped); an isError result is marked for the model.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markToolError } from '../../../src/agent/toolRunner';
import { runWithIdleTimeout } from '../../../src/agent/toolTimeout';
import { NodeClock } from '../../../src/platform/nodeClock';
import type { ToolHandler } from '../../fakes/InMemoryToolHost';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

const clock = new NodeClock();
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reports progress every `everyMs`, `times` times, then answers (or keeps reporting forever). */
function reporting(everyMs: number, times: number, message?: string): ToolHandler {
  return async (_args, options) => {
    for (let i = 1; times < 0 || i <= times; i++) {
      await tick(everyMs);
      if (options.signal.aborted) throw new Error('request cancelled');
      options.onProgress?.({ progress: i, total: times, ...(message !== undefined ? { message } : {}) });
    }
    return 'finished';
  };
}

test('progress keeps a call alive past the idle timeout', async () => {
  const result = await runWithIdleTimeout(clock, { idleMs: 150, maxTotalMs: 10_000 }, async (signal, touch) => {
    for (let i = 0; i < 6; i++) {
      await tick(60);
      touch();
    }
    return signal.aborted ? 'aborted' : 'done';
  }, new AbortController().signal);
  assert.deepEqual(result, { kind: 'done', value: 'done' });
});

test('without progress the idle timeout fires and aborts the work', async () => {
  let aborted = false;
  const result = await runWithIdleTimeout(clock, { idleMs: 80, maxTotalMs: 10_000 }, (signal) => new Promise<never>(() => signal.addEventListener('abort', () => (aborted = true))), new AbortController().signal);
  assert.deepEqual(result, { kind: 'timeout', why: 'idle' });
  assert.equal(aborted, true);
});

test('progress never extends a call past the max total', async () => {
  const result = await runWithIdleTimeout(clock, { idleMs: 100, maxTotalMs: 300 }, async (signal, touch) => {
    while (!signal.aborted) {
      await tick(20);
      touch();
    }
    return 'never';
  }, new AbortController().signal);
  assert.deepEqual(result, { kind: 'timeout', why: 'total' });
});

test('cancel wins over a running call', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 30);
  const result = await runWithIdleTimeout(clock, { idleMs: 10_000, maxTotalMs: 10_000 }, () => new Promise<never>(() => undefined), controller.signal);
  assert.deepEqual(result, { kind: 'cancelled' });
});

test('the loop emits tool_progress (repeats skipped) and finishes a call that reports progress', async () => {
  const h = await harness({
    servers: [{ name: 'job', tools: { build: reporting(40, 5), poll: reporting(30, 3, 'working') } }],
    settings: settings({ toolTimeoutMs: 100, toolMaxTotalMs: 5000 }),
    script: [reply.tools(call('job__build', {}, 'b'), call('job__poll', {}, 'p')), reply.text('ok')],
  });
  const outcome = await h.session.run('go');
  assert.equal(outcome.reason, 'end_turn');
  const build = h.of('tool_progress').filter((e) => e.callId === 'b');
  assert.deepEqual(build.map((e) => [e.progress, e.total, e.name]), [1, 2, 3, 4, 5].map((n) => [n, 5, 'job__build']));
  assert.deepEqual(h.of('tool_finished').map((e) => [e.callId, e.isError]).sort(), [['b', false], ['p', false]]);
});

test('a task that only repeats its status emits it once', async () => {
  const sameStatus: ToolHandler = async (_args, options) => {
    for (let i = 0; i < 4; i++) {
      await tick(20);
      options.onProgress?.({ message: 'working' });
    }
    return 'done';
  };
  const h = await harness({ servers: [{ name: 't', tools: { run: sameStatus } }], script: [reply.tools(call('t__run', {}, 'r')), reply.text('ok')] });
  await h.session.run('go');
  assert.deepEqual(h.of('tool_progress').map((e) => e.message), ['working']);
});

test('an isError result is marked so the model cannot read it as success', async () => {
  assert.equal(markToolError('File written'), 'Error: File written');
  assert.equal(markToolError('Error: disk full'), 'Error: disk full');
  assert.equal(markToolError('error while reading'), 'error while reading');
  assert.equal(markToolError(''), 'Error: the tool reported an error without a message');
  const h = await harness({
    servers: [{ name: 'fs', tools: { write: () => ({ isError: true, text: 'File written' }) } }],
    script: [reply.tools(call('fs__write', {}, 'w')), reply.text('ok')],
  });
  await h.session.run('go');
  const tool = h.session.state.history.find((m) => m.role === 'tool');
  assert.equal(tool?.role === 'tool' ? tool.content : '', 'Error: File written');
});
