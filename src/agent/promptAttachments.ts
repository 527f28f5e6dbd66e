/**
 * Files the user attached to a prompt, as the model reads them: the prompt, then each attachment in a
 * fenced block headed by its label. The host reads the files (the core has no file system); the core
 * only words them, so the CLI and the extension send attachments the same way.
 */
import type { AgentProfile } from './agentProfiles';
import type { ImagePart } from './messages';
import type { InstructionSet } from './instructions';
import type { SkillSet } from './skills';
import type { Mode } from './modes';
import type { ToolSelection } from './toolSelection';
import type { ResourceRef } from './resources';

export interface PromptAttachment {
  /** What the user sees, e.g. `src/cart.ts` or `src/cart.ts:10-24`. */
  label: string;
  content: string;
}

/** A fence longer than any run of backticks in the content, so the content cannot close it. */
function fenceFor(content: string): string {
  const longest = Math.max(2, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/**
 * What a host adds to one prompt besides its text. Per-prompt and per-chat choices the core decides
 * with (attached files today; images, a mode, an agent, a tool selection as they land) are fields here,
 * so `AgentSession.run` keeps one signature for both hosts.
 */
export interface PromptOptions {
  /** Files the user attached: they go to the model with the prompt, their labels into `prompt_started`. */
  attachments?: readonly PromptAttachment[];
  /** Images the user attached (checked by the host with imageParts.ts): they go with the prompt's message. */
  images?: readonly ImagePart[];
  /**
   * The instruction files the host found (src/customizations/instructionFiles.ts): the core decides which
   * apply each round. Kept for the session's later rounds and compaction until a prompt brings new ones.
   */
  instructions?: InstructionSet;
  /** The skills the host found (src/customizations/skills.ts): listed in the system text, read through `sprout__read_skill`. */
  skills?: SkillSet;
  /** What the prompt may do (modes.ts): Agent when absent. It narrows the tools offered and run, and adds system text. */
  mode?: Mode;
  /** The chat's chosen custom agent (agentProfiles.ts): its instructions and tool filter shape each round. */
  agent?: AgentProfile;
  /** The agents a `delegate` call may hand a task to (custom agents the host found); the generic one besides. */
  agents?: readonly AgentProfile[];
  /**
   * Which servers and tools the model may see and call (toolSelection.ts): the editor's per-chat
   * picker, the CLI's `--tools`. Only narrows; hooks are never turned off. Absent: every tool.
   */
  tools?: ToolSelection;
  /** The MCP resources attached (`#resource:`, `--resource`): watched, so a change reaches the next round (resourceWatch.ts). */
  resources?: readonly ResourceRef[];
}

export function withAttachments(prompt: string, attachments: readonly PromptAttachment[]): string {
  if (attachments.length === 0) return prompt;
  const blocks = attachments.map((a) => {
    const fence = fenceFor(a.content);
    return `Attached: ${a.label}\n${fence}\n${a.content}${a.content.endsWith('\n') ? '' : '\n'}${fence}`;
  });
  return `${prompt}\n\n${blocks.join('\n\n')}`;
}
