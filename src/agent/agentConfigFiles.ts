/**
 * The one table of where each coding agent keeps the configuration that makes it run commands (hooks,
 * MCP servers), inside a project and in the user's home. Two rules read it: the agent formats
 * (`src/agentHooks/`: which file `hooks install` writes, which files `--agent-hooks` runs) and the
 * protected paths (`src/servers/common/protectedPaths.ts`: a write to any of these folders needs the
 * user's approval). So a new agent added here is protected the day its hooks are served, and the two
 * can never disagree. Plain data, so every layer may read it.
 */
export interface AgentConfigFiles {
  /** Paths relative to the workspace root; the first is the one `hooks install` writes. */
  workspace: readonly string[];
  /** Paths relative to the user's home folder. */
  user: readonly string[];
  /**
   * What of the workspace configures the agent, all of it protected (glob patterns): its folder, since
   * an agent that reads every file of a folder (Copilot's `.github/hooks/*.json`, Kiro's
   * `.kiro/agents/*`) or keeps more than hooks there (Codex's `config.toml`, Gemini CLI's settings)
   * is configured by any file in it, and any file elsewhere that starts its servers (Claude Code's
   * project `.mcp.json`).
   */
  protect: readonly string[];
}

export const AGENT_CONFIG_FILES = {
  claude: { workspace: ['.claude/settings.json', '.claude/settings.local.json'], user: ['.claude/settings.json'], protect: ['.claude/**', '.mcp.json'] },
  codex: { workspace: ['.codex/hooks.json'], user: ['.codex/hooks.json'], protect: ['.codex/**'] },
  gemini: { workspace: ['.gemini/settings.json'], user: ['.gemini/settings.json'], protect: ['.gemini/**'] },
  copilot: { workspace: ['.github/hooks/sprout-agent.json'], user: ['.copilot/hooks/sprout-agent.json'], protect: ['.github/hooks/**'] },
  cursor: { workspace: ['.cursor/hooks.json'], user: ['.cursor/hooks.json'], protect: ['.cursor/**'] },
  kiro: { workspace: ['.kiro/agents/sprout.json'], user: ['.kiro/agents/sprout.json'], protect: ['.kiro/agents/**'] },
} as const satisfies Record<string, AgentConfigFiles>;

/** The protected-path patterns the table gives: what configures each agent. */
export function agentConfigPatterns(): string[] {
  return Object.values(AGENT_CONFIG_FILES).flatMap((files: AgentConfigFiles) => files.protect);
}
