/**
 * Finding and reading custom agents for both hosts (docs: README.md#custom-agents): VS Code's and
 * Copilot's `.github/agents/*.agent.md` (and the older `.github/chatmodes/*.chatmode.md`), Claude
 * Code's `.claude/agents/*.md`, and the user's own (`~/.claude/agents`, `~/.copilot/agents`, and the
 * folders the editor adds: VS Code's user prompts folder). Each file is an AgentProfile (the core
 * applies it: src/agent/agentProfiles.ts). A file that cannot be used is a note naming it and its line
 * and the others are still listed; an untrusted workspace's files are not read (they are instructions
 * for the model), said once; the user's own still are.
 */
import type { AgentHandoff, AgentProfile } from '../agent/agentProfiles';
import { FrontMatterError, listField, readFrontMatter, stringField } from './frontMatter';
import { readFoundFiles, trustedFiles, type CustomizationRoots } from './instructionFiles';
import type { InstructionFileSystem } from './instructionSources';
import { type AgentFileFormat, mapAgentTools } from './agentToolSelectors';

/** A folder of agent files: where it is, how it is shown, which format, whose. */
export interface AgentFolder {
  path: string;
  shown: string;
  format: AgentFileFormat;
  scope: 'workspace' | 'user';
  /** The file endings that are agents (the longest first); `.md` alone only where the folder holds nothing else. */
  suffixes: readonly string[];
}

/** `home`: for `~/.claude/agents` and `~/.copilot/agents`. */
export interface ReadAgentFilesOptions extends CustomizationRoots {
  /** More user folders (the editor's: VS Code's user prompts folder). */
  userFolders?: readonly AgentFolder[];
}

export interface AgentSet {
  agents: AgentProfile[];
  notes: string[];
}

export const UNTRUSTED_AGENTS_NOTE =
  'The workspace is not trusted, so none of its custom agents (.github/agents, .github/chatmodes, .claude/agents) were read; your own still apply. ' +
  'Trust the folder (VS Code: Manage Workspace Trust; CLI: --trust-workspace) to use them.';

/** Agent files read per folder. */
const MAX_FILES = 200;
const COPILOT_SUFFIXES = ['.agent.md', '.md'];
/** What VS Code's user prompts folder holds that is an agent (it keeps prompt and instruction files too). */
export const VSCODE_USER_SUFFIXES = ['.agent.md', '.chatmode.md'];

function join(folder: string, relative: string): string {
  return `${folder.replace(/\/+$/, '')}/${relative}`;
}

/** Where each format keeps its agents. */
export function agentFolders(options: Pick<ReadAgentFilesOptions, 'root' | 'home' | 'userFolders'>): { workspace: AgentFolder[]; user: AgentFolder[] } {
  const ws = (relative: string, format: AgentFileFormat, suffixes: readonly string[]): AgentFolder => ({ path: join(options.root, relative), shown: relative, format, scope: 'workspace', suffixes });
  const home = (relative: string, format: AgentFileFormat, suffixes: readonly string[]): AgentFolder[] =>
    options.home === undefined ? [] : [{ path: join(options.home, relative), shown: `~/${relative}`, format, scope: 'user', suffixes }];
  return {
    workspace: [ws('.github/agents', 'copilot', COPILOT_SUFFIXES), ws('.github/chatmodes', 'copilot', ['.chatmode.md']), ws('.claude/agents', 'claude', ['.md'])],
    user: [...home('.claude/agents', 'claude', ['.md']), ...home('.copilot/agents', 'copilot', COPILOT_SUFFIXES), ...(options.userFolders ?? [])],
  };
}

/** The files of a folder that are agents, with the name the file gives by default. */
function agentFilesIn(fs: InstructionFileSystem, folder: AgentFolder): { absolute: string; shown: string; stem: string }[] {
  const { suffixes } = folder;
  return fs
    .list(folder.path)
    .filter((e) => e.kind === 'file' && !e.name.startsWith('.'))
    .map((e) => ({ e, suffix: suffixes.find((s) => e.name.endsWith(s) && e.name.length > s.length) }))
    .filter((x): x is { e: { name: string; kind: 'file' | 'dir' }; suffix: string } => x.suffix !== undefined)
    .sort((a, b) => a.e.name.localeCompare(b.e.name))
    .slice(0, MAX_FILES)
    .map(({ e, suffix }) => ({ absolute: join(folder.path, e.name), shown: `${folder.shown}/${e.name}`, stem: e.name.slice(0, -suffix.length) }));
}

/** 1-based line of the first line in the header that names `word`; the header's first line when none does. */
function lineNaming(text: string, word: string, bodyLine: number): number {
  const lines = text.split(/\r?\n/).slice(0, Math.max(1, bodyLine - 1));
  const found = lines.findIndex((line) => line.includes(word));
  return found < 0 ? 1 : found + 1;
}

