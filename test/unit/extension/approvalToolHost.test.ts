import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolHost, ToolHostEvent } from '../../../src/agent/ports';
import type { ToolInfo } from '../../../src/agent/messages';
import { ApprovalToolHost, DENIED_RESULT, type ApprovalAnswer, type ApprovalRequest } from '../../../src/extension/approvals/approvalToolHost';

function tool(server: string, bareName: string, readOnlyHint?: boolean): ToolInfo {
  return { server, bareName, qualifiedName: `${server}__${bareName}`, description: '', inputSchema: {}, annotations: readOnlyHint === undefined ? {} : { readOnlyHint }, isHook: bareName.startsWith('_') };
}

class RecordingToolHost implements ToolHost {
  calls: string[] = [];
  metas: (Record<string, unknown> | undefined)[] = [];
  listeners = new Set<(e: ToolHostEvent) => void>();
  constructor(readonly tools: ToolInfo[]) {}
  serverNames() { return [...new Set(this.tools.map((t) => t.server))]; }
  async listTools() { return this.tools; }
  async callTool(server: string, bare: string, _args: Record<string, unknown>, options: { meta?: Record<string, unknown> }) {
    this.calls.push(`${server}__${bare}`);
    this.metas.push(options.meta);
    return { isError: false, text: 'done' };
  }
  async killServer() {}
  subscribe(l: (e: ToolHostEvent) => void) { this.listeners.add(l); return () => this.listeners.delete(l); }
}

function setup(answers: ApprovalAnswer[], auto: string[] = []) {
  const inner = new RecordingToolHost([tool('ws', 'read', true), tool('ws', 'write'), tool('ws', 'run', false), tool('tests', '_Stop')]);
  const asked: ApprovalRequest[] = [];
  const allowed: string[] = [];
  const host = new ApprovalToolHost(() => inner, {
    autoApproved: (name) => auto.includes(name) || allowed.includes(name),
    protectedTarget: () => undefined,
    ask: async (r) => { asked.push(r); return answers.shift() ?? 'deny'; },
    allowInWorkspace: async (name) => { allowed.push(name); },
  });
  const opts = { signal: new AbortController().signal };
  return { inner, host, asked, allowed, opts };
}

test('read-only tools and hooks run without asking; others ask', async () => {
  const { host, inner, asked, opts } = setup(['once']);
  await host.callTool('ws', 'read', {}, opts);
  await host.callTool('tests', '_Stop', {}, opts);
  assert.equal(asked.length, 0);
  await host.callTool('ws', 'write', { path: 'a' }, opts);
  assert.deepEqual(asked.map((a) => [a.qualifiedName, a.args]), [['ws__write', { path: 'a' }]]);
  assert.deepEqual(inner.calls, ['ws__read', 'tests___Stop', 'ws__write']);
});

test('deny returns an error result and never calls the server', async () => {
  const { host, inner, opts } = setup(['deny']);
  const result = await host.callTool('ws', 'run', {}, opts);
  assert.deepEqual(result, { isError: true, text: DENIED_RESULT });
  assert.deepEqual(inner.calls, []);
});

test('allow once asks again; allow for this chat does not; workspace is persisted through the policy', async () => {
  const { host, asked, allowed, opts } = setup(['once', 'chat', 'workspace']);
  await host.callTool('ws', 'write', {}, opts);
  await host.callTool('ws', 'write', {}, opts);
  await host.callTool('ws', 'write', {}, opts);
  assert.equal(asked.length, 2);
  await host.callTool('ws', 'run', {}, opts);
  await host.callTool('ws', 'run', {}, opts);
  assert.equal(asked.length, 3);
  assert.deepEqual(allowed, ['ws__run']);
});

test('autoApprove setting skips the question; subscriptions follow a swapped inner host', async () => {
  const { host, asked, opts } = setup([], ['ws__write']);
  await host.callTool('ws', 'write', {}, opts);
  assert.equal(asked.length, 0);
  let current = new RecordingToolHost([]);
  const swapping = new ApprovalToolHost(() => current, { autoApproved: () => true, protectedTarget: () => undefined, ask: async () => 'deny', allowInWorkspace: async () => {} });
  const seen: string[] = [];
  swapping.subscribe((e) => seen.push(e.type));
  const next = new RecordingToolHost([]);
  current = next;
  swapping.innerChanged();
  for (const l of next.listeners) l({ type: 'tools_changed', server: 'x' });
  assert.deepEqual(seen, ['tools_changed']);
});

test('authorize asks before the timed call; callTool then runs that call without asking again', async () => {
  const { host, inner, asked, opts } = setup(['once', 'deny']);
  const args = { path: 'a' };
  assert.equal(await host.authorize('ws', 'write', args, opts.signal), undefined);
  assert.equal(asked.length, 1);
  await host.callTool('ws', 'write', args, opts);
  assert.equal(asked.length, 1, 'the authorized call is not asked about twice');
  assert.deepEqual(inner.calls, ['ws__write']);
  // The pass is for that one call: the same arguments object again, or any other, is asked about.
  assert.deepEqual(await host.callTool('ws', 'write', args, opts), { isError: true, text: DENIED_RESULT });
  assert.equal(asked.length, 2);
  assert.deepEqual(inner.calls, ['ws__write']);
});

test('authorize returns the denial as the result and lets read-only tools and hooks through unasked', async () => {
  const { host, inner, asked, opts } = setup(['deny']);
  assert.deepEqual(await host.authorize('ws', 'run', {}, opts.signal), { isError: true, text: DENIED_RESULT });
  assert.equal(await host.authorize('ws', 'read', {}, opts.signal), undefined);
  assert.equal(await host.authorize('tests', '_Stop', {}, opts.signal), undefined);
  assert.equal(asked.length, 1);
  assert.deepEqual(inner.calls, []);
});
