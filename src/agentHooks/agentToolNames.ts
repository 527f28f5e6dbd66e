/**
 * Sprout's tool calls under another agent's names, so that a hook file written for that agent sees
 * them as it sees its own: Sprout's shell tool is Claude Code's and Codex's `Bash`, Gemini CLI's
 * `run_shell_command`, Copilot's `bash`; an MCP tool `server__tool` is `mcp__server__tool` (Claude
 * Code, Codex) or `mcp_server_tool` (Gemini CLI). Each format has one table (AgentFormat.tools): the
 * tools with a true equivalent, whose arguments translate key by key both ways, and the agent's MCP
 * naming. A tool with neither keeps Sprout's name and arguments. Pure: no I/O, no Node.
 *
 * Verified against the agents the agents suite pins (test/agents/agentHooksParity.test.ts): Claude
 * Code 2.1.332 sends `Bash` {command, description}, Codex 0.171.0 `Bash` {command} for its
 * exec_command, Gemini CLI 0.61.0 `run_shell_command` {command}. Their MCP naming too
 * (test/agents/agentMcpNames.test.ts): Claude Code and Codex send `mcp__my_work__echo`, Gemini CLI
 * `mcp_my_work_echo` with `mcp_context` {server_name, tool_name, ...}; its cut to 63 characters is
 * read from its code (packages/core/src/tools/mcp-tool.ts), not seen in a run.
 */

/** Sprout's shell tool: the bundled workspace server's `run_command` ({command, cwd?, timeoutMs?}). */
export const SPROUT_SHELL_TOOL = 'workspace__run_command';

/** One Sprout tool with a true equivalent among the agent's own tools. */
export interface ToolEquivalent {
  /** Sprout's qualified name (`workspace__write_file`). */
  sprout: string;
  /** The agent's name for it (`Write`). */
  agent: string;
  /** Sprout's argument name → the agent's, where they differ; other arguments keep their names. */
  rename?: Readonly<Record<string, string>>;
  /** Sprout arguments holding a workspace path the agent's tool takes absolute (Sprout's may be relative). */
  absolutePaths?: readonly string[];
}

/** How one agent names the tools Sprout calls. */
export interface ToolNaming {
  equivalents: readonly ToolEquivalent[];
  /** The agent's name for MCP tool `tool` of `server`; absent where the agent's naming is not known. */
  mcp?: (server: string, tool: string) => string;
}

/** A Sprout tool call as the agent's hooks see it. */
export interface AgentToolView {
  /** The agent's name for the tool (Sprout's own when there is none). */
  name: string;
  input: Record<string, unknown>;
  /** Sprout's qualified name: a matcher that names it keeps matching. */
  sproutName: string;
  equivalent?: ToolEquivalent;
  /** Set when the name is the agent's MCP naming: the server and tool it names. */
  mcp?: { server: string; tool: string };
}

/** The MCP naming Claude Code and Codex share. */
export const claudeMcpName = (server: string, tool: string): string => `mcp__${server}__${tool}`;

/** Gemini CLI's MCP naming: `mcp_<server>_<tool>`, characters outside [A-Za-z0-9_.:-] as `_`, cut to 64 as it cuts. */
export function geminiMcpName(server: string, tool: string): string {
  const qualified = `${server}_${tool}`;
  let name = (qualified.startsWith('mcp_') ? qualified : `mcp_${qualified}`).replace(/[^a-zA-Z0-9_\-.:]/g, '_');
  if (/^[^a-zA-Z_]/.test(name)) name = `_${name}`;
  return name.length > 63 ? `${name.slice(0, 30)}...${name.slice(-30)}` : name;
}

/** The file tools whose arguments Claude Code's `Write` and `Edit` take one for one. */
export const CLAUDE_FILE_TOOLS: readonly ToolEquivalent[] = [
  { sprout: 'workspace__write_file', agent: 'Write', rename: { path: 'file_path' }, absolutePaths: ['path'] },
  { sprout: 'workspace__edit_file', agent: 'Edit', rename: { path: 'file_path', oldString: 'old_string', newString: 'new_string', replaceAll: 'replace_all' }, absolutePaths: ['path'] },
];

// Paths in the workspace's own style: a Windows workspace (`C:\\work`) has drive-letter and UNC
// absolute paths and either separator, a POSIX one `/`. Pure string work, so the same on any host.
const isWindowsAbsolute = (path: string): boolean => /^[A-Za-z]:[\\/]|^\\\\/.test(path);
const isAbsolute = (path: string): boolean => path.startsWith('/') || isWindowsAbsolute(path);
const trimEnd = (cwd: string): string => cwd.replace(/[\\/]+$/, '');

function absolute(path: string, cwd: string): string {
  if (isAbsolute(path) || cwd === '') return path;
  const rest = path === '.' ? '' : path.replace(/^\.[\\/]/, '');
  if (rest === '') return cwd;
  return isWindowsAbsolute(cwd) ? `${trimEnd(cwd)}\\${rest.replace(/\//g, '\\')}` : `${trimEnd(cwd)}/${rest}`;
}

function relative(path: string, cwd: string): string {
  if (cwd === '') return path;
  const windows = isWindowsAbsolute(cwd);
  // Windows paths compare without case and with either separator, as Windows resolves them.
  const norm = (p: string): string => (windows ? p.replace(/\//g, '\\').toLowerCase() : p);
  const root = norm(`${trimEnd(cwd)}${windows ? '\\' : '/'}`);
  if (!norm(path).startsWith(root)) return path;
  const rest = path.slice(root.length);
  return windows ? rest.replace(/\\/g, '/') : rest;
}

/** Sprout's arguments in the agent's shape: renamed keys, workspace paths made absolute, the rest as they are. */
function toAgentInput(e: ToolEquivalent, args: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const path = e.absolutePaths?.includes(key) === true && typeof value === 'string';
    out[e.rename?.[key] ?? key] = path ? absolute(value, cwd) : value;
  }
  return out;
}

/** The call `tool` (`server`/`toolName`) with `args` as `naming`'s agent sees it. */
export function agentToolView(naming: ToolNaming, call: { tool: string; server: string; toolName: string }, args: Record<string, unknown>, cwd: string): AgentToolView {
  const equivalent = naming.equivalents.find((e) => e.sprout === call.tool);
  if (equivalent !== undefined) return { name: equivalent.agent, input: toAgentInput(equivalent, args, cwd), sproutName: call.tool, equivalent };
  if (naming.mcp !== undefined && call.server !== '' && call.toolName !== '') {
    return { name: naming.mcp(call.server, call.toolName), input: args, sproutName: call.tool, mcp: { server: call.server, tool: call.toolName } };
  }
  return { name: call.tool, input: args, sproutName: call.tool };
}

/**
 * The other way: input a hook wrote in the agent's shape (a rewrite) as Sprout's arguments for the
 * same tool: the agent's key names back to Sprout's, paths inside the workspace back to relative.
 */
export function sproutArguments(view: AgentToolView, agentInput: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const e = view.equivalent;
  if (e === undefined) return agentInput;
  const back = new Map(Object.entries(e.rename ?? {}).map(([sprout, agent]) => [agent, sprout]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(agentInput)) {
    const name = back.get(key) ?? key;
    out[name] = e.absolutePaths?.includes(name) === true && typeof value === 'string' ? relative(value, cwd) : value;
  }
  return out;
}

/** The names a matcher is tested against: the agent's, and Sprout's (a matcher may name either). */
export function matchNames(view: AgentToolView): string[] {
  return view.name === view.sproutName ? [view.name] : [view.name, view.sproutName];
}
