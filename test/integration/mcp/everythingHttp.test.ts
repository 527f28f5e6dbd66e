/**
 * McpHub against the real reference server (@modelcontextprotocol/server-everything) over Streamable
 * HTTP on 127.0.0.1: progress notifications reach the caller, a task-required tool runs as a task (an
 * aborted one lets go at once), a form question is answered (accepted) or declined through
 * the host's handler with the answers checked against the form, and roots/list gets the host's roots.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { ElicitationAnswer, ElicitationRequest } from '../../../src/agent/messages';
import type { ToolHostEvent, ToolProgress } from '../../../src/agent/ports';
import { McpHub } from '../../../src/mcp/mcpHub';
import { freePort, signal, waitFor } from './mcpHarness';
import { waitFor as sharedWaitFor } from '../../waitFor';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

describe('McpHub with server-everything over Streamable HTTP', () => {
  let server: ChildProcess;
  let hub: McpHub;
  const events: ToolHostEvent[] = [];
  const questions: ElicitationRequest[] = [];
  let nextAnswer: ElicitationAnswer = { action: 'decline' };
  let roots = [{ uri: 'file:///work/project', name: 'project' }];

  before(async () => {
    const port = await freePort();
    server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await waitFor(() => stderr.includes('listening on port'), 'server-everything to listen', 20_000);
    hub = new McpHub([{ name: 'everything', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} } }], {
      features: {
        elicitation: { by: 'user', answer: async (request) => (questions.push(request), nextAnswer) },
        roots: () => roots,
      },
    });
    hub.subscribe((event) => events.push(event));
    // Some tools are registered only once the server knows the client's capabilities (list_changed).
    await hub.listTools();
    await waitFor(() => hub.cachedTools()?.some((t) => t.bareName === 'simulate-research-query'), 'the conditional tools to be listed', 20_000);
  });
  after(async () => {
    await hub?.close();
    server?.kill('SIGKILL');
  });

  it('reports progress of a long-running call', async () => {
    const progress: ToolProgress[] = [];
    const result = await hub.callTool('everything', 'trigger-long-running-operation', { duration: 1, steps: 4 }, { signal: signal(), onProgress: (p) => progress.push(p) });
    assert.equal(result.isError, false, result.text);
    assert.ok(progress.length >= 3, JSON.stringify(progress));
    assert.deepEqual(progress.slice(0, 3), [1, 2, 3].map((n) => ({ progress: n, total: 4 })));
  });

  it('runs a task-required tool as a task, with its status as progress', async () => {
    const tool = hub.cachedTools()?.find((t) => t.bareName === 'simulate-research-query');
    assert.equal(tool?.taskSupport, 'required');
    const progress: ToolProgress[] = [];
    const result = await hub.callTool('everything', 'simulate-research-query', { topic: 'roots' }, { signal: signal(), onProgress: (p) => progress.push(p) });
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /Research Report: roots/);
    assert.ok(progress.some((p) => p.message?.startsWith('working')), JSON.stringify(progress));
  });

  it('an aborted task call rejects at once', async () => {
    const controller = new AbortController();
    const call = hub.callTool('everything', 'simulate-research-query', { topic: 'abandoned' }, { signal: controller.signal, onProgress: () => controller.abort() });
    await assert.rejects(call, (error: Error) => error.name === 'AbortError');
  });

  it('a question is answered through the host: accepted with checked content', async () => {
    nextAnswer = { action: 'accept', content: { name: 'Grace Hopper', integer: 9 } };
    const result = await hub.callTool('everything', 'trigger-elicitation-request', {}, { signal: signal() });
    assert.match(result.text, /- Name: Grace Hopper/);
    assert.equal(questions.at(-1)?.server, 'everything');
    const answered = events.filter((e) => e.type === 'elicitation_answered').at(-1);
    assert.deepEqual(answered?.type === 'elicitation_answered' ? [answered.action, answered.by] : [], ['accept', 'user']);
  });

  it('an answer that does not fit the form is declined, never sent', async () => {
    nextAnswer = { action: 'accept', content: { integer: 5000 } };
    const result = await hub.callTool('everything', 'trigger-elicitation-request', {}, { signal: signal() });
    assert.match(result.text, /declined/);
  });

  it('roots/list is answered with the host roots, and asked again after roots/list_changed', async () => {
    const result = await hub.callTool('everything', 'get-roots-list', {}, { signal: signal() });
    assert.match(result.text, /file:\/\/\/work\/project/);
    roots = [{ uri: 'file:///work/other', name: 'other' }];
    await hub.rootsChanged();
    // The server asks again on its own schedule: poll its view of the roots.
    const text = await sharedWaitFor(async () => {
      const roots = (await hub.callTool('everything', 'get-roots-list', {}, { signal: signal() })).text;
      return roots.includes('file:///work/other') && roots;
    }, 'the server to see the changed roots', { everyMs: 100 });
    assert.match(text, /file:\/\/\/work\/other/);
    assert.doesNotMatch(text, /file:\/\/\/work\/project/);
  });
});
