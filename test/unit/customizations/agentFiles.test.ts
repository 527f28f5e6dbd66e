// Reading custom agents (src/customizations/agentFiles.ts, agentToolSelectors.ts) with node:fs: the
// repo's own fixtures (test/fixtures/agent-files, written for these tests: VS Code .agent.md with
// handoffs and a model list, an older .chatmode.md, Claude Code subagents with comma-separated tools and
// a model alias, a broken header), a user home made per test, and real agent files from public
// repositories when the shared test data has any (test/sharedTestData.ts; skipped, saying so, when not).
// Fields as the formats document them: code.visualstudio.com/docs/agents/reference/custom-agent-file-reference
// and code.claude.com/docs/en/sub-agents.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { agentTools, selectorMatches } from '../../../src/agent/agentProfiles';
import type { ToolInfo } from '../../../src/agent/messages';
import { UNTRUSTED_AGENTS_NOTE, VSCODE_USER_SUFFIXES, findAgent, parseAgentFile, readAgentFiles } from '../../../src/customizations/agentFiles';
import { mapAgentTools } from '../../../src/customizations/agentToolSelectors';
import { nodeInstructionFs } from '../../../src/platform/instructionFs';
import { needsSharedData } from '../../sharedTestData';

const FIXTURE = resolve(import.meta.dirname, '..', '..', 'fixtures', 'agent-files');
const fs = nodeInstructionFs();
const temp = mkdtempSync(join(tmpdir(), 'sprout-agent-files-'));
after(() => rmSync(temp, { recursive: true, force: true }));

const tool = (server: string, bareName: string): ToolInfo => ({ server, bareName, qualifiedName: `${server}__${bareName}`, description: '', inputSchema: {}, annotations: {}, isHook: false });
/** The tools a run with the bundled servers and a `tracker` MCP server lists. */
const TOOLS = [
  ...['read_file', 'list_files', 'search_text', 'write_file', 'edit_file', 'run_command'].map((t) => tool('workspace', t)),
  tool('tests', 'run_tests'),
  tool('todo', 'todo'),
  tool('tracker', 'list_tickets'),
  tool('tracker', 'close_ticket'),
];

test('the fixture workspace: both formats and the older chat mode, with name, description, model, instructions and handoffs', () => {
  const set = readAgentFiles(fs, { root: FIXTURE, trusted: true });
  assert.deepEqual(set.agents.map((a) => `${a.name} ${a.source}`), [
    'Implementer .github/agents/implementer.agent.md',
    'planner .github/agents/planner.agent.md',
    'explainer .github/chatmodes/explainer.chatmode.md',
    'code-reviewer .claude/agents/reviewer.md',
    'test-runner .claude/agents/tester.md',
  ]);
  const planner = findAgent(set.agents, 'planner');
  assert.equal(planner?.description, 'Plans a change before any file is touched');
  assert.equal(planner?.model, 'Fixture Model A', 'the first of a model list');
  assert.match(planner?.instructions ?? '', /^Write a numbered plan\./);
  assert.deepEqual(planner?.handoffs, [
    { label: 'Start implementation', agent: 'Implementer', prompt: 'Carry out the plan above, step by step.' },
    { label: 'Review the plan', agent: 'code-reviewer', prompt: 'Check the plan for gaps.', send: true },
  ]);
  assert.ok(set.notes.includes('.github/agents/planner.agent.md: handoff 3 needs a label and an agent; it is left out.'), set.notes.join('\n'));
  assert.equal(findAgent(set.agents, 'code-reviewer')?.model, 'haiku');
  assert.equal(findAgent(set.agents, 'test-runner')?.model, undefined, '`inherit` is the chat\'s model');
  assert.equal(findAgent(set.agents, 'IMPLEMENTER')?.name, 'Implementer', 'any case, when unique');
});

test('a broken header is named with its file and line; the other agents are still listed', () => {
  const set = readAgentFiles(fs, { root: FIXTURE, trusted: true });
  assert.ok(!set.agents.some((a) => a.source.includes('broken')));
  assert.ok(set.notes.some((n) => /^\.github\/agents\/broken\.agent\.md:[34]: not used as an agent: the front matter is not valid YAML on line [34]/.test(n)), set.notes.join('\n'));
  assert.equal(set.agents.length, 5);
});

test('tool names map to Sprout selectors: VS Code sets and older names, MCP server/*, Claude tools and mcp__server__tool', () => {
  const set = readAgentFiles(fs, { root: FIXTURE, trusted: true });
  const names = (agent: string): string[] => agentTools(findAgent(set.agents, agent), TOOLS).map((t) => t.qualifiedName).sort();
  assert.deepEqual(names('planner'), ['tracker__close_ticket', 'tracker__list_tickets', 'workspace__list_files', 'workspace__read_file', 'workspace__search_text']);
  assert.deepEqual(names('Implementer'), ['tests__run_tests', 'tracker__close_ticket', 'workspace__edit_file', 'workspace__list_files', 'workspace__run_command', 'workspace__search_text', 'workspace__write_file']);
  assert.deepEqual(names('code-reviewer'), ['tracker__list_tickets', 'workspace__list_files', 'workspace__read_file', 'workspace__search_text'], 'Bash(git diff:*) does not open the whole shell');
  assert.equal(names('test-runner').length, TOOLS.length, 'no tools field: every tool');
  assert.deepEqual(findAgent(set.agents, 'explainer')?.tools, ['workspace/search_text', 'workspace/list_files', 'editor/find_usages', 'editor/go_to_definition']);
});

