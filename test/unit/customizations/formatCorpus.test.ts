// The customization-format corpus (issue 32, third round): instruction, rule, prompt, agent and skill files
// as teams write them in public repositories, each from a public report, on a real file system in a temporary
// folder. Written before any change to the product, so each case's first-contact verdict was measured; the
// source is in each test's name.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { decideInstructions } from '../../../src/agent/instructions';
import { readAgentFiles } from '../../../src/customizations/agentFiles';
import { INSTRUCTION_SOURCES, readInstructions } from '../../../src/customizations/instructionFiles';
import { readPromptFiles } from '../../../src/customizations/promptFiles';
import { readSkills } from '../../../src/customizations/skills';
import { nodeInstructionFs } from '../../../src/platform/instructionFs';
import { globMatcher } from '../../../src/servers/common/glob';

const base = mkdtempSync(join(tmpdir(), 'sprout-formats-'));
after(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const fs = nodeInstructionFs();

/** A fresh workspace with these files. */
function workspace(files: Record<string, string>): string {
  const root = join(base, String(n++));
  mkdirSync(root, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The instruction files that apply when `touched` (workspace-relative, as the instruction state passes them) were touched, and the notes. */
function applied(files: Record<string, string>, touched: string[]): { paths: string[]; notes: string[] } {
  const root = workspace(files);
  const set = readInstructions(fs, { root, trusted: true, sources: INSTRUCTION_SOURCES, compileGlob: globMatcher });
  const decision = decideInstructions(set, touched);
  return { paths: decision.applied.map((a) => a.path), notes: decision.notes };
}

// ── Headers that YAML refuses but every authoring tool writes ─────────────────────────────────────
test('SKILL.md whose description has an unquoted ": " is listed with its whole description (https://github.com/cursor/plugins/issues/64)', () => {
  const root = workspace({ '.github/skills/verify-this/SKILL.md': '---\nname: verify-this\ndescription: Verify a claim with fresh local evidence: restate it falsifiably, then check it\n---\n# Verify\n' });
  const set = readSkills(fs, { root, trusted: true });
  assert.deepEqual(set.skills.map((s) => [s.name, s.description]), [['verify-this', 'Verify a claim with fresh local evidence: restate it falsifiably, then check it']]);
});

test('a Claude skill with an unquoted ": " in its description keeps its other fields (allowed-tools) (https://github.com/jaredrhod/ai-marketing-skills/issues/3)', () => {
  const root = workspace({
    '.claude/skills/marketing/SKILL.md': '---\nname: marketing\ndescription: Run any marketing task. Use whenever the user wants marketing work: writing or improving copy\nallowed-tools: Read\n---\nBody.\n',
  });
  const set = readSkills(fs, { root, trusted: true });
  assert.deepEqual(set.notes, []);
  assert.equal(set.skills[0]?.description, 'Run any marketing task. Use whenever the user wants marketing work: writing or improving copy');
});

test('a prompt file whose description has an unquoted ": " is a command with that description (https://github.com/dyoshikawa/rulesync/issues/1919)', () => {
  const root = workspace({ '.github/prompts/review.prompt.md': "---\ndescription: Review the diff: bugs first, style last\ntools: ['codebase']\n---\nReview ${input:target}.\n" });
  const set = readPromptFiles(fs, { root, trusted: true });
  assert.deepEqual(set.notes, []);
  assert.deepEqual(set.commands.map((c) => [c.name, c.description, c.tools]), [['review', 'Review the diff: bugs first, style last', ['codebase']]]);
});

test('a custom agent whose description has an unquoted ": " is offered with its tools (https://github.com/sanity-io/agent-toolkit/pull/15)', () => {
  const root = workspace({ '.github/agents/planner.agent.md': "---\ndescription: Plan mode: read only, no edits\ntools: ['search', 'edit']\n---\nPlan first.\n" });
  const set = readAgentFiles(fs, { root, trusted: true });
  assert.deepEqual(set.notes, []);
  assert.deepEqual(set.agents.map((a) => [a.name, a.description]), [['planner', 'Plan mode: read only, no edits']]);
});

test('Copilot applyTo written unquoted as **/*.py (a YAML alias to YAML) still scopes the file (https://github.com/github/copilot-cli-for-beginners/pull/124)', () => {
  const out = applied({ '.github/instructions/python.instructions.md': '---\napplyTo: **/*.py\n---\nUse type hints.\n' }, ['src/app.py']);
  assert.deepEqual(out, { paths: ['.github/instructions/python.instructions.md'], notes: [] });
});

test('Cursor rule with an unquoted ": " in its description and an unquoted *.ts glob (https://github.com/dyoshikawa/rulesync/issues/1919)', () => {
  const rule = '---\ndescription: Use this rule: enforce strict TypeScript settings\nglobs: *.ts\nalwaysApply: false\n---\nAlways enable strict mode.\n';
  assert.deepEqual(applied({ '.cursor/rules/strict.mdc': rule }, ['a.ts']), { paths: ['.cursor/rules/strict.mdc'], notes: [] });
  assert.deepEqual(applied({ '.cursor/rules/strict.mdc': rule }, ['a.py']).paths, []);
});

test('Cursor rule with an empty globs: and alwaysApply: true applies everywhere (https://github.com/ThreeMoonsLab/agents-shipgate/issues/729)', () => {
  assert.deepEqual(applied({ '.cursor/rules/always.mdc': '---\ndescription: House style\nglobs:\nalwaysApply: true\n---\nBe brief.\n' }, []), { paths: ['.cursor/rules/always.mdc'], notes: [] });
});

// ── Globs as teams write them ─────────────────────────────────────────────────────────────────────
test('applyTo with a brace glob "**/*.{ts,tsx}" is one pattern, not split at its comma (https://github.com/microsoft/vscode/issues/250501)', () => {
  const files = { '.github/instructions/react.instructions.md': '---\napplyTo: "**/*.{ts,tsx}"\n---\nUse function components.\n' };
  assert.deepEqual(applied(files, ['src/components/Logo.tsx']), { paths: ['.github/instructions/react.instructions.md'], notes: [] });
  assert.deepEqual(applied(files, ['src/util.ts']).paths, ['.github/instructions/react.instructions.md']);
});

test('applyTo "**/*.ts,**/*.tsx" (the documented comma list) applies to either (https://github.com/microsoft/vscode/issues/249256)', () => {
  const files = { '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts,**/*.tsx"\n---\nStrict TS.\n' };
  assert.deepEqual(applied(files, ['src/Logo.tsx']).paths, ['.github/instructions/ts.instructions.md']);
  assert.deepEqual(applied(files, ['README.md']).paths, []);
});

test('applyTo unquoted with a space after the comma: app/models/**/*.rb, db/**/*.rb (https://github.com/microsoft/vscode/issues/258378)', () => {
  const files = { '.github/instructions/ar.instructions.md': '---\napplyTo: app/models/**/*.rb, db/**/*.rb\n---\nActive Record rules.\n' };
  assert.deepEqual(applied(files, ['db/migrate/001_init.rb']).paths, ['.github/instructions/ar.instructions.md']);
  assert.deepEqual(applied(files, ['lib/tasks/x.rb']).paths, []);
});

test('a brace group of folders with a brace group of extensions: "{src/ui/**,web/**}/*.{js,vue}" (https://github.com/surveysolutions/surveysolutions/pull/4880)', () => {
  const files = { '.github/instructions/frontend.instructions.md': '---\napplyTo: "{src/ui/**,web/**}/*.{js,vue}"\n---\nFrontend rules.\n' };
  assert.deepEqual(applied(files, ['web/pages/Home.vue']).paths, ['.github/instructions/frontend.instructions.md']);
  assert.deepEqual(applied(files, ['src/server/main.js']).paths, []);
});

// ── Bodies ────────────────────────────────────────────────────────────────────────────────────────
test('a SKILL.md body with "---" horizontal rules is read whole, not cut at the first rule (https://github.com/op7418/Humanizer-zh/pull/21)', () => {
  const root = workspace({ '.github/skills/humanize/SKILL.md': '---\nname: humanize\ndescription: Rewrites text.\n---\n# Part one\n\n---\n\n# Part two\n\n---\n\n# Part three\n' });
  const set = readSkills(fs, { root, trusted: true });
  const body = set.read('humanize');
  assert.ok('text' in body && body.text.includes('# Part three'), JSON.stringify(body));
});