function handoffsOf(value: unknown, shown: string, notes: string[]): AgentHandoff[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    notes.push(`${shown}: handoffs is not a list; no handoff buttons.`);
    return undefined;
  }
  const handoffs: AgentHandoff[] = [];
  for (const [i, item] of value.entries()) {
    const h = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const label = stringField(h, 'label')?.trim();
    const agent = stringField(h, 'agent')?.trim();
    if (!label || !agent) {
      notes.push(`${shown}: handoff ${i + 1} needs a label and an agent; it is left out.`);
      continue;
    }
    const prompt = stringField(h, 'prompt');
    handoffs.push({ label, agent, ...(prompt === undefined ? {} : { prompt }), ...(h.send === true ? { send: true } : {}) });
  }
  return handoffs;
}

/** A VS Code `model` may be a list tried in order; the first is the one asked for. */
function modelOf(fields: Record<string, unknown>): string | undefined {
  const raw = Array.isArray(fields.model) ? (fields.model as unknown[]).find((m) => typeof m === 'string') : fields.model;
  const model = typeof raw === 'string' ? raw.trim() : undefined;
  return model === undefined || model === '' || model.toLowerCase() === 'inherit' ? undefined : model;
}

const IGNORED_FIELDS = ['disallowedTools', 'hooks', 'mcp-servers', 'mcpServers', 'permissionMode'];

/** One agent file as a profile; undefined (with a note) when its header cannot be read. */
export function parseAgentFile(text: string, file: { shown: string; stem: string; format: AgentFileFormat }, notes: string[]): AgentProfile | undefined {
  let parsed;
  try {
    parsed = readFrontMatter(text);
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    notes.push(`${file.shown}:${error.line}: not used as an agent: ${error.message}.`);
    return undefined;
  }
  const { fields, body, bodyLine } = parsed;
  const own: string[] = [];
  const name = stringField(fields, 'name')?.trim() || file.stem;
  const description = stringField(fields, 'description')?.trim() ?? '';
  if (file.format === 'claude' && description === '') own.push(`${file.shown}: no description (Claude Code requires one).`);
  const listed = listField(fields, 'tools');
  let tools: string[] | undefined;
  if (listed !== undefined) {
    const mapped = mapAgentTools(file.format, listed);
    tools = mapped.selectors;
    for (const a of mapped.absent) own.push(`${file.shown}:${lineNaming(text, a.name, bodyLine)}: tool "${a.name}" is left out: ${a.why}.`);
  }
  const ignored = IGNORED_FIELDS.filter((f) => fields[f] !== undefined);
  if (ignored.length > 0) own.push(`${file.shown}:${lineNaming(text, ignored[0]!, bodyLine)}: ${ignored.join(', ')} ${ignored.length === 1 ? 'is' : 'are'} not applied by Sprout.`);
  const model = modelOf(fields);
  const handoffs = handoffsOf(fields.handoffs, file.shown, own);
  notes.push(...own);
  return {
    name,
    description,
    source: file.shown,
    instructions: body,
    ...(tools === undefined ? {} : { tools }),
    ...(model === undefined ? {} : { model }),
    ...(handoffs === undefined || handoffs.length === 0 ? {} : { handoffs }),
    ...(own.length > 0 ? { notes: own } : {}),
  };
}

/**
 * Every agent the workspace (when trusted) and the user define: the workspace's first, then the
 * user's; one with a name already taken is shadowed, said in a note.
 */
export function readAgentFiles(fs: InstructionFileSystem, options: ReadAgentFilesOptions): AgentSet {
  const notes: string[] = [];
  const folders = agentFolders(options);
  const filesOf = (f: AgentFolder) => agentFilesIn(fs, f).map((file) => ({ ...file, folder: f, scope: f.scope }));
  const files = [...trustedFiles(folders.workspace.flatMap(filesOf), options.trusted, UNTRUSTED_AGENTS_NOTE, notes), ...folders.user.flatMap(filesOf)];
  const agents: AgentProfile[] = [];
  for (const { file, text } of readFoundFiles(fs, options.root, files, notes)) {
    const agent = parseAgentFile(text, { shown: file.shown, stem: file.stem, format: file.folder.format }, notes);
    if (agent === undefined) continue;
    const taken = agents.find((a) => a.name.toLowerCase() === agent.name.toLowerCase());
    if (taken !== undefined) {
      notes.push(`${file.shown}: the agent "${agent.name}" is already defined by ${taken.source}; this file is not used.`);
      continue;
    }
    agents.push(agent);
  }
  return { agents, notes };
}

/** The agent named `name` (its case as written, or any case when that is unique). */
export function findAgent(agents: readonly AgentProfile[], name: string): AgentProfile | undefined {
  return agents.find((a) => a.name === name) ?? agents.find((a) => a.name.toLowerCase() === name.trim().toLowerCase());
}
