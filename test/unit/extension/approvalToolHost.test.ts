// ApprovalToolHost over an InMemoryToolHost: which calls run unasked (hooks, read-only tools, the
// autoApprove setting, "allow for this chat"), which are asked about and denied, and that questions
// and answers reach subscribers as events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolHostEvent } from '../../../src/agent/ports';
import { ApprovalToolHost, DENIED_RESULT, type ApprovalAnswer, type ApprovalRequest } from '../../../src/extension/approvals/approvalToolHost';
import { InMemoryToolHost } from '../../fakes/InMemoryToolHost';

const done = (): string => 'done';

function setup(answers: ApprovalAnswer[], auto: string[] = []) {
  const inner = new InMemoryToolHost([
    { name: 'ws', tools: { read: done, write: done, run: done }, annotations: { read: { readOnlyHint: true }, run: { readOnlyHint: false } } },
    { name: 'tests', tools: { _Stop: done } },
  ]);
  const called = (): string[] => inner.calls.map((c) => `${c.server}__${c.tool}`);
  const asked: ApprovalRequest[] = [];
  const allowed: string[] = [];
  const host = new ApprovalToolHost(inner, {
    protectedTarget: () => undefined,
    autoApproved: (name) => auto.includes(name) || allowed.includes(name),
    ask: async (r) => { asked.push(r); return answers.shift() ?? 'deny'; },
    allowInWorkspace: async (name) => { allowed.push(name); },
  });
  const opts = { signal: new AbortController().signal };
  return { inner, host, asked, allowed, opts, called };
}

test('read-only tools and hooks run without asking; others ask', async () => {
  const { host, asked, opts, called } = setup(['once']);
  await host.callTool('ws', 'read', {}, opts);
  await host.callTool('tests', '_Stop', {}, opts);
  assert.equal(asked.length, 0);
  await host.callTool('ws', 'write', { path: 'a' }, opts);
  assert.deepEqual(asked.map((a) => [a.qualifiedName, a.args]), [['ws__write', { path: 'a' }]]);
  assert.deepEqual(called(), ['ws__read', 'tests___Stop', 'ws__write']);
});

test('deny returns an error result and never calls the server', async () => {
  const { host, opts, called } = setup(['deny']);
  const result = await host.callTool('ws', 'run', {}, opts);
  assert.deepEqual(result, { isError: true, text: DENIED_RESULT });
  assert.deepEqual(called(), []);
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

test('autoApprove setting skips the question', async () => {
  const { host, asked, opts } = setup([], ['ws__write']);
  await host.callTool('ws', 'write', {}, opts);
  assert.equal(asked.length, 0);
});

test('read-only is judged by the listing the inner host has now, not by an earlier one', async () => {
  const { host, inner, asked, opts } = setup(['deny']);
  await host.callTool('ws', 'read', {}, opts);
  assert.equal(asked.length, 0);
  // The server changed (a new configuration): `read` now writes.
  inner.servers[0]!.annotations = { read: { readOnlyHint: false } };
  assert.deepEqual(await host.callTool('ws', 'read', {}, opts), { isError: true, text: DENIED_RESULT });
  assert.deepEqual(asked.map((a) => a.qualifiedName), ['ws__read']);
});

test('authorize asks before the timed call; callTool then runs that call without asking again', async () => {
  const { host, asked, opts, called } = setup(['once', 'deny']);
  const args = { path: 'a' };
  assert.equal(await host.authorize('ws', 'write', args, opts.signal), undefined);
  assert.equal(asked.length, 1);
  await host.callTool('ws', 'write', args, opts);
  assert.equal(asked.length, 1, 'the authorized call is not asked about twice');
  assert.deepEqual(called(), ['ws__write']);
  // The pass is for that one call: the same arguments object again, or any other, is asked about.
  assert.deepEqual(await host.callTool('ws', 'write', args, opts), { isError: true, text: DENIED_RESULT });
  assert.equal(asked.length, 2);
  assert.deepEqual(called(), ['ws__write']);
});

test('authorize returns the denial as the result and lets read-only tools and hooks through unasked', async () => {
  const { host, asked, opts, called } = setup(['deny']);
  assert.deepEqual(await host.authorize('ws', 'run', {}, opts.signal), { isError: true, text: DENIED_RESULT });
  assert.equal(await host.authorize('ws', 'read', {}, opts.signal), undefined);
  assert.equal(await host.authorize('tests', '_Stop', {}, opts.signal), undefined);
  assert.equal(asked.length, 1);
  assert.deepEqual(called(), []);
});

test('each question and its answer reach subscribers as events, with the id the policy was asked with', async () => {
  const { host, inner, asked, opts } = setup(['chat', 'deny']);
  const seen: ToolHostEvent[] = [];
  const stop = host.subscribe((event) => seen.push(event));
  await host.callTool('ws', 'read', {}, opts);
  await host.callTool('ws', 'write', {}, opts);
  await host.callTool('ws', 'write', {}, opts);
  await host.callTool('ws', 'run', {}, opts);
  inner.fire({ type: 'tools_changed', server: 'ws' });
  const [first, second] = asked;
  assert.ok(first && second && first.approvalId !== second.approvalId);
  assert.deepEqual(seen, [
    { type: 'approval_requested', approvalId: first.approvalId, name: 'ws__write', scopes: ['once', 'chat', 'workspace'] },
    { type: 'approval_resolved', approvalId: first.approvalId, name: 'ws__write', answer: 'chat' },
    { type: 'approval_requested', approvalId: second.approvalId, name: 'ws__run', scopes: ['once', 'chat', 'workspace'] },
    { type: 'approval_resolved', approvalId: second.approvalId, name: 'ws__run', answer: 'deny' },
    { type: 'tools_changed', server: 'ws' },
  ]);
  stop();
  assert.equal(inner.listenerCount, 0);
  await host.callTool('ws', 'run', {}, opts);
  assert.equal(seen.length, 5, 'nothing after unsubscribing');
});
