// The tool picker's boxes as a pure rule (src/extension/chat/toolPickRule.ts): a tool's own box, then a
// group (server, tool set) whose box the user changed turns all of its tools that way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickedOn, type PickItem } from '../../../src/extension/chat/toolPickRule';
import type { ToolInfo } from '../../../src/agent/messages';

const tool = (server: string, bareName: string): ToolInfo => ({
  server, bareName, qualifiedName: `${server}__${bareName}`, description: '', inputSchema: {}, annotations: {}, isHook: false,
});
const read = { tools: [tool('ws', 'read')] };
const write = { tools: [tool('ws', 'write')] };
const issue = { tools: [tool('gh', 'issue')] };
const ws = { tools: [...read.tools, ...write.tools] };
const gh = { tools: issue.tools };
const reader = { tools: [...read.tools, ...issue.tools] };
const ITEMS: PickItem[] = [reader, ws, read, write, gh, issue];
const sorted = (on: Set<string>): string[] => [...on].sort();

test('unchanged groups: each tool\'s own box decides', () => {
  const groups = new Map([[reader, true], [ws, true], [gh, true]]);
  assert.deepEqual(sorted(pickedOn(ITEMS, new Set([reader, ws, gh, read, issue]), groups)), ['gh__issue', 'ws__read']);
});

test('a server unchecked turns all of its tools off though their boxes stay checked; checked turns them all on', () => {
  const allOn = new Map([[reader, true], [ws, true], [gh, true]]);
  assert.deepEqual(sorted(pickedOn(ITEMS, new Set([reader, gh, read, write, issue]), allOn)), ['gh__issue']);
  const wsOff = new Map([[reader, false], [ws, false], [gh, true]]);
  assert.deepEqual(sorted(pickedOn(ITEMS, new Set([ws, gh, issue]), wsOff)), ['gh__issue', 'ws__read', 'ws__write']);
});

test('a tool set checked turns its tools on across servers', () => {
  const groups = new Map([[reader, false], [ws, false], [gh, false]]);
  assert.deepEqual(sorted(pickedOn(ITEMS, new Set([reader]), groups)), ['gh__issue', 'ws__read']);
});
