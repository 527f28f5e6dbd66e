/**
 * Custom agents in the CLI (docs: README.md#custom-agents): `--agent NAME` runs the prompt as that agent
 * (its instructions, its tools only: applied by the core, src/agent/agentProfiles.ts), and
 * `sprout-agent agents [--json]` lists them. The workspace's agent files are read only with
 * --trust-workspace; the user's (~/.claude/agents, ~/.copilot/agents) always. An agent's `model` runs
 * the prompt where the configured endpoint lists it (GET /models); else the configured model runs, said once.
 */
import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { type AgentProfile, type ReachableModel, agentModel } from '../agent/agentProfiles';
import type { PromptOptions } from '../agent/promptAttachments';
import { quotedName } from '../agent/nameText';
import { type AgentSet, findAgent, readAgentFiles } from '../customizations/agentFiles';
import { nodeInstructionFs } from '../platform/instructionFs';
import { neutralizeTerminalText } from '../platform/terminalText';
import type { CliArgs } from './cliArgs';
import type { CliIo } from './cliIo';
import { trustsWorkspace } from './cliServers';
import type { Env } from './cliSettings';
import { EXIT_OK, UsageError } from './exitCodes';

function posix(path: string): string {
  return path.split(sep).join('/');
}

function home(env: Env): string | undefined {
  const value = env.HOME ?? env.USERPROFILE;
  return posix(value !== undefined && value !== '' ? value : homedir());
}

/** The agents a run can use. */
export function cliAgentFiles(workspaceFolder: string, trusted: boolean, env: Env): AgentSet {
  return readAgentFiles(nodeInstructionFs(), { root: posix(workspaceFolder), home: home(env), trusted });
}

/**
 * `--agent NAME` as the prompt's options: the agent (with a note when it asks for a model the endpoint
 * does not list, `reachable`) and every agent found. An unknown name is a UsageError listing the known ones.
 */
export function cliAgentOptions(name: string | undefined, set: AgentSet, model: string, reachable: readonly ReachableModel[] = []): Pick<PromptOptions, 'agent' | 'agents'> {
  const agents = set.agents.length > 0 ? { agents: set.agents } : {};
  if (name === undefined) return agents;
  const found = findAgent(set.agents, name);
  if (found === undefined) {
    const known = set.agents.length === 0 ? 'No custom agents were found' : `The agents are: ${set.agents.map((a) => a.name).join(', ')}`;
    const notes = set.notes.length > 0 ? `\n${set.notes.map((n) => `note: ${n}`).join('\n')}` : '';
    throw new UsageError(`--agent ${quotedName(name)} names no custom agent. ${known} (list them with: sprout-agent agents; the workspace's are read only with --trust-workspace).${notes}`);
  }
  const { note } = agentModel(found, [{ id: model }, ...reachable], model);
  const agent: AgentProfile = note === undefined ? found : { ...found, notes: [...(found.notes ?? []), note] };
  return { ...agents, agent };
}

/**
 * A run's agents (the workspace's only when trusted): the one `--agent` names, and all of them (for a
 * delegation); and the model the run uses: the agent's own where the endpoint lists it (`listModels`,
 * asked only when the agent names another model; a listing that fails lists none), else the configured.
 */
export async function cliRunAgent(
  args: Pick<CliArgs, 'agent' | 'trustWorkspace'>,
  workspaceFolder: string,
  env: Env,
  model: string,
  listModels: () => Promise<string[]>,
): Promise<{ options: Pick<PromptOptions, 'agent' | 'agents'>; model: string }> {
  const set = cliAgentFiles(workspaceFolder, trustsWorkspace(args.trustWorkspace, env), env);
  const named = args.agent === undefined ? undefined : findAgent(set.agents, args.agent)?.model;
  const reachable = named === undefined || named === model ? [] : await listModels().then((ids) => ids.map((id) => ({ id })), () => []);
  const options = cliAgentOptions(args.agent, set, model, reachable);
  return { options, model: options.agent === undefined ? model : agentModel(options.agent, [{ id: model }, ...reachable], model).model };
}

export const AGENTS_USAGE = `Usage: sprout-agent agents [--cwd DIR] [--json]

Lists the custom agents a run can use with --agent NAME: the workspace's (.github/agents/*.agent.md,
.github/chatmodes/*.chatmode.md, .claude/agents/*.md) and your own (~/.claude/agents/*.md,
~/.copilot/agents/*.md), with their tools and what of their files Sprout does not use. A run reads
the workspace's agents only with --trust-workspace (or SPROUT_AGENT_TRUST_WORKSPACE=1).
`;

function agentLines(a: AgentProfile): string[] {
  const tools = a.tools === undefined ? 'every tool' : a.tools.length === 0 ? 'no tools' : a.tools.join(', ');
  const lines = [`  ${a.name}  ${a.source}`, `    ${a.description.replace(/\s+/g, ' ').slice(0, 200) || '(no description)'}`, `    tools: ${tools}${a.model === undefined ? '' : `; model: ${a.model}`}`];
  if (a.handoffs !== undefined) lines.push(`    handoffs: ${a.handoffs.map((h) => `${h.label} -> ${h.agent}`).join('; ')}`);
  return lines;
}

export function runAgentsCommand(argv: readonly string[], io: CliIo): number {
  const { values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: { json: { type: 'boolean' }, cwd: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help === true) {
    io.stdout.write(AGENTS_USAGE);
    return EXIT_OK;
  }
  // Listing reads the workspace's files to show them; a run uses them only when trusted.
  const set = cliAgentFiles(resolve(io.cwd, values.cwd ?? '.'), true, io.env);
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ agents: set.agents, notes: set.notes })}\n`);
    return EXIT_OK;
  }
  const n = set.agents.length;
  const out: string[] = [n === 0 ? 'No custom agents.' : `${n} custom agent${n === 1 ? '' : 's'}:`];
  for (const a of set.agents) out.push(...agentLines(a));
  for (const note of set.notes) out.push(`note: ${note}`);
  if (!trustsWorkspace(false, io.env) && set.agents.some((a) => !a.source.startsWith('~'))) {
    out.push("A run reads the workspace's agents only with --trust-workspace (or SPROUT_AGENT_TRUST_WORKSPACE=1); your own always.");
  }
  io.stdout.write(`${out.map((l) => neutralizeTerminalText(l)).join('\n')}\n`);
  return EXIT_OK;
}
