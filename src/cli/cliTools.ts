/**
 * `--tools`: the names the user gave, a tool set's name standing for its tools (the workspace's
 * `.vscode/*.toolsets.jsonc`, src/runtime/toolSetFiles.ts), as the prompt's tool selection
 * (src/agent/toolSelection.ts). Only narrows; hooks always run. A name no server lists is said by the
 * round (`tools_unmatched`); a tool-set file that cannot be used is said here, on stderr.
 */
import type { PromptOptions } from '../agent/promptAttachments';
import { expandToolNames } from '../agent/toolSelection';
import { readToolSets } from '../runtime/toolSetFiles';
import type { WritableLike } from '../runtime/streamLogger';
import { neutralizeTerminalText } from '../platform/terminalText';

/**
 * The tool sets are the workspace's, read only with --trust-workspace (as its instruction and prompt
 * files are): a set only narrows, but a cloned repository must not decide what a name the user typed
 * stands for (a set named like a server would swap that server's tools for others).
 */
export function cliToolSelection(names: readonly string[] | undefined, workspaceFolder: string, trusted: boolean, stderr: WritableLike): Pick<PromptOptions, 'tools'> {
  if (names === undefined) return {};
  const { sets, notes } = trusted ? readToolSets(workspaceFolder) : { sets: [], notes: [] };
  for (const note of notes) stderr.write(`sprout-agent: tool sets: ${neutralizeTerminalText(note)}\n`);
  return { tools: { only: expandToolNames(names, sets) } };
}
