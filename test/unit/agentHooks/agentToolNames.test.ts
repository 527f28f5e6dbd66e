// Sprout's tool calls under each agent's own names (src/agentHooks/agentToolNames.ts): the shell tool
// and the file tools with a true equivalent, MCP tools in each agent's MCP naming, the rest under
// Sprout's names; a hook's rewritten input translates back to Sprout's arguments; a matcher tests
// the agent's name and Sprout's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentFormat } from '../../../src/agentHooks/agentFormats';
import { SPROUT_SHELL_TOOL, agentToolView, geminiMcpName, matchNames, sproutArguments } from '../../../src/agentHooks/agentToolNames';
import type { AgentId } from '../../../src/agentHooks/agentFormat';

const CWD = '/home/me/project';
const shell = { tool: SPROUT_SHELL_TOOL, server: 'workspace', toolName: 'run_command' };
const view = (agent: AgentId, call: { tool: string; server: string; toolName: string }, args: Record<string, unknown>) => agentToolView(agentFormat(agent).tools, call, args, CWD);

describe('Sprout\'s shell tool under each agent\'s shell name', () => {
  const expected: Record<AgentId, string> = { claude: 'Bash', codex: 'Bash', gemini: 'run_shell_command', copilot: 'bash', cursor: SPROUT_SHELL_TOOL, kiro: SPROUT_SHELL_TOOL };
  for (const [agent, name] of Object.entries(expected) as [AgentId, string][]) {
    it(`${agent}: ${name}, with the command where its scripts read it`, () => {
      const v = view(agent, shell, { command: 'rm -rf build' });
      assert.equal(v.name, name);
      assert.equal(v.input.command, 'rm -rf build');
      assert.equal(v.sproutName, SPROUT_SHELL_TOOL);
    });
  }

  it('arguments are renamed where the agent names them differently, the others kept as they are', () => {
    assert.deepEqual(view('claude', shell, { command: 'make', timeoutMs: 5000, cwd: 'sub' }).input, { command: 'make', timeout: 5000, cwd: 'sub' });
    assert.deepEqual(view('gemini', shell, { command: 'make', cwd: 'sub' }).input, { command: 'make', dir_path: 'sub' });
  });
});

describe('file tools: only where the argument shapes translate one for one', () => {
  it('Claude Code: Write and Edit, with the workspace path made absolute as its file_path', () => {
    const write = view('claude', { tool: 'workspace__write_file', server: 'workspace', toolName: 'write_file' }, { path: 'src/a.ts', content: 'x' });
    assert.deepEqual([write.name, write.input], ['Write', { file_path: `${CWD}/src/a.ts`, content: 'x' }]);
    const edit = view('claude', { tool: 'workspace__edit_file', server: 'workspace', toolName: 'edit_file' }, { path: './a.ts', oldString: 'a', newString: 'b', replaceAll: true });
    assert.deepEqual([edit.name, edit.input], ['Edit', { file_path: `${CWD}/a.ts`, old_string: 'a', new_string: 'b', replace_all: true }]);
    const abs = view('claude', { tool: 'workspace__write_file', server: 'workspace', toolName: 'write_file' }, { path: '/etc/passwd', content: '' });
    assert.equal(abs.input.file_path, '/etc/passwd', 'an absolute path stays as the model wrote it');
  });

  it('a Windows workspace gets Windows paths, and a rewrite inside it comes back relative', () => {
    const win = 'C:\\Users\\me\\project';
    const write = agentToolView(agentFormat('claude').tools, { tool: 'workspace__write_file', server: 'workspace', toolName: 'write_file' }, { path: 'src/a.ts', content: 'x' }, win);
    assert.equal(write.input.file_path, 'C:\\Users\\me\\project\\src\\a.ts');
    const abs = agentToolView(agentFormat('claude').tools, { tool: 'workspace__write_file', server: 'workspace', toolName: 'write_file' }, { path: 'D:\\other\\b.ts', content: '' }, win);
    assert.equal(abs.input.file_path, 'D:\\other\\b.ts', 'a drive-letter path is absolute');
    assert.deepEqual(sproutArguments(write, { file_path: 'c:/users/ME/project\\src\\b.ts', content: 'y' }, win), { path: 'src/b.ts', content: 'y' }, 'case and separators as Windows resolves them');
    assert.deepEqual(sproutArguments(write, { file_path: 'C:\\Users\\me\\projectX\\a.ts', content: '' }, win).path, 'C:\\Users\\me\\projectX\\a.ts', 'a sibling folder is not inside');
    assert.equal(agentToolView(agentFormat('claude').tools, { tool: 'workspace__write_file', server: 'workspace', toolName: 'write_file' }, { path: '\\\\server\\share\\c.ts', content: '' }, win).input.file_path, '\\\\server\\share\\c.ts', 'a UNC path is absolute');
  });

  it('Gemini CLI: write_file and replace', () => {
    const edit = view('gemini', { tool: 'workspace__edit_file', server: 'workspace', toolName: 'edit_file' }, { path: 'a.ts', oldString: 'a', newString: 'b', replaceAll: false });
    assert.deepEqual([edit.name, edit.input], ['replace', { file_path: `${CWD}/a.ts`, old_string: 'a', new_string: 'b', allow_multiple: false }]);
    assert.equal(view('gemini', { tool: 'workspace__write_file', server: 'workspace', toolName: 'write_file' }, { path: 'a', content: '' }).name, 'write_file');
  });

  it('Codex edits files with apply_patch, which has no equivalent: its file tools are MCP tools to it', () => {
    assert.equal(view('codex', { tool: 'workspace__write_file', server: 'workspace', toolName: 'write_file' }, { path: 'a', content: '' }).name, 'mcp__workspace__write_file');
  });

  it('read_file has no faithful equivalent anywhere (Sprout\'s line range and byte cap): an MCP tool, its arguments untouched', () => {
    const read = view('claude', { tool: 'workspace__read_file', server: 'workspace', toolName: 'read_file' }, { path: 'a', startLine: 2, endLine: 9 });
    assert.deepEqual([read.name, read.input, read.mcp], ['mcp__workspace__read_file', { path: 'a', startLine: 2, endLine: 9 }, { server: 'workspace', tool: 'read_file' }]);
  });
});