test('tools with no Sprout equivalent and fields Sprout does not apply are notes with file and line, on the agent too', () => {
  const set = readAgentFiles(fs, { root: FIXTURE, trusted: true });
  const reviewer = findAgent(set.agents, 'code-reviewer');
  assert.deepEqual(reviewer?.notes, [
    '.claude/agents/reviewer.md:4: tool "Bash(git diff:*)" is left out: its argument pattern cannot be held to in an agent\'s tool list, so the tool is not offered (a command rule can allow such commands).',
    '.claude/agents/reviewer.md:4: tool "WebFetch" is left out: Sprout has no such tool.',
  ]);
  assert.ok(set.notes.includes('.github/agents/planner.agent.md:3: tool "fetch" is left out: Sprout has no such tool.'), set.notes.join('\n'));
  assert.ok(set.notes.includes('.claude/agents/tester.md:5: disallowedTools is not applied by Sprout.'), set.notes.join('\n'));
});

test('mapAgentTools: each form once; an unrecognised name is kept as a selector (a server\'s tool of that name matches)', () => {
  assert.deepEqual(mapAgentTools('claude', ['Read', 'mcp__github', 'mcp__github__*', 'Edit', 'MultiEdit', 'lookup']), { selectors: ['workspace/read_file', 'github', 'workspace/edit_file', 'lookup'], absent: [] });
  assert.deepEqual(mapAgentTools('copilot', ['execute', 'github/*', 'web/fetch', 'vscode/extensions']).selectors, ['workspace/run_command', 'tests/run_tests', 'github']);
  assert.deepEqual(mapAgentTools('copilot', ['agent', 'web/fetch']).absent.map((a) => a.name), ['agent', 'web/fetch']);
  assert.ok(selectorMatches('lookup', tool('tracker', 'lookup')));
});

test('an untrusted workspace: none of its agents, said once; the user\'s own (home and the editor\'s folder) still', () => {
  const home = join(temp, 'home');
  mkdirSync(join(home, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(home, '.claude', 'agents', 'mine.md'), '---\nname: mine\ndescription: Mine\ntools: Read\n---\nMy own agent.\n');
  writeFileSync(join(home, '.claude', 'agents', 'clash.md'), '---\nname: code-reviewer\ndescription: Same name as the workspace\'s\n---\nx\n');
  const prompts = join(temp, 'vscode-user', 'prompts');
  mkdirSync(prompts, { recursive: true });
  writeFileSync(join(prompts, 'docs.agent.md'), '---\ndescription: Writes docs\n---\nWrite docs.\n');
  writeFileSync(join(prompts, 'fix.prompt.md'), '---\ndescription: a prompt file, not an agent\n---\nFix it.\n');
  const userFolders = [{ path: prompts, shown: 'User/prompts', format: 'copilot' as const, scope: 'user' as const, suffixes: VSCODE_USER_SUFFIXES }];
  const untrusted = readAgentFiles(fs, { root: FIXTURE, home, trusted: false, userFolders });
  assert.deepEqual(untrusted.agents.map((a) => a.name).sort(), ['code-reviewer', 'docs', 'mine']);
  assert.equal(untrusted.notes.filter((n) => n === UNTRUSTED_AGENTS_NOTE).length, 1);
  const trusted = readAgentFiles(fs, { root: FIXTURE, home, trusted: true, userFolders });
  assert.equal(findAgent(trusted.agents, 'code-reviewer')?.source, '.claude/agents/reviewer.md', 'the workspace\'s comes first');
  assert.ok(trusted.notes.includes('~/.claude/agents/clash.md: the agent "code-reviewer" is already defined by .claude/agents/reviewer.md; this file is not used.'), trusted.notes.join('\n'));
});

test('a workspace agent file linking out of the workspace is not read', () => {
  const root = join(temp, 'linked');
  mkdirSync(join(root, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(temp, 'outside.md'), '---\nname: outside\ndescription: x\n---\nx\n');
  symlinkSync(join(temp, 'outside.md'), join(root, '.claude', 'agents', 'outside.md'));
  const set = readAgentFiles(fs, { root, trusted: true });
  assert.deepEqual(set.agents, []);
  assert.deepEqual(set.notes, ['.claude/agents/outside.md: not read, it links to a file outside the workspace.']);
});

test('parseAgentFile: a file with no header is an agent named after its file, with every tool', () => {
  const notes: string[] = [];
  const agent = parseAgentFile('Just instructions.\n', { shown: '.github/agents/plain.agent.md', stem: 'plain', format: 'copilot' }, notes);
  assert.deepEqual(agent, { name: 'plain', description: '', source: '.github/agents/plain.agent.md', instructions: 'Just instructions.\n' });
  assert.deepEqual(notes, []);
});

const shared = needsSharedData('instruction-files');
test('real agent files from public repositories (shared test data) are read without a thrown error', { skip: shared.skip }, (t) => {
  const files = readdirSync(shared.dir).filter((f) => /\.(agent|chatmode)\.md$/.test(f) || /(^|\.)agents-[^.]+\.md$/.test(f));
  if (files.length === 0) {
    t.skip('the shared test data has no agent files (*.agent.md, *.chatmode.md, *.agents-NAME.md) yet');
    return;
  }
  for (const file of files) {
    const notes: string[] = [];
    const agent = parseAgentFile(readFileSync(join(shared.dir, file), 'utf8'), { shown: file, stem: file.replace(/\.md$/, ''), format: file.includes('claude') ? 'claude' : 'copilot' }, notes);
    assert.ok(agent !== undefined || notes.length > 0, `${file}: neither an agent nor a note`);
    if (agent !== undefined) assert.ok(agent.instructions.trim() !== '', `${file}: no instructions read`);
  }
});
