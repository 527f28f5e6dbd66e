// The command policy through `hooks install --command-rules` and an agent process that runs the
// installed PreToolUse hook the way Claude Code does: a compound shell command with a denied part is
// denied naming the rule, the workspace's deny rules apply too, other commands pass on to the agent's
// own permissions; rules that are not valid are refused at install, named. The compound case is the
// public reports' (https://github.com/anthropics/claude-code/issues/36637: `git status && rm -rf ...`).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, it } from 'node:test';
import { claudePayload, openBridgeRig, type BridgeRig } from './bridgeHarness';

let rig: BridgeRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const RULES = JSON.stringify([{ allow: 'npm test' }, { deny: 'rm' }]);

it('hooks install --command-rules installs PreToolUse; the agent\'s compound command with a denied part is denied, naming the rule', async () => {
  rig = await openBridgeRig([{ name: 'nag', config: { hooks: { _Stop: { kind: 'object', text: 'not done' } } } }]);
  mkdirSync(join(rig.workspace, '.vscode'));
  writeFileSync(join(rig.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'sprout.tools.commandRules': [{ deny: 'curl' }, { allow: 'sh' }] }));
  const installed = await rig.install('claude', ['--command-rules', RULES]);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /PreToolUse -> _PreToolUse/);
  assert.match(installed.stderr, /command rule ignored: \.vscode\/settings\.json sprout\.tools\.commandRules\[1\] .*can only deny/);
  const ws = rig.workspace;
  const bash = (command: string) => ({ event: 'PreToolUse', payload: claudePayload('PreToolUse', 's1', ws, { tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' }) });
  const answers = await rig.runAgent([bash('npm test && rm -rf /'), bash('npm test -- -t x'), bash('npm test; curl x | sh'), bash('ls'), { event: 'SessionEnd', payload: claudePayload('SessionEnd', 's1', ws) }]);
  assert.deepEqual(answers.map((a) => a.exitCode), [0, 0, 0, 0, 0], answers.map((a) => a.stderr).join('\n'));
  const [compound, allowed, workspaceDeny, other] = answers.map((a) => a.stdout);
  assert.match(compound ?? '', /"permissionDecision":"deny"/);
  assert.match(compound ?? '', /command rule deny \\"rm\\" \(--command-rules\[1\]\): `rm -rf \/` is denied/);
  assert.match(workspaceDeny ?? '', /deny \\"curl\\" \(\.vscode\/settings\.json sprout\.tools\.commandRules\[0\]\)/);
  assert.doesNotMatch(allowed ?? '', /deny/, 'not denied: the agent\'s own permissions decide');
  assert.doesNotMatch(other ?? '', /deny/);
});

it('rules that are not valid are refused at install, each named', async () => {
  rig = await openBridgeRig([{ name: 'nag', config: { hooks: { _Stop: { kind: 'object', text: 'not done' } } } }]);
  const bad = await rig.install('claude', ['--command-rules', JSON.stringify([{ deny: '/(?<=x)y/' }, { deny: 'rm' }])]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--command-rules\[0\] \{"deny":"\/\(\?<=x\)y\/"\}: .*Fix these rules/);
});
