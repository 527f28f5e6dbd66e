// Reading other agents' hook files strictly: each format's layout, matchers and timeouts, what is read
// but not run (said), Sprout's own bridge entries left out, and errors that name the file and place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentFormat } from '../../../src/agentHooks/agentFormats';
import { HookConfigError } from '../../../src/agentHooks/hookConfig';
import { eventsForHook, hooksServed, matcherAllows, parseHookSource, sourceName } from '../../../src/agentHooks/hookSources';

test('Claude Code groups: matcher, timeout in seconds, non-command entries and unmapped events said, bridge entries left out', () => {
  const text = JSON.stringify({
    model: 'opus',
    hooks: {
      PreToolUse: [{ matcher: 'Bash|work__.*', hooks: [{ type: 'command', command: './guard.sh', timeout: 30 }, { type: 'prompt', prompt: 'is this safe?' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'npx sprout-agent hooks run --agent claude Stop' }, { type: 'command', command: 'npm test' }] }],
      PreCompact: [{ hooks: [{ type: 'command', command: 'echo x' }] }],
    },
  });
  const parsed = parseHookSource(agentFormat('claude'), text, '.claude/settings.json');
  assert.deepEqual(parsed.hooks, [
    { event: 'PreToolUse', command: './guard.sh', matcher: 'Bash|work__.*', timeoutMs: 30_000 },
    { event: 'Stop', command: 'npm test' },
  ]);
  assert.deepEqual(parsed.skipped, ['PreToolUse[0].hooks[1]: type "prompt" is not a command', 'PreCompact: no Sprout hook matches this Claude Code event']);
  assert.deepEqual(hooksServed(agentFormat('claude'), parsed.hooks), ['_PreToolUse', '_Stop']);
});

test('Gemini CLI: timeouts in milliseconds, its settings keys inside hooks are not events', () => {
  const text = JSON.stringify({ hooks: { enabled: true, disabled: ['x'], AfterAgent: [{ hooks: [{ type: 'command', command: 'npm test', timeout: 60_000 }] }] } });
  assert.deepEqual(parseHookSource(agentFormat('gemini'), text, '.gemini/settings.json').hooks, [{ event: 'AfterAgent', command: 'npm test', timeoutMs: 60_000 }]);
});

test('Copilot and Cursor: flat entries, `bash` and `timeoutSec` for Copilot, with its cwd', () => {
  const copilot = JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: './guard.sh', powershell: './guard.ps1', cwd: 'scripts', timeoutSec: 5 }] } });
  assert.deepEqual(parseHookSource(agentFormat('copilot'), copilot, '.github/hooks/guard.json').hooks, [{ event: 'preToolUse', command: './guard.sh', timeoutMs: 5000, cwd: 'scripts' }]);
  const cursor = JSON.stringify({ version: 1, hooks: { stop: [{ command: './tests.sh' }], afterAgentResponse: [{ command: './x.sh' }] } });
  const parsed = parseHookSource(agentFormat('cursor'), cursor, '.cursor/hooks.json');
  assert.deepEqual(parsed.hooks, [{ event: 'stop', command: './tests.sh' }]);
  assert.deepEqual(parsed.skipped, ['afterAgentResponse: no Sprout hook matches this Cursor event']);
});

test('a file that cannot be read exactly is an error naming the file and the place', () => {
  const claude = agentFormat('claude');
  const cases: Array<[string, RegExp]> = [
    ['{', /^\.claude\/settings\.json is not valid JSON/],
    ['[]', /is not a JSON object/],
    [JSON.stringify({ hooks: [] }), /^\.claude\/settings\.json: hooks: /],
    [JSON.stringify({ hooks: { Stop: [{ matcher: 3, hooks: [] }] } }), /hooks\.Stop\.0\.matcher/],
    [JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] } }), /hooks\.Stop\.0\.hooks\.0\.timeout/],
    [JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: ' ' }] }] } }), /hooks\.Stop\[0\]\.hooks\[0\] has type "command" but no command/],
  ];
  for (const [text, expected] of cases) assert.throws(() => parseHookSource(claude, text, '.claude/settings.json'), (error: Error) => error instanceof HookConfigError && expected.test(error.message));
  assert.throws(() => parseHookSource(agentFormat('copilot'), JSON.stringify({ version: 1, hooks: { agentStop: [{ type: 'command', powershell: 'x' }] } }), '.github/hooks/a.json'), /hooks\.agentStop\[0\] has no "bash" command/);
});

test('matchers are whole-name regular expressions; empty and * match everything; a bad pattern matches only itself', () => {
  assert.equal(matcherAllows('Bash|work__.*', 'work__echo'), true);
  assert.equal(matcherAllows('Bash', 'BashOutput'), false);
  assert.equal(matcherAllows('*', 'anything'), true);
  assert.equal(matcherAllows('', 'anything'), true);
  assert.equal(matcherAllows('startup', 'compact'), false);
  assert.equal(matcherAllows('([', '(['), true);
  assert.equal(matcherAllows('([', 'x'), false);
});

test('names and events: a file\'s hook-server name fits tool names; compaction runs SessionStart for Claude Code and Codex only', () => {
  assert.equal(sourceName('.claude/settings.local.json', 'workspace'), 'claude-settings-local');
  assert.equal(sourceName('.claude/settings.json', 'user'), 'user-claude-settings');
  assert.match(sourceName(`.github/hooks/${'x'.repeat(80)}.json`, 'workspace'), /^[A-Za-z0-9-]{1,40}$/);
  assert.deepEqual(eventsForHook(agentFormat('claude'), '_PostCompact'), ['SessionStart']);
  assert.deepEqual(eventsForHook(agentFormat('gemini'), '_PostCompact'), []);
  assert.deepEqual(eventsForHook(agentFormat('cursor'), '_PreToolUse'), ['beforeShellExecution', 'beforeMCPExecution']);
});
