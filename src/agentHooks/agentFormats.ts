/**
 * The table of agent formats: one entry per coding agent whose command hooks Sprout can serve (and,
 * the other way round, run). Claude Code, Codex and Gemini CLI share one wire (claudeFamily.ts);
 * Copilot, Cursor and Kiro have formats of their own.
 */
import { AGENT_CONFIG_FILES } from '../agent/agentConfigFiles';
import { AGENT_IDS, type AgentFormat, type AgentId } from './agentFormat';
import { claudeFamilyFormat } from './claudeFamily';
import { copilotFormat } from './copilotFormat';
import { cursorFormat } from './cursorFormat';
import { kiroFormat } from './kiroFormat';
import { CLAUDE_FILE_TOOLS, SPROUT_SHELL_TOOL, claudeMcpName, geminiMcpName } from './agentToolNames';

const CLAUDE_NAMES = {
  _SessionStart: 'SessionStart',
  _UserPromptSubmit: 'UserPromptSubmit',
  _PreToolUse: 'PreToolUse',
  _PostToolUse: 'PostToolUse',
  _Stop: 'Stop',
  _SessionEnd: 'SessionEnd',
} as const;

const claudeFormat = claudeFamilyFormat({
  id: 'claude',
  displayName: 'Claude Code',
  // SubagentStop: a subagent (its Agent/Task tool) ending its turn, Sprout's _SubagentStop.
  names: { ...CLAUDE_NAMES, _SubagentStop: 'SubagentStop' },
  closingTextField: 'last_assistant_message',
  blockWord: 'block',
  denyStyle: 'permissionDecision',
  tools: { equivalents: [{ sprout: SPROUT_SHELL_TOOL, agent: 'Bash', rename: { timeoutMs: 'timeout' } }, ...CLAUDE_FILE_TOOLS], mcp: claudeMcpName },
  config: {
    workspaceFiles: AGENT_CONFIG_FILES.claude.workspace,
    userFiles: AGENT_CONFIG_FILES.claude.user,
    layout: 'matcherGroups',
    entryBase: { type: 'command' },
    commandKey: 'command',
    timeout: { key: 'timeout', unit: 's' },
    fileBase: {},
  },
  setupNotes: [
    'Claude Code reads .claude/settings.json at start: restart a running session (or review the hooks with /hooks) to pick the change up.',
    'Claude Code re-injects state after compaction through SessionStart (source "compact"), which Sprout maps to _PostCompact.',
  ],
});

const codexFormat = claudeFamilyFormat({
  id: 'codex',
  displayName: 'Codex CLI',
  // Codex has no hook at session end.
  names: { ...CLAUDE_NAMES, _SessionEnd: undefined },
  closingTextField: 'last_assistant_message',
  blockWord: 'block',
  denyStyle: 'permissionDecision',
  // Codex reports its exec_command to hooks as `Bash` {command}; it edits files with apply_patch (a patch, no equivalent).
  tools: { equivalents: [{ sprout: SPROUT_SHELL_TOOL, agent: 'Bash' }], mcp: claudeMcpName },
  config: {
    workspaceFiles: AGENT_CONFIG_FILES.codex.workspace,
    userFiles: AGENT_CONFIG_FILES.codex.user,
    layout: 'matcherGroups',
    entryBase: { type: 'command' },
    commandKey: 'command',
    timeout: { key: 'timeout', unit: 's' },
    fileBase: {},
  },
  setupNotes: [
    'Codex runs hooks only with its hooks feature on: add `hooks = true` under `[features]` in ~/.codex/config.toml (or pass `--enable hooks`).',
    'Codex reads a project\'s .codex/hooks.json only in a trusted project: trust it when asked (or `codex exec --trust`).',
    'Codex skips a hook it does not trust, silently: review and trust it once in the TUI (/hooks), or pass --dangerously-bypass-hook-trust in automation that vets its hooks.',
  ],
});

const geminiFormat = claudeFamilyFormat({
  id: 'gemini',
  displayName: 'Gemini CLI',
  names: {
    _SessionStart: 'SessionStart',
    _UserPromptSubmit: 'BeforeAgent',
    _PreToolUse: 'BeforeTool',
    _PostToolUse: 'AfterTool',
    _Stop: 'AfterAgent',
    _SessionEnd: 'SessionEnd',
  },
  closingTextField: 'prompt_response',
  blockWord: 'deny',
  denyStyle: 'decision',
  geminiFields: true,
  tools: {
    equivalents: [
      { sprout: SPROUT_SHELL_TOOL, agent: 'run_shell_command', rename: { cwd: 'dir_path' } },
      { sprout: 'workspace__write_file', agent: 'write_file', rename: { path: 'file_path' }, absolutePaths: ['path'] },
      { sprout: 'workspace__edit_file', agent: 'replace', rename: { path: 'file_path', oldString: 'old_string', newString: 'new_string', replaceAll: 'allow_multiple' }, absolutePaths: ['path'] },
    ],
    mcp: geminiMcpName,
  },
  config: {
    workspaceFiles: AGENT_CONFIG_FILES.gemini.workspace,
    userFiles: AGENT_CONFIG_FILES.gemini.user,
    layout: 'matcherGroups',
    entryBase: { type: 'command' },
    commandKey: 'command',
    timeout: { key: 'timeout', unit: 'ms' },
    fileBase: {},
  },
  setupNotes: [
    'Gemini CLI reads a workspace\'s .gemini/settings.json only in a trusted folder (trust it when asked, or GEMINI_CLI_TRUST_WORKSPACE=true in automation).',
    'Gemini CLI has no hook after compaction that adds context (PreCompress is advisory), so _PostCompact is not served.',
  ],
});

export const AGENT_FORMATS: Readonly<Record<AgentId, AgentFormat>> = {
  claude: claudeFormat,
  codex: codexFormat,
  gemini: geminiFormat,
  copilot: copilotFormat,
  cursor: cursorFormat,
  kiro: kiroFormat,
};

export function agentFormat(id: AgentId): AgentFormat {
  return AGENT_FORMATS[id];
}

export const AGENT_LIST = AGENT_IDS.map((id) => AGENT_FORMATS[id]);