describe('MCP tools in each agent\'s MCP naming', () => {
  const call = { tool: 'github__create_issue', server: 'github', toolName: 'create_issue' };
  it('Claude Code and Codex: mcp__<server>__<tool>; Gemini CLI: mcp_<server>_<tool>', () => {
    assert.equal(view('claude', call, {}).name, 'mcp__github__create_issue');
    assert.equal(view('codex', call, {}).name, 'mcp__github__create_issue');
    assert.equal(view('gemini', call, {}).name, 'mcp_github_create_issue');
  });

  it('Copilot, Cursor and Kiro have no naming Sprout can verify: Sprout\'s name stays', () => {
    for (const agent of ['copilot', 'cursor', 'kiro'] as const) assert.equal(view(agent, call, {}).name, 'github__create_issue');
  });

  it('Gemini CLI\'s name is sanitised and cut to its 64-character limit as Gemini CLI does', () => {
    assert.equal(geminiMcpName('my server', 'do/it'), 'mcp_my_server_do_it');
    assert.equal(geminiMcpName('mcp_x', 'y'), 'mcp_x_y', 'a server already named mcp_... gets no second prefix');
    const long = geminiMcpName('s'.repeat(40), 't'.repeat(40));
    assert.equal(long, `mcp_${'s'.repeat(26)}...${'t'.repeat(30)}`);
  });
});

describe('matching and translating back', () => {
  it('a matcher tests the agent\'s name and Sprout\'s', () => {
    assert.deepEqual(matchNames(view('claude', shell, { command: 'ls' })), ['Bash', SPROUT_SHELL_TOOL]);
    assert.deepEqual(matchNames(view('cursor', shell, { command: 'ls' })), [SPROUT_SHELL_TOOL]);
  });

  it('input a hook rewrote in the agent\'s shape is Sprout\'s arguments again', () => {
    const edit = view('claude', { tool: 'workspace__edit_file', server: 'workspace', toolName: 'edit_file' }, { path: 'a.ts', oldString: 'a', newString: 'b' });
    assert.deepEqual(sproutArguments(edit, { file_path: `${CWD}/a.ts`, old_string: 'a', new_string: 'c' }, CWD), { path: 'a.ts', oldString: 'a', newString: 'c' });
    assert.deepEqual(sproutArguments(edit, { file_path: '/tmp/x', old_string: 'a', new_string: 'c' }, CWD), { path: '/tmp/x', oldString: 'a', newString: 'c' }, 'a path outside the workspace stays absolute');
    assert.deepEqual(sproutArguments(view('claude', shell, { command: 'rm -rf build' }), { command: 'rm -r build', timeout: 1000 }, CWD), { command: 'rm -r build', timeoutMs: 1000 });
    const mcp = view('claude', { tool: 'work__echo', server: 'work', toolName: 'echo' }, { text: 'x' });
    assert.deepEqual(sproutArguments(mcp, { text: 'y' }, CWD), { text: 'y' });
  });
});
