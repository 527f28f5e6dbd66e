/**
 * A hook server built with `fastmcp` (the TypeScript framework many servers use), run as a real child
 * process over its `httpStream` transport on 127.0.0.1:<port>: `echo` and a `_Stop` hook objecting
 * with the text in FASTMCP_OBJECTION. Prints "listening" once it serves.
 *
 *   node --import tsx test/fakes/fastmcpServer.ts <port>
 */
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const port = Number(process.argv[2]);
const server = new FastMCP({ name: 'fastmcp-hooks', version: '1.0.0' });
server.addTool({ name: 'echo', description: 'Echoes its text.', parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
server.addTool({ name: '_Stop', description: 'Lifecycle hook.', parameters: z.object({}), execute: async () => process.env.FASTMCP_OBJECTION ?? '' });
server
  .start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1' } })
  .then(() => process.stdout.write('listening\n'))
  .catch((error: unknown) => {
    process.stderr.write(`fastmcp server: ${String(error)}\n`);
    process.exit(1);
  });
