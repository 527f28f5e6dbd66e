// The Node-side runtime parts on real files and timers: the JSON-lines transcript survives a torn last
// line, the clock's sleep ends early on abort, the logger never prints secrets, and the bundled server
// configs launch the built files under this executable.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { bundledServerConfig } from '../../../src/runtime/bundledServers';
import { JsonlTranscriptStore } from '../../../src/runtime/jsonlTranscriptStore';
import { NodeClock } from '../../../src/platform/nodeClock';
import { REDACTED, StreamLogger } from '../../../src/runtime/streamLogger';

function recordingStream(): { lines: string[]; write(chunk: string): void } {
  const lines: string[] = [];
  return { lines, write: (chunk: string) => void lines.push(chunk) };
}

describe('JsonlTranscriptStore', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sprout-transcript-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends one line per record and loads them back in order', async () => {
    const path = join(dir, 'nested', 'session.jsonl');
    const store = new JsonlTranscriptStore(path);
    store.append({ at: 1, event: { type: 'prompt_started', text: 'hi "there"\nline' } });
    store.append({ at: 2, event: { type: 'round_started', round: 1 } });
    await store.flush();
    assert.equal(readFileSync(path, 'utf8').split('\n').filter(Boolean).length, 2);
    const loaded = await new JsonlTranscriptStore(path).load();
    assert.deepEqual(loaded, [
      { at: 1, event: { type: 'prompt_started', text: 'hi "there"\nline' } },
      { at: 2, event: { type: 'round_started', round: 1 } },
    ]);
  });

  it('skips a torn last line with a warning and keeps appending on a fresh line', async () => {
    const path = join(dir, 's.jsonl');
    writeFileSync(path, `${JSON.stringify({ at: 1, event: { type: 'round_started', round: 1 } })}\n{"at":2,"event":{"type":"rou`);
    const warnings = recordingStream();
    const logger = new StreamLogger(warnings);
    assert.equal((await new JsonlTranscriptStore(path, { logger }).load()).length, 1);
    assert.match(warnings.lines.join(''), /torn last line/);
    const store = new JsonlTranscriptStore(path, { logger });
    store.append({ at: 3, event: { type: 'round_started', round: 2 } });
    const loaded = await store.load();
    assert.deepEqual(
      loaded.map((r) => r.at),
      [1, 3],
    );
  });

  it('loads nothing from a missing file and ignores non-record lines', async () => {
    assert.deepEqual(await new JsonlTranscriptStore(join(dir, 'none.jsonl')).load(), []);
    const path = join(dir, 'odd.jsonl');
    appendFileSync(path, '42\n{"at":"x"}\n\n');
    assert.deepEqual(await new JsonlTranscriptStore(path).load(), []);
  });
});

describe('NodeClock', () => {
  it('sleeps at least as asked and wakes early on abort without rejecting', async () => {
    const clock = new NodeClock();
    const start = clock.now();
    await clock.sleep(50);
    assert.ok(clock.now() - start >= 45, 'a lower bound: a busy machine only makes the sleep longer');
    // A sleep of hours: only the abort can end it before the test's hang guard, and the file's leak
    // check fails it if its timer outlives the abort.
    const controller = new AbortController();
    const sleeping = clock.sleep(6 * 3_600_000, controller.signal);
    controller.abort();
    await sleeping;
    await clock.sleep(6 * 3_600_000, controller.signal); // already aborted: immediate
  });
});

describe('StreamLogger', () => {
  it('redacts the API key, bearer tokens and secret-looking fields', () => {
    const out = recordingStream();
    const logger = new StreamLogger(out, { secrets: ['my-super-secret-key'], level: 'debug' });
    logger.info('calling with my-super-secret-key and Authorization: Bearer abc.def.ghi', {
      headers: { 'x-api-key': 'zzz' },
      apiKey: 'sk-1234567890abcdef',
      note: 'ok sk-abcdefghijklmnop',
      nested: { token: 'secret-token' },
    });
    const text = out.lines.join('');
    for (const secret of ['my-super-secret-key', 'abc.def.ghi', 'zzz', 'sk-1234567890abcdef', 'sk-abcdefghijklmnop', 'secret-token']) {
      assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
    }
    assert.ok(text.includes(REDACTED));
    assert.ok(text.includes('ok'));
  });

  it('drops entries under its level', () => {
    const out = recordingStream();
    const logger = new StreamLogger(out, { level: 'warn' });
    logger.info('quiet');
    logger.warn('loud');
    assert.deepEqual(out.lines, ['[warn] loud\n']);
  });
});

describe('bundledServerConfig', () => {
  it('runs dist/servers/<name>.js under this executable with ELECTRON_RUN_AS_NODE', () => {
    const config = bundledServerConfig('todo', { distDir: '/opt/dist', workspaceFolder: '/ws', stateDir: '/state' });
    assert.deepEqual(config, {
      name: 'todo',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: ['/opt/dist/servers/todo.js', '--root', '/ws', '--state-dir', '/state/todo'],
        env: { ELECTRON_RUN_AS_NODE: '1' },
        cwd: '/ws',
      },
    });
  });
});
