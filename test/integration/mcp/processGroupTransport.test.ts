// A message to a server that dies before reading it: the send must settle (as a failure), never wait
// for a 'drain' that cannot come. That wait once left a hook server's start hanging for good when the
// agent killed it right after it answered initialize (the SDK awaits the `initialized` notification),
// and with it every later hook call to that server and the hub's close() (worstCaseBound.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ProcessGroupTransport } from '../../../src/mcp/processGroupTransport';

/** A child that never reads its stdin, so a large enough message stays queued in our pipe. */
function deafServer(): ProcessGroupTransport {
  return new ProcessGroupTransport({ server: 'deaf', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: { PATH: process.env.PATH ?? '' } });
}

test('a send still queued when the server is killed fails instead of waiting forever', async () => {
  const transport = deafServer();
  await transport.start();
  // Far past the pipe's kernel buffer and the stream's high-water mark: it cannot all be written.
  const big: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(4 * 1024 * 1024) } };
  const sent = transport.send(big);
  const settled = sent.then(
    () => 'sent',
    (error: Error) => error.message,
  );
  await transport.kill();
  assert.match(await settled, /MCP server "deaf" is not running \(.+\)/);
  await assert.rejects(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }), /MCP server "deaf" is not running/);
});

test('a server that exits at once: its sends fail saying how it ended (exit code and stderr), not only EPIPE', async () => {
  // Whichever comes first, the broken pipe or the exit event, the error names the exit: on a busy
  // machine a restart's initialize once failed with "write EPIPE" alone, hiding the server's own words.
  for (let run = 0; run < 5; run++) {
    const transport = new ProcessGroupTransport({ server: 'dies', command: process.execPath, args: ['-e', 'console.error("bad config here"); process.exit(7)'], env: { PATH: process.env.PATH ?? '' } });
    await transport.start();
    try {
      let failure: string | undefined;
      // A first write may still fit the pipe before the process is gone; the next ones cannot.
      for (let i = 0; i < 1000 && failure === undefined; i++) {
        failure = await transport.send({ jsonrpc: '2.0', id: i, method: 'initialize', params: { data: 'x'.repeat(64 * 1024) } } as JSONRPCMessage).then(
          () => undefined,
          (error: Error) => error.message,
        );
      }
      assert.match(failure ?? 'every send was taken', /MCP server "dies" is not running \(exited with code 7; last stderr: bad config here\)/);
    } finally {
      await transport.kill();
    }
  }
});

test('control: a send the server can take resolves', async () => {
  const transport = new ProcessGroupTransport({ server: 'reader', command: process.execPath, args: ['-e', "process.stdin.on('data', () => {})"], env: { PATH: process.env.PATH ?? '' } });
  await transport.start();
  try {
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  } finally {
    await transport.kill();
  }
});
