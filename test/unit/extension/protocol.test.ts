import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostMessageSchema, webviewMessageSchema } from '../../../src/shared/protocol';

test('webview messages are validated: good ones pass, malformed ones are rejected', () => {
  assert.ok(webviewMessageSchema.safeParse({ type: 'ready' }).success);
  assert.ok(webviewMessageSchema.safeParse({ type: 'approve', approvalId: 'a', scope: 'chat' }).success);
  assert.equal(webviewMessageSchema.safeParse({ type: 'approve', approvalId: 'a', scope: 'forever' }).success, false);
  assert.equal(webviewMessageSchema.safeParse({ type: 'send', text: '' }).success, false);
  assert.ok(webviewMessageSchema.safeParse({ type: 'send', text: 'plan it', mode: 'plan' }).success);
  assert.equal(webviewMessageSchema.safeParse({ type: 'send', text: 'hi', mode: 'build' }).success, false, 'a mode the core does not know is rejected');
  assert.equal(webviewMessageSchema.safeParse({ type: 'runShell', cmd: 'rm -rf /' }).success, false);
  assert.equal(webviewMessageSchema.safeParse('ready').success, false);
});

test('host messages are validated', () => {
  assert.ok(hostMessageSchema.safeParse({ type: 'delta', id: 'e1', text: 'x' }).success);
  assert.ok(hostMessageSchema.safeParse({ type: 'entry', entry: { kind: 'outcome', id: 'e2', reason: 'cancelled' } }).success);
  assert.equal(hostMessageSchema.safeParse({ type: 'entry', entry: { kind: 'tool', id: 'x' } }).success, false);
});
