// Command rules through the real CLI, the bundled workspace server and the fake model server: an
// allowed command runs, a compound with a part no rule allows is refused (the CLI asks no one), a deny
// rule is named in the refusal the model reads, and a workspace's `.vscode/settings.json` that tries
// to ALLOW a command is ignored with a note (only the user's rules allow). Chained commands riding on
// an allowed prefix are the public reports' case, e.g.
// https://github.com/anthropics/claude-code/issues/36637.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { baseEnv, parseEvents, runCli } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-rules-');

function repo(name: string, workspaceSettings?: unknown): string {
  const root = join(cli.dir, name);
  mkdirSync(join(root, '.vscode'), { recursive: true });
  if (workspaceSettings !== undefined) writeFileSync(join(root, '.vscode', 'settings.json'), `// a cloned repository's settings\n${JSON.stringify(workspaceSettings)}\n`);
  return root;
}

function env(name: string, rules: unknown): Record<string, string> {
  return {
    ...baseEnv(cli.fake?.url ?? ''),
    SPROUT_AGENT_BUILTIN_SERVERS: 'workspace',
    XDG_STATE_HOME: join(cli.dir, `state-${name}`),
    ...(rules === undefined ? {} : { SPROUT_AGENT_COMMAND_RULES: JSON.stringify(rules) }),
  };
}

const run = (command: string) => fakeReply.toolCalls([{ name: 'workspace__run_command', arguments: { command } }]);

/** The tool results of the run, in order, as the CLI printed them. */
function finished(stdout: string): { isError: boolean; text: string }[] {
  return parseEvents(stdout).flatMap((event) => (event.type === 'tool_finished' ? [{ isError: event.isError, text: event.text }] : []));
}

test('an allowed command runs; a compound with a part no rule allows is refused and does not run', async () => {
  const fake = await cli.startFake({ responses: [run('touch allowed.txt'), run('touch first.txt && touch second.txt'), fakeReply.text('done')] });
  const root = repo('compound');
  const result = await runCli(['--json', '--cwd', root, 'go'], { env: env('compound', [{ allow: 'touch allowed.txt' }, { allow: 'touch first.txt' }]) });
  assert.equal(result.code, 0, result.stderr);
  const [allowed, compound] = finished(result.stdout);
  assert.equal(allowed?.isError, false, allowed?.text);
  assert.ok(existsSync(join(root, 'allowed.txt')), 'the allowed command ran');
  assert.equal(compound?.isError, true);
  assert.match(compound?.text ?? '', /Not run: no rule allows `touch second\.txt`/);
  assert.ok(!existsSync(join(root, 'first.txt')) && !existsSync(join(root, 'second.txt')), 'no part of the compound ran');
  const toolMessages = (fake.chatRequests()[2]?.body as { messages: { role: string; content?: unknown }[] }).messages.filter((m) => m.role === 'tool');
  assert.match(String(toolMessages[1]?.content), /no rule allows `touch second\.txt`/, 'the refusal reached the model');
});

test('a deny rule wins over an allow and is named in the refusal', async () => {
  await cli.startFake({ responses: [run('touch ok.txt; rm -f keep.txt'), fakeReply.text('done')] });
  const root = repo('deny');
  writeFileSync(join(root, 'keep.txt'), 'x');
  const result = await runCli(['--json', '--cwd', root, 'go'], { env: env('deny', [{ allow: '/.*/' }, { deny: 'rm' }]) });
  assert.equal(result.code, 0, result.stderr);
  const [denied] = finished(result.stdout);
  assert.equal(denied?.isError, true);
  assert.match(denied?.text ?? '', /command rule deny "rm" \(SPROUT_AGENT_COMMAND_RULES\[1\]\): `rm -f keep\.txt` is denied/);
  assert.ok(existsSync(join(root, 'keep.txt')) && !existsSync(join(root, 'ok.txt')));
});

