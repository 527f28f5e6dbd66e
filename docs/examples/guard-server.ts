/**
 * guard: policy as a hook. A small MCP server whose one tool, `_PreToolUse`, denies any tool call
 * whose `command` argument matches a deny pattern (a regular expression, case-insensitive, one per
 * `--deny`), and allows everything else by answering empty text. Sprout calls it before each tool call
 * the model makes, before the user is asked to approve it; a denial means the call is not run.
 *
 *   npx tsx docs/examples/guard-server.ts --deny '\brm\s+-rf\b' --deny '\bgit\s+push\b'
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function denyPatterns(argv: readonly string[]): RegExp[] {
  const patterns: RegExp[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const value = argv[i + 1];
    if (argv[i] !== '--deny' || value === undefined) continue;
    patterns.push(new RegExp(value, 'i'));
    i += 1;
  }
  return patterns;
}

const patterns = denyPatterns(process.argv.slice(2));

// One server instance per connection; serveStdio answers both protocol eras (MCP 2026-07-28 and the
// older initialize handshake).
function guardServer(): McpServer {
  const server = new McpServer({ name: 'guard', version: '1.0.0' });
  server.registerTool(
    '_PreToolUse',
    { description: 'Lifecycle hook: denies tool calls whose command matches a deny pattern.', inputSchema: z.object({}) },
    (_args, ctx) => {
      // Sprout's context arrives in _meta["sprout/hook"]; it is data from another process, so check types.
      const hook = ctx.mcpReq._meta?.['sprout/hook'] as { tool?: unknown; arguments?: { command?: unknown } } | undefined;
      const command = hook?.arguments?.command;
      const hit = typeof command === 'string' ? patterns.find((pattern) => pattern.test(command)) : undefined;
      const text =
        hit === undefined
          ? ''
          : `guard: ${String(hook?.tool)} was not run: "${command}" matches the deny pattern /${hit.source}/. ` +
            'Do not retry it; find another way or ask the user to run it.';
      return { content: [{ type: 'text', text }] };
    },
  );
  return server;
}

serveStdio(guardServer, { onerror: (error) => process.stderr.write(`guard: ${String(error)}\n`) });
