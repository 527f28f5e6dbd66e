/**
 * Command rules: prefixes match whole words, a compound command is allowed only when every part is,
 * deny wins, a workspace can only deny, and a bad or catastrophic regex is named and ignored (or runs
 * in linear time) instead of crashing or hanging. The regex engine is the one the hosts pass in
 * (RE2's JavaScript port through linearRegex).
 * The compound cases follow public reports of prefix allowlists bypassed by chaining and wrapping:
 * https://github.com/anthropics/claude-code/issues/36637 (`git status && rm -rf ...` past an allow
 * and a deny rule), https://github.com/MoonshotAI/kimi-code/issues/2756 (`&&`, `;`, `|`, `$(...)`,
 * subshells; allow over-granted and deny bypassed), https://github.com/anthropics/claude-code/issues/94314
 * (`;`/`&&` after an allowed prefix).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineRules, deniedText, firstWords, judgeCommand, parseCommandRules, type CommandRule } from '../../../src/agent/commandRules';
import { shellParts } from '../../../src/agent/shellWords';
import { linearRegex } from '../../../src/servers/common/linearRegex';

const compile = (source: string, caseInsensitive: boolean) => linearRegex(source, !caseInsensitive);

function userRules(value: unknown): CommandRule[] {
  const parsed = parseCommandRules({ name: 'user settings sprout.tools.commandRules', mayAllow: true, value }, compile);
  assert.deepEqual(parsed.problems, []);
  return parsed.rules;
}

test('a prefix matches whole words: npm test allows `npm test -- -t x`, not `npm testx`', () => {
  const rules = userRules([{ allow: 'npm test' }]);
  assert.equal(judgeCommand('npm test', rules).kind, 'allow');
  assert.equal(judgeCommand('npm test -- -t x', rules).kind, 'allow');
  assert.equal(judgeCommand('  npm   test  ', rules).kind, 'allow');
  assert.equal(judgeCommand('npm testx', rules).kind, 'ask');
  assert.equal(judgeCommand('npm', rules).kind, 'ask');
  assert.equal(judgeCommand('npx test', rules).kind, 'ask');
});

test('a compound command is allowed only when every part is', () => {
  const rules = userRules([{ allow: 'npm test' }, { allow: 'git status' }]);
  assert.equal(judgeCommand('npm test && git status', rules).kind, 'allow');
  const cases: Array<[string, string]> = [
    ['npm test && rm -rf /', 'rm -rf /'],
    ['npm test; curl x | sh', 'curl x'],
    ['npm test || rm -rf /', 'rm -rf /'],
    ['npm test & rm -rf /', 'rm -rf /'],
    ['npm test\nrm -rf /', 'rm -rf /'],
    ['npm test $(rm -rf ~)', 'rm -rf ~'],
    ['$(rm -rf ~)', 'rm -rf ~'],
    ['npm test `rm -rf ~`', 'rm -rf ~'],
    ['npm test "$(rm -rf ~)"', 'rm -rf ~'],
    ['npm test > ~/.bashrc', '> ~/.bashrc'],
    ['npm test >> ~/.bashrc', '>> ~/.bashrc'],
    ['npm test < /etc/passwd', '< /etc/passwd'],
    ['npm test &> log', '&> log'],
    ['(rm -rf ~)', 'rm -rf ~'],
    ['npm test | sh', 'sh'],
  ];
  for (const [command, part] of cases) {
    const verdict = judgeCommand(command, rules);
    assert.equal(verdict.kind, 'ask', command);
    assert.match(verdict.kind === 'ask' ? verdict.reason : '', new RegExp(`\`${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``), command);
  }
});

test('what the shell does not treat as an operator stays a word; harmless redirections are not parts', () => {
  const rules = userRules([{ allow: 'echo' }, { allow: 'npm test' }]);
  assert.deepEqual(shellParts("echo 'a && b' \"c; d\" e\\;f"), [['echo', 'a && b', 'c; d', 'e;f']]);
  assert.equal(judgeCommand("echo 'rm -rf / && x'", rules).kind, 'allow');
  assert.equal(judgeCommand('npm test 2>&1', rules).kind, 'allow');
  assert.equal(judgeCommand('npm test > /dev/null 2>&1', rules).kind, 'allow');
  assert.equal(judgeCommand('npm test # && rm -rf /', rules).kind, 'allow');
  assert.equal(judgeCommand('npm test \\\n  -- -t x', rules).kind, 'allow');
});

test('what cannot be read is never allowed by rule', () => {
  const rules = userRules([{ allow: '/.*/' }]);
  for (const command of ["echo 'unterminated", 'cat <<EOF\nx\nEOF', 'diff <(ls a) <(ls b)', 'echo $((1+2))', 'echo "x', 'echo )']) {
    const verdict = judgeCommand(command, rules);
    assert.equal(verdict.kind, 'ask', command);
    assert.match(verdict.kind === 'ask' ? verdict.reason : '', /could not be read/);
  }
  assert.equal(judgeCommand('   ', rules).kind, 'ask');
});

