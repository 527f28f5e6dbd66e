// Agent Skills (src/customizations/skills.ts, src/agent/skills.ts) on a real file system in a temporary
// folder: discovery in the workspace's and the user's skills folders, the notes for files that cannot
// be used, and the read tool's confinement to the skill's folder (`..`, absolute paths, symlinks out).
// Real SKILL.md files come from awesome-copilot (kept outside the repository, see test/sharedTestData.ts);
// the broken ones are of our own making.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { READ_SKILL_TOOL_NAME, answerSkillCall, skillsSystemText } from '../../../src/agent/skills';
import { roundRequest } from '../../../src/agent/roundRequest';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import { UNTRUSTED_SKILLS_NOTE, confinedRelative, parseSkill, readSkills } from '../../../src/customizations/skills';
import { nodeInstructionFs } from '../../../src/platform/instructionFs';
import { needsSharedData } from '../../sharedTestData';

const base = mkdtempSync(join(tmpdir(), 'sprout-skills-'));
after(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A fresh workspace and home folder with these files (paths relative to the pair's folder). */
function tree(files: Record<string, string>): { root: string; home: string } {
  const dir = join(base, String(n++));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(join(dir, 'ws'), { recursive: true });
  mkdirSync(join(dir, 'home'), { recursive: true });
  return { root: join(dir, 'ws'), home: join(dir, 'home') };
}

const skill = (name: string, description = `Does ${name}.`): string => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nBody of ${name}.\n`;

test('skills are found in .github/skills, .claude/skills, .agents/skills and the user folders; only name and description are listed', () => {
  const { root, home } = tree({
    'ws/.github/skills/alpha/SKILL.md': skill('alpha'),
    'ws/.claude/skills/beta/SKILL.md': skill('beta'),
    'ws/.agents/skills/gamma/SKILL.md': skill('gamma'),
    'ws/.github/skills/no-skill-file/README.md': 'not a skill',
    'home/.claude/skills/mine/SKILL.md': skill('mine'),
    'home/.copilot/skills/copilots/SKILL.md': skill('copilots'),
    'home/.agents/skills/shared/SKILL.md': skill('shared'),
    'home/.codex/skills/codexs/SKILL.md': skill('codexs'),
  });
  const set = readSkills(nodeInstructionFs(), { root, home, trusted: true });
  assert.deepEqual(
    set.skills.map((s) => `${s.scope} ${s.name} ${s.path}`),
    [
      'user copilots ~/.copilot/skills/copilots/SKILL.md',
      'user mine ~/.claude/skills/mine/SKILL.md',
      'user shared ~/.agents/skills/shared/SKILL.md',
      'user codexs ~/.codex/skills/codexs/SKILL.md',
      'workspace alpha .github/skills/alpha/SKILL.md',
      'workspace beta .claude/skills/beta/SKILL.md',
      'workspace gamma .agents/skills/gamma/SKILL.md',
    ],
  );
  assert.deepEqual(set.notes, []);
  const text = skillsSystemText(set);
  assert.match(text, /- alpha: Does alpha\./);
  assert.doesNotMatch(text, /Body of alpha/, 'the body is not in the system text (progressive disclosure)');
});

test('an untrusted workspace: none of its skills are read, said once; the user\'s still are', () => {
  const { root, home } = tree({ 'ws/.github/skills/alpha/SKILL.md': skill('alpha'), 'ws/.claude/skills/beta/SKILL.md': skill('beta'), 'home/.claude/skills/mine/SKILL.md': skill('mine') });
  const set = readSkills(nodeInstructionFs(), { root, home, trusted: false });
  assert.deepEqual(set.skills.map((s) => s.name), ['mine']);
  assert.deepEqual(set.notes, [UNTRUSTED_SKILLS_NOTE]);
  assert.deepEqual(set.read('alpha'), { error: 'no skill named "alpha".' });
});

test('bad front matter, a missing name or description, a name unlike its folder: a note naming file and line, the rest works', () => {
  const { root } = tree({
    'ws/.github/skills/broken/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\nbody',
    'ws/.github/skills/nameless/SKILL.md': '---\ndescription: no name here\n---\nbody',
    'ws/.github/skills/mute/SKILL.md': '---\nname: mute\n---\nbody',
    'ws/.github/skills/folder-name/SKILL.md': '---\nlicense: MIT\nname: other-name\ndescription: mismatched\n---\nbody',
    'ws/.github/skills/Upper/SKILL.md': '---\nname: Upper\ndescription: capital letters\n---\nbody',
    'ws/.github/skills/extra/SKILL.md': '---\nname: extra\ndescription: has an odd field\ncolour: green\n---\nbody',
    'ws/.github/skills/good/SKILL.md': skill('good'),
  });
  const set = readSkills(nodeInstructionFs(), { root, trusted: true });
  assert.deepEqual(set.skills.map((s) => s.name), ['extra', 'good']);
  const note = (file: string): string => set.notes.find((x) => x.startsWith(`.github/skills/${file}/SKILL.md:`)) ?? `no note for ${file}`;
  assert.match(note('broken'), /^\.github\/skills\/broken\/SKILL\.md:4: skipped, the front matter is not valid YAML on line 4/);
  assert.match(note('nameless'), /:1: skipped, the front matter has no "name"/);
  assert.match(note('mute'), /:2: skipped, the front matter has no "description"/);
  assert.match(note('folder-name'), /:3: skipped, its name "other-name" is not its folder's name "folder-name"/);
  assert.match(note('Upper'), /:2: skipped, the name "Upper" must be up to 64 lowercase letters/);
  assert.match(note('extra'), /:4: unknown front matter field "colour" \(ignored\)/);
});

test('a workspace skill with a user skill\'s name wins, and a note says which is used', () => {
  const { root, home } = tree({ 'ws/.claude/skills/dup/SKILL.md': skill('dup', 'workspace one'), 'home/.claude/skills/dup/SKILL.md': skill('dup', 'user one') });
  const set = readSkills(nodeInstructionFs(), { root, home, trusted: true });
  assert.deepEqual(set.skills.map((s) => s.description), ['workspace one']);
  assert.match(set.notes.join('\n'), /also at ~\/\.claude\/skills\/dup\/SKILL\.md; \.claude\/skills\/dup\/SKILL\.md is used/);
});

test('the read tool: the body without its header, a file beside it, and nothing outside the skill folder', () => {
  const { root } = tree({
    'ws/.github/skills/tool/SKILL.md': skill('tool'),
    'ws/.github/skills/tool/references/api.md': 'API reference',
    'ws/.github/skills/tool/scripts/run.sh': '#!/bin/sh\necho hi\n',
    'ws/.github/skills/other/SKILL.md': skill('other'),
    'ws/secret.txt': 'workspace secret',
    'outside.txt': 'outside secret',
  });
  symlinkSync(join(root, '..', 'outside.txt'), join(root, '.github/skills/tool/escape.md'));
  symlinkSync(join(root, '.github/skills/other'), join(root, '.github/skills/tool/sibling'));
  const set = readSkills(nodeInstructionFs(), { root, trusted: true });
  const ask = (args: Record<string, unknown>) => answerSkillCall({ name: READ_SKILL_TOOL_NAME, arguments: JSON.stringify(args) }, set);

  const body = ask({ name: 'tool' });
  assert.equal(body?.isError, false);
  assert.match(body?.text ?? '', /Body of tool\./);
  assert.doesNotMatch(body?.text ?? '', /^name: tool/m, 'the header is not repeated');
  assert.match(body?.text ?? '', /scripts run only through the shell tool, with the user's approval/);
  assert.match(body?.text ?? '', /Files in the skill's folder: .*references\/api\.md.*scripts\/run\.sh/);
  assert.match(ask({ name: 'tool', file: 'references/api.md' })?.text ?? '', /API reference/);
  assert.match(ask({ name: 'tool', file: './scripts/run.sh' })?.text ?? '', /echo hi/, 'a script is shown as text, never run');

  for (const file of ['../../../secret.txt', '/etc/passwd', `${root}/secret.txt`, '~/.ssh/id_rsa', 'references/../../other/SKILL.md']) {
    const answer = ask({ name: 'tool', file });
    assert.equal(answer?.isError, true, file);
    assert.match(answer?.text ?? '', /is not a path inside the skill tool's folder/, file);
  }
  assert.match(ask({ name: 'tool', file: 'escape.md' })?.text ?? '', /escape\.md links outside the skill tool's folder; it is not read/);
  assert.match(ask({ name: 'tool', file: 'sibling/SKILL.md' })?.text ?? '', /links outside the skill tool's folder/);
  assert.match(ask({ name: 'tool', file: 'missing.md' })?.text ?? '', /has no file missing\.md \(beside it: .*references\/.*\)/);
  assert.match(ask({ name: 'nope' })?.text ?? '', /no skill named "nope"\. Skills: other, tool\./);
  assert.equal(answerSkillCall({ name: 'workspace__read_file', arguments: '{}' }, set), undefined, 'other calls run as usual');
});

test('a SKILL.md linked out of the workspace is not read', () => {
  const { root } = tree({ 'elsewhere/SKILL.md': skill('linked') });
  mkdirSync(join(root, '.github/skills/linked'), { recursive: true });
  symlinkSync(join(root, '..', 'elsewhere/SKILL.md'), join(root, '.github/skills/linked/SKILL.md'));
  const set = readSkills(nodeInstructionFs(), { root, trusted: true });
  assert.deepEqual(set.skills, []);
  assert.deepEqual(set.notes, ['.github/skills/linked/SKILL.md: not read, it links to a file outside the workspace.']);
});

test('confinedRelative keeps paths inside the folder', () => {
  assert.equal(confinedRelative('a/./b.md'), 'a/b.md');
  assert.equal(confinedRelative('a\\b.md'), 'a/b.md');
  for (const bad of ['..', 'a/../../b', '/abs', 'C:/x', '~/x', '', '.']) assert.equal(confinedRelative(bad), undefined, bad);
});

test('the round request lists the skills in the system text and offers the read tool only when there are skills', () => {
  const { root } = tree({ 'ws/.github/skills/alpha/SKILL.md': skill('alpha') });
  const set = readSkills(nodeInstructionFs(), { root, trusted: true });
  const ctx = { settings: () => ({ ...DEFAULT_SETTINGS, systemPrompt: 'You are Sprout.' }) };
  const withSkills = roundRequest({ ...ctx, skills: { set, announced: '' } }, []);
  assert.match(withSkills.system, /^You are Sprout\.\n\nSkills are available\./);
  assert.deepEqual(withSkills.specs.map((s) => s.name), [READ_SKILL_TOOL_NAME]);
  const none = roundRequest({ ...ctx, skills: { set: readSkills(nodeInstructionFs(), { root: join(root, 'empty'), trusted: true }), announced: '' } }, []);
  assert.equal(none.system, 'You are Sprout.');
  assert.deepEqual(none.specs, []);
});

const shared = needsSharedData('instruction-files');
test('real SKILL.md files from awesome-copilot parse, each with its name and description', { skip: shared.skip }, () => {
  for (const name of ['context-map', 'pytest-coverage', 'tiny-stepping']) {
    const text = readFileSync(join(shared.dir, `awesome-copilot.skill-${name}.SKILL.md`), 'utf8');
    const parsed = parseSkill(text, `.github/skills/${name}/SKILL.md`, name, 'workspace');
    assert.deepEqual(parsed.notes, [], name);
    assert.equal(parsed.skill?.name, name);
    assert.ok((parsed.skill?.description.length ?? 0) > 20, name);
  }
});
