/**
 * A provider's refusal of the number of tools, named with the servers (src/model/toolCountRefusal.ts).
 * The words are providers' own: OpenAI's (https://github.com/0x4m4/hexstrike-ai/issues/29), and the
 * same through Copilot (https://github.com/anomalyco/opencode/issues/4909).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isToolCountRefusal, toolCountError, toolsByServer } from '../../../src/model/toolCountRefusal';

test('OpenAI\'s and gateways\' words for too many tools are recognised, other refusals are not', () => {
  assert.ok(isToolCountRefusal("Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 150 instead."));
  assert.ok(isToolCountRefusal('Request has too many tools: 300 (max 128)'));
  assert.ok(!isToolCountRefusal("Invalid 'tools[0].function.name': string does not match pattern."));
  assert.ok(!isToolCountRefusal("Invalid 'messages': array too long."));
});

test('the error names each server with its count and the way to narrow them', () => {
  const names = [...Array.from({ length: 140 }, (_, i) => `github__t${i}`), 'files__files.read', 'files__a/b'];
  assert.equal(toolsByServer(names), 'github (140), files (2)');
  const error = toolCountError("Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 142 instead.", names, 'The model endpoint https://api.example/v1 (m)', 400);
  assert.equal(error?.kind, 'bad_request');
  assert.match(error?.message ?? '', /refused the request's 142 tools \(it said: Invalid 'tools': array too long/);
  assert.match(error?.message ?? '', /MCP servers github \(140\), files \(2\)\. Turn off the servers or tools this task does not need .*--tools/);
  assert.equal(toolCountError('rate limited', names, 'x'), undefined);
  assert.equal(toolCountError("Invalid 'tools': array too long.", [], 'x'), undefined, 'a request without tools is not about them');
});