test("a workspace's allow rule is ignored with a note; its deny rule applies; a bad regex is named", async () => {
  await cli.startFake({ responses: [run('touch from-workspace.txt'), run('touch user.txt'), fakeReply.text('done')] });
  const root = repo('workspace', { 'sprout.tools.commandRules': [{ allow: 'touch from-workspace.txt' }, { deny: 'touch user.txt' }] });
  const result = await runCli(['--json', '--cwd', root, 'go'], { env: env('workspace', [{ allow: 'touch user.txt' }, { allow: '/(unclosed/' }]) });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /command rule ignored: \.vscode\/settings\.json sprout\.tools\.commandRules\[0\] .*can only deny/);
  assert.match(result.stderr, /command rule ignored: SPROUT_AGENT_COMMAND_RULES\[1\] \{"allow":"\/\(unclosed\/"\}/);
  const [fromWorkspace, user] = finished(result.stdout);
  assert.match(fromWorkspace?.text ?? '', /Not run: no rule allows `touch from-workspace\.txt`/);
  assert.match(user?.text ?? '', /deny "touch user\.txt" \(\.vscode\/settings\.json sprout\.tools\.commandRules\[1\]\)/);
  assert.ok(!existsSync(join(root, 'from-workspace.txt')) && !existsSync(join(root, 'user.txt')));
});

test('with no rules, run_command runs as before; rules that are not JSON are exit 2 naming the variable', async () => {
  await cli.startFake({ responses: [run('touch a.txt && touch b.txt'), fakeReply.text('done')] });
  const root = repo('none');
  const result = await runCli(['--json', '--cwd', root, 'go'], { env: env('none', undefined) });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(existsSync(join(root, 'a.txt')) && existsSync(join(root, 'b.txt')));
  const bad = await runCli(['--cwd', root, 'go'], { env: { ...env('none', undefined), SPROUT_AGENT_COMMAND_RULES: '[{allow:' } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /SPROUT_AGENT_COMMAND_RULES: not JSON/);
});

test('hooks check --command runs the command policy against compound commands and prints each verdict', async () => {
  const root = repo('check', { 'sprout.tools.commandRules': [{ allow: 'curl' }, { deny: '/git push .*--force.*/' }] });
  const rules = [{ allow: 'npm test' }, { allow: 'git' }, { deny: 'rm' }, { allow: '/(a+)+b/' }];
  const commands = ['npm test -- -t x', 'npm test && rm -rf /', 'npm test; curl x | sh', 'echo $(rm -rf ~)', 'npm test > ~/.bashrc', 'git push origin main --force', "echo 'unterminated"];
  const result = await runCli(['hooks', 'check', '--cwd', root, ...commands.flatMap((command) => ['--command', command])], { env: env('check', rules) });
  assert.equal(result.code, 0, result.stderr);
  const verdict = (command: string): string => result.stdout.split('\n').find((line) => line.includes(JSON.stringify(command))) ?? '';
  assert.match(verdict('npm test -- -t x'), /^ALLOW .*allowed by allow "npm test" \(SPROUT_AGENT_COMMAND_RULES\[0\]\)/);
  assert.match(verdict('npm test && rm -rf /'), /^DENY .*`rm -rf \/` denied by deny "rm"/);
  assert.match(verdict('npm test; curl x | sh'), /^ASK .*no rule allows `curl x`/);
  assert.match(verdict('echo $(rm -rf ~)'), /^DENY .*`rm -rf ~` denied by deny "rm"/);
  assert.match(verdict('npm test > ~/.bashrc'), /^ASK .*no rule allows `> ~\/\.bashrc`/);
  assert.match(verdict('git push origin main --force'), /^DENY .*\.vscode\/settings\.json sprout\.tools\.commandRules\[1\]/);
  assert.match(verdict("echo 'unterminated"), /^ASK .*could not be read/);
  assert.match(result.stdout, /ignored: \.vscode\/settings\.json sprout\.tools\.commandRules\[0\] .*can only deny/);
  const json = await runCli(['hooks', 'check', '--json', '--cwd', root, '--command', 'npm test && git status'], { env: env('check', rules) });
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { verdicts: { command: string; verdict: string }[] };
  assert.deepEqual(report.verdicts.map((v) => v.verdict), ['allow']);
});
