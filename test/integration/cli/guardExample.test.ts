// The guard example of docs/hooks.md, run for real: the copy in the document is the file in
// docs/examples, and that server, allowlisted through the CLI, denies a matching command before it
// runs (the tool never sees it) while other calls go through; `hooks check` shows the same verdict.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import type { McpServerConfig } from '../../../src/mcp/config';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, readHookServerLog } from '../../fakes/hookServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { REPO_ROOT, baseEnv, parseEvents, runCli, writeMcpConfig } from './cliHarness';
import { cliFixture } from './cliRun';

const GUARD = join(REPO_ROOT, 'docs', 'examples', 'guard-server.ts');
const cli = cliFixture('sprout-guard-');

function guardConfig(): McpServerConfig {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return { name: 'guard', transport: { type: 'stdio', command: process.execPath, args: ['--import', tsx, GUARD, '--deny', '\\brm\\s+-rf\\b', '--deny', '\\bgit\\s+push\\b'], env: {} } };
}

test('docs/hooks.md carries the guard server exactly as docs/examples/guard-server.ts', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'hooks.md'), 'utf8');
  const block = /<!-- guard-server:begin -->\n```ts\n([\s\S]*?)```\n<!-- guard-server:end -->/.exec(doc)?.[1];
  assert.equal(block, readFileSync(GUARD, 'utf8'));
});

test('the guard denies a matching command before it runs; other calls run; hooks check agrees', async () => {
  const fake = await cli.startFake({
    responses: [
      fakeReply.toolCalls([
        { id: 'bad', name: 'work__run_command', arguments: { command: 'rm -rf build' } },
        { id: 'good', name: 'work__run_command', arguments: { command: 'ls build' } },
      ]),
      fakeReply.text('cleaned up without rm'),
    ],
  });
  const workLog = join(cli.dir, 'work.log');
  const runCommand = { name: 'run_command', inputSchema: { type: 'object', properties: { command: { type: 'string' } } }, behaviour: { kind: 'text' as const, text: 'ran' } };
  const mcp = writeMcpConfig(join(cli.dir, 'mcp.json'), [hookServerMcpConfig('work', hookServerConfig({ logFile: workLog, extraTools: [runCommand] })), guardConfig()]);
  const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'guard' };
  const result = await runCli(['--json', '--mcp-config', mcp, 'clean the build folder'], { env, timeoutMs: 60_000 });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(readHookServerLog(workLog).filter((e) => e.tool === 'run_command').map((e) => e.arguments), [{ command: 'ls build' }]);
  const denied = parseEvents(result.stdout).filter((e) => e.type === 'tool_denied');
  assert.deepEqual(denied.map((e) => e.type === 'tool_denied' && [e.callId, e.server]), [['bad', 'guard']]);
  const answers = (fake.chatRequests()[1]?.body as { messages: Array<{ role: string; tool_call_id?: string; content: string }> }).messages.filter((m) => m.role === 'tool');
  const envelope = JSON.parse(answers.find((m) => m.tool_call_id === 'bad')?.content ?? '{}') as { hook: string; server: string; text: string };
  assert.deepEqual([envelope.hook, envelope.server], ['_PreToolUse', 'guard']);
  assert.match(envelope.text, /^guard: work__run_command was not run: "rm -rf build" matches the deny pattern \/\\brm\\s\+-rf\\b\//);
  assert.equal(answers.find((m) => m.tool_call_id === 'good')?.content, 'ran');
  assertAllRequestsValid(fake.requests);

  const check = await runCli(['hooks', 'check', '--mcp-config', mcp, '--tool', 'workspace__run_command', '--args', '{"command":"git push --force"}'], { env, timeoutMs: 60_000 });
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /guard: allowlisted\n {2}speaks MCP 2026-07-28 \(modern era\)\n {2}hooks: _PreToolUse\n {2}_PreToolUse {2}\d+ ms {2}answered within 2500 ms: the call would be denied: "guard: workspace__run_command was not run/);
});