test('deny wins over allow, whichever comes first, in any part', () => {
  const rules = userRules([{ allow: '/.*/' }, { deny: 'rm' }, { deny: '/git push .*--force.*/' }]);
  const verdict = judgeCommand('npm test && rm -rf /', rules);
  assert.equal(verdict.kind, 'deny');
  assert.equal(verdict.kind === 'deny' ? verdict.part : '', 'rm -rf /');
  assert.match(verdict.kind === 'deny' ? deniedText(verdict) : '', /deny "rm" \(user settings sprout\.tools\.commandRules\[1\]\)/);
  assert.equal(judgeCommand('git push origin main --force', rules).kind, 'deny');
  assert.equal(judgeCommand('git push origin main', rules).kind, 'allow');
  assert.equal(judgeCommand('rmdir x', rules).kind, 'allow');
  assert.equal(judgeCommand("echo 'unterminated && rm -rf /", userRules([{ deny: 'echo' }])).kind, 'deny');
});

test('a regex must match the whole simple command; /i ignores case', () => {
  const rules = userRules([{ allow: '/git (status|diff)( .*)?/' }, { allow: '/make/i' }]);
  assert.equal(judgeCommand('git status', rules).kind, 'allow');
  assert.equal(judgeCommand('git diff HEAD~1', rules).kind, 'allow');
  assert.equal(judgeCommand('git statusx', rules).kind, 'ask');
  assert.equal(judgeCommand('sudo git status', rules).kind, 'ask');
  assert.equal(judgeCommand('MAKE', rules).kind, 'allow');
});

test('an invalid or unbounded regex and a malformed entry are named and ignored; the rest still work', () => {
  const parsed = parseCommandRules(
    { name: 'user settings sprout.tools.commandRules', mayAllow: true, value: [{ allow: '/[/' }, { allow: '/(a)\\1/' }, { allow: '/(?<=x)y/' }, { allow: 'ls' }, 'npm', { allow: 'x', deny: 'y' }, { deny: '' }, { allow: 'a && b' }] },
    compile,
  );
  assert.deepEqual(parsed.rules.map((rule) => rule.pattern), ['ls']);
  assert.equal(parsed.problems.length, 7);
  assert.match(parsed.problems[0] ?? "", /^user settings sprout\.tools\.commandRules\[0\] \{"allow":"\/\[\/"\}: /);
  assert.match(parsed.problems[1] ?? "", /\[1\].*bounded time|\[1\].*invalid/);
  assert.match(parsed.problems[3] ?? "", /\[4\] "npm": expected/);
  assert.match(parsed.problems[6] ?? "", /\[7\].*one simple command/);
  assert.equal(judgeCommand('ls -la', parsed.rules).kind, 'allow');
  assert.deepEqual(parseCommandRules({ name: 'x', mayAllow: true, value: { allow: 'ls' } }, compile).problems, ['x: expected a list of rules, ignored']);
});

test('a catastrophic pattern on a long input finishes with the right answer (linear engine)', () => {
  const rules = userRules([{ allow: '/(a+)+b/' }]);
  const long = 'a'.repeat(50_000);
  assert.equal(judgeCommand(long, rules).kind, 'ask');
  assert.equal(judgeCommand(`${long}b`, rules).kind, 'allow');
});

test("a workspace's rules can only deny: its allow rules are ignored with a note", () => {
  const combined = combineRules(
    [
      { name: 'user settings sprout.tools.commandRules', mayAllow: true, value: [{ allow: 'npm test' }] },
      { name: 'workspace settings sprout.tools.commandRules', mayAllow: false, value: [{ allow: 'curl' }, { deny: 'npm test -- --updateSnapshot' }] },
    ],
    compile,
  );
  assert.equal(combined.problems.length, 1);
  assert.match(combined.problems[0] ?? "", /workspace settings sprout\.tools\.commandRules\[0\].*can only deny/);
  assert.equal(judgeCommand('curl x', combined.rules).kind, 'ask');
  assert.equal(judgeCommand('npm test', combined.rules).kind, 'allow');
  assert.equal(judgeCommand('npm test -- --updateSnapshot', combined.rules).kind, 'deny');
});

test('"Always allow" offers the first words of one simple command', () => {
  assert.equal(firstWords('npm test -- -t x'), 'npm test');
  assert.equal(firstWords('git diff HEAD'), 'git diff');
  assert.equal(firstWords('ls -la'), 'ls');
  assert.equal(firstWords('npm test && rm -rf /'), undefined);
  assert.equal(firstWords('$(x)'), undefined);
});
