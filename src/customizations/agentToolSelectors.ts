/**
 * A custom agent's `tools:` list, written in its format's own tool names, as Sprout's tool selectors
 * (src/agent/agentProfiles.ts): Claude Code's `Read`, `Bash`, `mcp__server__tool`; VS Code's tool sets
 * and tools (`read`, `edit`, `search`, `execute`, the older `codebase`, `editFiles`, `runCommands`) and
 * its MCP forms `server/*` and `server/tool`. A name the format knows but Sprout has no tool for is a
 * note (file and line); a name neither knows is kept as a selector, so a server's tool of that name
 * still matches, and the core says once when nothing does (`unknownSelectors`). Pure.
 *
 * Names from the formats' own references: code.visualstudio.com/docs/agents/reference/custom-agent-file-reference
 * (tool sets `read`, `edit`, `search`, `execute`, `agent`, `web`, `todo`; MCP `<server>/*`) and
 * Claude Code's subagents page (code.claude.com/docs/en/sub-agents: `tools: Read, Grep, Glob, Bash`,
 * MCP tools as `mcp__server__tool`).
 */
import { CLAUDE_FILE_TOOLS, SPROUT_SHELL_TOOL } from '../agentHooks/agentToolNames';

export type AgentFileFormat = 'copilot' | 'claude';

/** Sprout's `server__tool` as a selector (`server/tool`). */
const sel = (qualified: string): string => qualified.replace('__', '/');
const claudeFile = (agentName: string): string => sel(CLAUDE_FILE_TOOLS.find((e) => e.agent === agentName)?.sprout ?? '');

const READ = 'workspace/read_file';
const LIST = 'workspace/list_files';
const SEARCH = 'workspace/search_text';
const WRITE = claudeFile('Write');
const EDIT = claudeFile('Edit');
const SHELL = sel(SPROUT_SHELL_TOOL);
const TESTS = 'tests/run_tests';
const TODO = 'todo/todo';
const PROBLEMS = 'editor/get_problems';
const USAGES = ['editor/find_usages', 'editor/go_to_definition'];

/** Claude Code's tools with an equivalent among Sprout's bundled servers' tools. */
const CLAUDE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Read: [READ],
  Write: [WRITE],
  Edit: [EDIT],
  MultiEdit: [EDIT],
  Bash: [SHELL],
  Grep: [SEARCH],
  Glob: [LIST],
  LS: [LIST],
  TodoWrite: [TODO],
};

/** Claude Code's tools Sprout has nothing like: said, not offered. */
const CLAUDE_ABSENT = new Set(['WebFetch', 'WebSearch', 'NotebookEdit', 'NotebookRead', 'Task', 'Agent', 'BashOutput', 'KillShell', 'KillBash', 'ExitPlanMode', 'SlashCommand', 'Skill']);

/** VS Code's tool sets and tools (current and older names) with an equivalent. */
const VSCODE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  read: [READ],
  readFile: [READ],
  'read/readFile': [READ],
  edit: [WRITE, EDIT],
  editFiles: [WRITE, EDIT],
  'edit/editFiles': [WRITE, EDIT],
  createFile: [WRITE],
  'edit/createFile': [WRITE],
  search: [SEARCH, LIST],
  codebase: [SEARCH, LIST],
  'search/codebase': [SEARCH, LIST],
  textSearch: [SEARCH],
  'search/textSearch': [SEARCH],
  fileSearch: [LIST],
  'search/fileSearch': [LIST],
  listDirectory: [LIST],
  'search/listDirectory': [LIST],
  findTestFiles: [LIST],
  execute: [SHELL, TESTS],
  runCommands: [SHELL],
  runInTerminal: [SHELL],
  'execute/runInTerminal': [SHELL],
  runTests: [TESTS],
  'execute/runTests': [TESTS],
  testFailure: [TESTS],
  problems: [PROBLEMS],
  'read/problems': [PROBLEMS],
  usages: USAGES,
  'search/usages': USAGES,
  todo: [TODO],
  todos: [TODO],
};

/** VS Code's tools and tool-set prefixes Sprout has nothing like. */
const VSCODE_ABSENT = new Set(['agent', 'runSubagent', 'web', 'fetch', 'githubRepo', 'changes', 'terminalLastCommand', 'terminalSelection', 'vscodeAPI', 'extensions', 'openSimpleBrowser', 'new', 'runTasks', 'runNotebooks', 'think']);
const VSCODE_NAMESPACES = new Set(['read', 'edit', 'search', 'execute', 'web', 'agent', 'vscode', 'todo']);

export interface MappedTools {
  selectors: string[];
  /** Names with no Sprout tool, as written, each with why. */
  absent: { name: string; why: string }[];
}

function claudeName(name: string): string[] | string {
  const mcp = /^mcp__(.+?)(?:__(.+))?$/.exec(name);
  if (mcp !== null) return mcp[2] === undefined || mcp[2] === '*' ? [mcp[1]!] : [`${mcp[1]!}/${mcp[2]}`];
  const known = CLAUDE_TOOLS[name];
  if (known !== undefined) return [...known];
  if (/^\w+\(.*\)$/.test(name)) return 'its argument pattern cannot be held to in an agent\'s tool list, so the tool is not offered (a command rule can allow such commands)';
  if (CLAUDE_ABSENT.has(name)) return 'Sprout has no such tool';
  return [name];
}

function vscodeName(name: string): string[] | string {
  const known = VSCODE_TOOLS[name];
  if (known !== undefined) return [...known];
  const slash = name.indexOf('/');
  const head = slash < 0 ? name : name.slice(0, slash);
  if (VSCODE_ABSENT.has(name) || (slash >= 0 && VSCODE_NAMESPACES.has(head))) return 'Sprout has no such tool';
  if (slash < 0) return [name];
  const tool = name.slice(slash + 1);
  // An MCP server's tools, by the server's name in the MCP configuration.
  return tool === '*' || tool === '' ? [head] : [`${head}/${tool}`];
}

/** The selectors for `names` written in `format`, with the names Sprout cannot give. */
export function mapAgentTools(format: AgentFileFormat, names: readonly string[]): MappedTools {
  const selectors: string[] = [];
  const absent: MappedTools['absent'] = [];
  for (const name of names) {
    const mapped = format === 'claude' ? claudeName(name) : vscodeName(name);
    if (typeof mapped === 'string') absent.push({ name, why: mapped });
    else for (const s of mapped) if (!selectors.includes(s)) selectors.push(s);
  }
  return { selectors, absent };
}
