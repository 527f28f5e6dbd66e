/**
 * `--tools`: the names the user gave, a tool set's name standing for its tools (the workspace's
 * `.vscode/*.toolsets.jsonc` and the user's `*.toolsets.jsonc` in VS Code's user prompts folder,
 * src/runtime/toolSetFiles.ts), as the prompt's tool selection (src/agent/toolSelection.ts). Only
 * narrows; hooks always run. A name no server lists is said by the round (`tools_unmatched`); a
 * tool-set file that cannot be used is said here, on stderr.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PromptOptions } from '../agent/promptAttachments';
import { expandToolNames } from '../agent/toolSelection';
import { readToolSets, type ToolSetFolder } from '../runtime/toolSetFiles';
import type { WritableLike } from '../runtime/streamLogger';
import { neutralizeTerminalText } from '../platform/terminalText';

export const USER_TOOL_SETS_ENV = 'SPROUT_AGENT_USER_TOOL_SETS';

/**
 * Where the user's tool sets are: `SPROUT_AGENT_USER_TOOL_SETS` (a folder; "" for none), else VS
 * Code's default profile's prompts folder (`<user data>/User/prompts`: ~/.config/Code on Linux, or
 * $XDG_CONFIG_HOME/Code; ~/Library/Application Support/Code on macOS; %APPDATA%\Code on Windows).
 */
export function userToolSetFolder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): ToolSetFolder | undefined {
  const given = env[USER_TOOL_SETS_ENV];
  if (given !== undefined) return given.trim() === '' ? undefined : { path: given, shown: given };
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const userData =
    platform === 'win32' ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Code')
    : platform === 'darwin' ? join(home, 'Library', 'Application Support', 'Code')
    : join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Code');
  return { path: join(userData, 'User', 'prompts'), shown: 'User/prompts' };
}

/**
 * The workspace's tool sets are read only with --trust-workspace (as its instruction and prompt
 * files are): a set only narrows, but a cloned repository must not decide what a name the user typed
 * stands for (a set named like a server would swap that server's tools for others). The user's are
 * always read; a workspace set of the same name wins when it is read.
 */
export function cliToolSelection(names: readonly string[] | undefined, workspaceFolder: string, trusted: boolean, stderr: WritableLike, env: NodeJS.ProcessEnv = {}): Pick<PromptOptions, 'tools'> {
  if (names === undefined) return {};
  const { sets, notes } = readToolSets(trusted ? workspaceFolder : undefined, userToolSetFolder(env));
  for (const note of notes) stderr.write(`sprout-agent: tool sets: ${neutralizeTerminalText(note)}\n`);
  return { tools: { only: expandToolNames(names, sets) } };
}
