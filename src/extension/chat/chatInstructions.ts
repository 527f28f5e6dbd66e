/**
 * The window's instruction files for a prompt: read with node:fs from the workspace folder (none of
 * them in Restricted Mode, which the core's note says once) and the user's home, in the formats
 * `sprout.instructions.sources` names. Which apply is the core's decision (src/agent/instructions.ts).
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { InstructionSet } from '../../agent/instructions';
import { readInstructions } from '../../customizations/instructionFiles';
import type { SkillSet } from '../../agent/skills';
import { readSkills } from '../../customizations/skills';
import { instructionFolders } from '../../customizations/instructionWalk';
import { type AgentSet, VSCODE_USER_SUFFIXES, readAgentFiles } from '../../customizations/agentFiles';
import { nodeInstructionFs } from '../../platform/instructionFs';
import { globMatcher } from '../../servers/common/glob';
import type { ExtensionSettings } from '../settings/settingsMapping';

/** VS Code's own `chat.useAgentsMdFile: false` turns AGENTS.md off here too (only where the user set it); `chat.instructionsFilesLocations` is read in windowInstructions. */
function honourVsCodeSettings(sources: ExtensionSettings['instructionSources']): ExtensionSettings['instructionSources'] {
  const useAgentsMd = vscode.workspace.getConfiguration('chat').get<unknown>('useAgentsMdFile');
  return useAgentsMd === false ? sources.filter((s) => s !== 'agents') : sources;
}

export function windowInstructions(workspaceFolder: string, settings: () => ExtensionSettings): () => InstructionSet | undefined {
  return () => {
    if (workspaceFolder === '') return undefined;
    const locations = instructionFolders(vscode.workspace.getConfiguration('chat').get<unknown>('instructionsFilesLocations'));
    const set = readInstructions(nodeInstructionFs(), {
      root: workspaceFolder.replace(/\\/g, '/'),
      home: homedir(),
      trusted: vscode.workspace.isTrusted,
      sources: honourVsCodeSettings(settings().instructionSources),
      compileGlob: globMatcher,
      copilotFolders: locations.folders,
    });
    return locations.notes.length === 0 ? set : { ...set, notes: [...locations.notes, ...set.notes] };
  };
}

/**
 * The window's custom agents: the user's (~/.claude/agents, ~/.copilot/agents, and VS Code's user
 * prompts folder, `userPrompts`) always, the workspace's only in a trusted window (src/customizations/agentFiles.ts).
 */
export function windowAgents(workspaceFolder: string, userPrompts?: string): () => AgentSet {
  const userFolders = userPrompts === undefined ? [] : [{ path: userPrompts.replace(/\\/g, '/'), shown: 'User/prompts', format: 'copilot' as const, scope: 'user' as const, suffixes: VSCODE_USER_SUFFIXES }];
  return () =>
    readAgentFiles(nodeInstructionFs(), { root: workspaceFolder.replace(/\\/g, '/'), home: homedir().replace(/\\/g, '/'), trusted: workspaceFolder !== '' && vscode.workspace.isTrusted, userFolders });
}

/** The window's skills for a prompt: the user's always, the workspace's only in a trusted window (src/customizations/skills.ts). */
export function windowSkills(workspaceFolder: string): () => SkillSet | undefined {
  return () => readSkills(nodeInstructionFs(), { root: workspaceFolder.replace(/\\/g, '/'), home: homedir().replace(/\\/g, '/'), trusted: workspaceFolder !== '' && vscode.workspace.isTrusted });
}
