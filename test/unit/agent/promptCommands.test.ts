// The core's expansion of slash commands (src/agent/promptCommands.ts): parsing "/name args", close
// matches for a typo, Copilot's ${input:} (given, typed as name=value, or missing) and #file:, Claude's
// $ARGUMENTS / $1.. and !`command` lines, which become an instruction to use the shell tool (never run).
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { closeMatches, commandInputs, expandCommand, parseSlash, unknownCommandMessage, type PromptCommand } from '../../../src/agent/promptCommands';

function command(format: PromptCommand['format'], body: string, extra: Partial<PromptCommand> = {}): PromptCommand {
  return { name: 'x', path: format === 'copilot' ? '.github/prompts/x.prompt.md' : '.claude/commands/x.md', scope: 'workspace', format, body, ...extra };
}

test('parseSlash: a command and its text; a path or plain text is not a command', () => {
  assert.deepEqual(parseSlash('/fix-tests src/a.ts'), { name: 'fix-tests', args: 'src/a.ts' });
  assert.deepEqual(parseSlash('  /frontend:component Button src/ui\n'), { name: 'frontend:component', args: 'Button src/ui' });
  assert.deepEqual(parseSlash('/review'), { name: 'review', args: '' });
  assert.equal(parseSlash('/usr/bin is broken'), undefined);
  assert.equal(parseSlash('fix /tmp'), undefined);
});

test('unknown command: the close names first, else what exists', () => {
  const names = ['fix-tests', 'fix-issue', 'frontend:component', 'review-pr'];
  assert.deepEqual(closeMatches('fix-test', names), ['fix-tests']);
  assert.deepEqual(closeMatches('fix', names), ['fix-issue', 'fix-tests'], 'a prefix');
  assert.deepEqual(closeMatches('component', names), ['frontend:component']);
  assert.equal(unknownCommandMessage('reveiw-pr', names), '/reveiw-pr is not a command. Did you mean /review-pr?');
  assert.equal(unknownCommandMessage('zzzzzzzz', names), '/zzzzzzzz is not a command. Available: /fix-tests, /fix-issue, /frontend:component, /review-pr.');
  assert.equal(unknownCommandMessage('x', []), '/x is not a command. No prompt files or commands were found.');
});

test('Copilot: ${input:} from the inputs or name=value typed after the command; the rest of the text appended; mode kept', () => {
  const c = command('copilot', 'Fix ${input:framework:jest or vitest} tests in ${input:file}; again ${input:framework}. See #file:../../docs/style.md.', { mode: 'ask' });
  assert.deepEqual(commandInputs(c), [{ name: 'framework', placeholder: 'jest or vitest' }, { name: 'file' }]);
  assert.deepEqual(expandCommand(c, ''), { ok: false, missing: [{ name: 'framework', placeholder: 'jest or vitest' }, { name: 'file' }] });
  assert.deepEqual(expandCommand(c, 'file=src/a.ts be quick', { framework: 'vitest' }), {
    ok: true,
    prompt: 'Fix vitest tests in src/a.ts; again vitest. See #file:../../docs/style.md.\n\nbe quick',
    mode: 'ask',
    files: ['docs/style.md'],
  });
  assert.deepEqual(expandCommand(c, ': framework=jest file=b.ts'), { ok: true, prompt: 'Fix jest tests in b.ts; again jest. See #file:../../docs/style.md.', mode: 'ask', files: ['docs/style.md'] });
});

test('Claude: $ARGUMENTS and $1..$9 (quoted words kept together); no placeholder: the arguments appended', () => {
  assert.deepEqual(expandCommand(command('claude', 'Fix issue $ARGUMENTS now.'), '123 urgent'), { ok: true, prompt: 'Fix issue 123 urgent now.', files: [] });
  assert.deepEqual(expandCommand(command('claude', 'Make $1 in $2 ($3).'), '"Big Button" src/ui'), { ok: true, prompt: 'Make Big Button in src/ui ().', files: [] });
  assert.deepEqual(expandCommand(command('claude', 'Review the diff.'), 'focus on tests'), { ok: true, prompt: 'Review the diff.\n\nARGUMENTS: focus on tests', files: [] });
  assert.deepEqual(expandCommand(command('claude', 'Review the diff.'), ''), { ok: true, prompt: 'Review the diff.', files: [] });
});

test('Claude: a !`command` is not run; it becomes an instruction to run it through the shell tool, subject to approval', () => {
  const expanded = expandCommand(command('claude', '## Context\n- Status: !`git status`\n- Diff: !`git diff HEAD`\n\nCommit $ARGUMENTS'), 'the fix');
  assert.deepEqual(expanded, {
    ok: true,
    prompt:
      '## Context\n- Status: (run `git status` with the shell tool, subject to its approval, and use its output here)\n' +
      '- Diff: (run `git diff HEAD` with the shell tool, subject to its approval, and use its output here)\n\nCommit the fix',
    files: [],
  });
});
