/**
 * A call that a server keeps alive with progress forever (issue 32's MCP corpus): servers send
 * time-based progress heartbeats for the whole life of a call (https://github.com/Erodenn/godot-mcp-runtime/pull/30,
 * https://github.com/Advance-Technologies-Foundation/clio/pull/688), so a backend that hangs behind one
 * keeps the call "alive" for ever. Progress restarts the idle timeout, but the spec asks for a ceiling
 * regardless (https://github.com/modelcontextprotocol/typescript-sdk/pull/152, `maxTotalTimeout`;
 * https://github.com/can1357/oh-my-pi/pull/12259): the call ends at the total, in words naming it, the
 * server is told to cancel and stays usable, and the turn goes on. Played by the real reference server
 * (@modelcontextprotocol/server-everything, stdio), whose long-running tool reports progress each step.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { openRig, type Rig } from './loopHarness';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test('a call kept alive by progress for ever ends at the total time with words naming it, and the turn and the server go on (https://github.com/modelcontextprotocol/typescript-sdk/pull/152)', async () => {
  rig = await openRig({
    servers: [],
    extraServers: [{ name: 'everything', transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} } }],
    // Idle 1.5 s, total 6 s: progress comes every 0.1 s, so only the total can end the call.
    settings: { toolTimeoutMs: 1500, toolMaxTotalMs: 6000 },
    responses: [
      fakeReply.toolCalls([{ name: 'everything__trigger-long-running-operation', arguments: { duration: 3600, steps: 36000 } }]),
      fakeReply.toolCalls([{ name: 'everything__echo', arguments: { message: 'still there' } }]),
      fakeReply.text('Done.'),
    ],
  });
  const outcome = await rig.runtime.session.run('run the long one');
  assert.equal(outcome.reason, 'end_turn');
  assert.ok(rig.of('tool_progress').length > 1, 'the server reported progress while the call ran');
  const [long, echo] = rig.of('tool_finished');
  assert.equal(long?.isError, true);
  assert.match(long?.text ?? '', /still running after 6000 ms \(the most progress may extend it\) and was cancelled/);
  assert.equal(echo?.isError, false, echo?.text);
  assert.match(echo?.text ?? '', /still there/);
});
