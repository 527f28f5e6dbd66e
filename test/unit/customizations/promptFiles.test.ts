// Reading prompt files as slash commands (src/customizations/promptFiles.ts) with node:fs: the repo's own
// fixtures (test/fixtures/prompt-files: every field, a subfolder, a broken header, an unknown field, a
// file taking Sprout's own /new) and real files from public repositories (kept outside the repository,
// see test/sharedTestData.ts): awesome-copilot's debian-linux-triage.prompt.md (agent, model, tools,
// ${input:}), Claude Code docs' review-pr.md ($1..$3, argument-hint written as YAML lists) and
// vibestamps' fix-issue.md ($ARGUMENTS, no front matter), copied into a temporary workspace per test.
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { expandCommand } from '../../../src/agent/promptCommands';
import { UNTRUSTED_PROMPTS_NOTE, readPromptFiles } from '../../../src/customizations/promptFiles';
import { nodeInstructionFs } from '../../../src/platform/instructionFs';
import { needsSharedData } from '../../sharedTestData';

const FIXTURE = resolve(import.meta.dirname, '..', '..', 'fixtures', 'prompt-files');
const fs = nodeInstructionFs();
const temp = mkdtempSync(join(tmpdir(), 'sprout-prompt-files-'));
after(() => rmSync(temp, { recursive: true, force: true }));

test('the fixture workspace: Copilot files and a Claude subfolder command, with their fields; notes name the file and line', () => {
  const set = readPromptFiles(fs, { root: FIXTURE, trusted: true });
  assert.deepEqual(set.commands.map((c) => `${c.name} ${c.format} ${c.path}`).sort(), [
    'explain copilot .github/prompts/explain.prompt.md',
    'fix-tests copilot .github/prompts/fix-tests.prompt.md',
    'frontend:component claude .claude/commands/frontend/component.md',
  ]);
  const fix = set.commands.find((c) => c.name === 'fix-tests');
  assert.equal(fix?.description, 'Fix the failing tests of a file');
  assert.equal(fix?.argumentHint, 'FILE');
  assert.deepEqual(fix?.tools, ['runCommands', 'edit']);
  assert.equal(fix?.mode, 'agent');
  assert.equal(set.commands.find((c) => c.name === 'explain')?.mode, 'ask', 'the older `mode:` field');
  const component = set.commands.find((c) => c.name === 'frontend:component');
  assert.deepEqual(component?.tools, ['Bash(git status:*)', 'Read']);
  assert.equal(component?.argumentHint, '[name] [folder]');
  assert.ok(set.notes.some((n) => /^\.github\/prompts\/broken\.prompt\.md:3: not used as a command: the front matter is not valid YAML on line 3/.test(n)), set.notes.join('\n'));
  assert.ok(set.notes.some((n) => n.includes('explain.prompt.md: unknown front matter field "bogus"')), set.notes.join('\n'));
  assert.ok(set.notes.some((n) => n.includes('new.prompt.md: /new is already Sprout\'s own command')), set.notes.join('\n'));
});

test('untrusted: none of the workspace\'s files are read, said once; the user\'s ~/.claude/commands still are', () => {
  const home = join(temp, 'home-untrusted');
  mkdirSync(join(home, '.claude', 'commands'), { recursive: true });
  writeFileSync(join(home, '.claude', 'commands', 'mine.md'), '---\ndescription: my own\n---\nDo my thing with $ARGUMENTS.\n');
  const set = readPromptFiles(fs, { root: FIXTURE, home, trusted: false });
  assert.deepEqual(set.commands.map((c) => `${c.name} ${c.scope} ${c.path}`), ['mine user ~/.claude/commands/mine.md']);
  assert.deepEqual(set.notes, [UNTRUSTED_PROMPTS_NOTE]);
});

test('a workspace file linked to one outside the workspace is not read', () => {
  const ws = join(temp, 'linked');
  mkdirSync(join(ws, '.claude', 'commands'), { recursive: true });
  writeFileSync(join(temp, 'outside.md'), 'secret outside text');
  copyFileSync(join(FIXTURE, '.claude', 'commands', 'frontend', 'component.md'), join(ws, '.claude', 'commands', 'inside.md'));
  symlinkSync(join(temp, 'outside.md'), join(ws, '.claude', 'commands', 'out.md'));
  const set = readPromptFiles(fs, { root: ws, trusted: true });
  assert.deepEqual(set.commands.map((c) => c.name), ['inside'], set.notes.join('\n'));
  assert.deepEqual(set.notes, ['.claude/commands/out.md: not read, it links to a file outside the workspace.']);
});

const shared = needsSharedData('instruction-files');

test('real files: awesome-copilot\'s prompt file, Claude Code docs\' review-pr and vibestamps\' fix-issue', { skip: shared.skip }, () => {
  const ws = join(temp, 'real');
  mkdirSync(join(ws, '.github', 'prompts'), { recursive: true });
  mkdirSync(join(ws, '.claude', 'commands'), { recursive: true });
  copyFileSync(join(shared.dir, 'awesome-copilot.debian-linux-triage.prompt.md'), join(ws, '.github', 'prompts', 'debian-linux-triage.prompt.md'));
  copyFileSync(join(shared.dir, 'claude-docs.review-pr.md'), join(ws, '.claude', 'commands', 'review-pr.md'));
  copyFileSync(join(shared.dir, 'vibestamps.fix-issue.md'), join(ws, '.claude', 'commands', 'fix-issue.md'));
  const set = readPromptFiles(fs, { root: ws, trusted: true });
  assert.deepEqual(set.notes, []);
  const triage = set.commands.find((c) => c.name === 'debian-linux-triage');
  assert.equal(triage?.mode, 'agent');
  assert.equal(triage?.model, 'gpt-4.1');
  assert.deepEqual(triage?.tools, ['search', 'runCommands', 'terminalCommand', 'edit/editFiles']);
  assert.match(triage?.description ?? '', /^Triage and resolve Debian Linux issues/);
  const missing = triage === undefined ? undefined : expandCommand(triage, '');
  assert.deepEqual(missing?.ok === false ? missing.missing.map((m) => m.name) : missing, ['DebianRelease', 'ProblemSummary', 'Constraints']);
  const review = set.commands.find((c) => c.name === 'review-pr');
  // Not valid YAML (a flow sequence then more text), as Claude Code's own docs write it: read line by line, as written.
  // https://docs.claude.com/en/docs/claude-code/slash-commands (the review-pr example)
  assert.equal(review?.argumentHint, '[pr-number] [priority] [assignee]');
  const reviewed = review === undefined ? undefined : expandCommand(review, '456 high alice');
  assert.match(reviewed?.ok === true ? reviewed.prompt : '', /^Review PR #456 with priority high and assign to alice\./);
  const fix = set.commands.find((c) => c.name === 'fix-issue');
  assert.equal(fix?.description, undefined, 'no front matter');
  const fixed = fix === undefined ? undefined : expandCommand(fix, '123');
  const text = fixed?.ok === true ? fixed.prompt : '';
  assert.match(text, /^Analyze and fix GitHub issue: 123\n/);
  assert.match(text, /gh issue view 123/);
  assert.doesNotMatch(text, /\$ARGUMENTS|ARGUMENTS: 123/, 'every $ARGUMENTS replaced, nothing appended');
});
