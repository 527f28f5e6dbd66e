/**
 * The CLI's skills (docs: README.md#skills): read with node:fs for one run (none of the workspace's
 * without --trust-workspace; the user's always), and the `sprout-agent skills [--json]` listing.
 */
import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import type { InstructionSet } from '../agent/instructions';
import type { SkillSet } from '../agent/skills';
import { readSkills } from '../customizations/skills';
import { nodeInstructionFs } from '../platform/instructionFs';
import { neutralizeTerminalText } from '../platform/terminalText';
import type { CliIo } from './cliIo';
import { trustsWorkspace } from './cliServers';
import type { Env } from './cliSettings';
import { EXIT_OK } from './exitCodes';
import { cliInstructions, instructionSources } from './cliInstructions';

function home(env: Env): string | undefined {
  const value = env.HOME ?? env.USERPROFILE;
  return value !== undefined && value !== '' ? value : homedir();
}

/** The skills a run offers the model. */
export function cliSkills(workspaceFolder: string, trusted: boolean, env: Env): SkillSet {
  return readSkills(nodeInstructionFs(), { root: workspaceFolder.split(sep).join('/'), home: home(env)?.split(sep).join('/'), trusted });
}

/** What a run reads of the repository and the user's home to shape the model's work: instructions and skills. */
export function cliCustomizations(workspaceFolder: string, trusted: boolean, sourcesFlag: string | undefined, env: Env): { instructions: InstructionSet; skills: SkillSet } {
  return { instructions: cliInstructions(workspaceFolder, trusted, instructionSources(sourcesFlag, env), env), skills: cliSkills(workspaceFolder, trusted, env) };
}

export const SKILLS_USAGE = `Usage: sprout-agent skills [--cwd DIR] [--json]

Lists the Agent Skills (SKILL.md folders) of the workspace (.github/skills, .claude/skills,
.agents/skills) and of your home folder (~/.copilot/skills, ~/.claude/skills, ~/.agents/skills,
~/.codex/skills), with what could not be used. The model sees each skill's name and description and
reads a skill with the sprout__read_skill tool when it needs it. A run reads the workspace's skills
only with --trust-workspace (or SPROUT_AGENT_TRUST_WORKSPACE=1); this listing shows them either way.
`;

export function runSkillsCommand(argv: readonly string[], io: CliIo): number {
  const { values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: { json: { type: 'boolean' }, cwd: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help === true) {
    io.stdout.write(SKILLS_USAGE);
    return EXIT_OK;
  }
  const set = cliSkills(resolve(io.cwd, values.cwd ?? '.'), true, io.env);
  const trusted = trustsWorkspace(false, io.env);
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ skills: set.skills, notes: set.notes })}\n`);
    return EXIT_OK;
  }
  const out: string[] = [set.skills.length === 0 ? 'No skills.' : `${set.skills.length} skill${set.skills.length === 1 ? '' : 's'}:`];
  for (const s of set.skills) out.push(`  ${s.name}  ${s.path}`, `    ${s.description.replace(/\s+/g, ' ').slice(0, 200)}`);
  for (const note of set.notes) out.push(`note: ${note}`);
  if (!trusted && set.skills.some((s) => s.scope === 'workspace')) out.push("A run reads the workspace's skills only with --trust-workspace (or SPROUT_AGENT_TRUST_WORKSPACE=1); your own always.");
  io.stdout.write(`${out.map((l) => neutralizeTerminalText(l)).join('\n')}\n`);
  return EXIT_OK;
}
