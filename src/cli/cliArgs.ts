/**
 * The command line: strict `node:util` parseArgs over exactly the documented options, so a typo is an
 * error with the usage text rather than a silently ignored flag.
 */
import { parseArgs } from 'node:util';
import { explainArgsError } from '../platform/argsErrors';
import { UsageError } from './exitCodes';
import { MODES, type Mode, isMode } from '../agent/modes';

export interface CliArgs {
  help: boolean;
  version: boolean;
  cwd?: string;
  mcpConfig?: string;
  session?: string;
  json: boolean;
  /** Also print which instruction files apply (stderr). */
  verbose: boolean;
  /** Which instruction formats are read (a comma list of INSTRUCTION_SOURCES). */
  instructionsSources?: string;
  model?: string;
  maxRounds?: string;
  builtinServers?: string;
  /** Start the servers of <cwd>/.vscode/mcp.json (a repository's own config is not trusted by default). */
  trustWorkspace: boolean;
  /** How servers' questions (MCP elicitation) are answered. */
  elicitation?: string;
  /** Let the bundled workspace server write protected paths (.git/**, .vscode/**, ...) without refusing. */
  allowProtectedWrites: boolean;
  /** Other agents' hook files to run as hooks: a comma list of formats (claude, codex, ...). */
  agentHooks?: string;
  /** Secret variables a workspace-defined server may receive (`--allow-secret-env NAME`, repeatable or comma-separated). */
  allowSecretEnv: string[];
  /** Servers whose MCP sampling requests reach the model (`--allow-sampling SERVER`, repeatable or comma-separated); others are refused. */
  allowSampling: string[];
  /** `--resource SERVER:URI`, repeatable: MCP resources attached to the prompt (cliResources.ts). */
  resources: string[];
  /** Image files sent with the prompt (`--image PATH`, repeatable). */
  images: string[];
  /** What the prompt may do: agent (default), ask (read-only tools), plan (read-only tools, a numbered plan). */
  mode: Mode;
  /** Whether --mode was given (a prompt file's own mode applies only when it was not). */
  modeGiven: boolean;
  /** The custom agent the prompt runs as (`--agent NAME`: a .github/agents or .claude/agents file). */
  agent?: string;
  /** Values for a prompt file's \${input:NAME}: `--input NAME=VALUE`, repeatable. */
  inputs: string[];
  /** Approve the plan the session's last answer holds: its steps become the todo list, then the prompt runs in Agent mode. */
  approvePlan: boolean;
  /** `--tools A,B` (repeatable): only these servers, tools (`server/tool`, `server__tool`) or tool sets are offered and may run; undefined: every tool. */
  tools?: string[];
  /** Go back to before user message N of the --session first (its text is printed; the files the agent wrote since are put back). */
  rewind?: number;
  /** With --rewind: put files back even where they were changed outside Sprout since the agent wrote them. */
  force: boolean;
  /** Undefined (or "-") means: read the prompt from stdin. */
  prompt?: string;
}

export const USAGE = `Usage: sprout-agent [options] [prompt]
       sprout-agent hooks check [options]   (check hook servers; see sprout-agent hooks --help)
       sprout-agent instructions [folder] [--agent NAME] [--json]   (which instruction files apply, and why)
       sprout-agent skills [--json]         (the Agent Skills the model is offered)
       sprout-agent prompts [--json]   (the slash commands: prompt files, Claude commands, MCP prompts)
       sprout-agent agents [--json]    (the custom agents --agent can name)
       sprout-agent hooks install --agent AGENT   (gate Claude Code, Codex, Gemini CLI, Copilot, Cursor
                                          or Kiro with the same hook servers; see hooks install --help)

Runs one prompt through the Sprout agent and exits. The prompt is read from stdin when omitted or "-".

Options:
  --cwd DIR                workspace folder (default: the current directory)
  --mcp-config FILE        MCP servers in the .vscode/mcp.json format, started next to the bundled ones
  --trust-workspace        also start the servers of <cwd>/.vscode/mcp.json, which a cloned repository
                           controls (default: listed, not started; env SPROUT_AGENT_TRUST_WORKSPACE=1)
  --agent-hooks LIST       run the command hooks other agents' files define as Sprout hooks: comma list of
                           claude,codex,gemini,copilot,cursor (your own ~/ files; the workspace's only
                           with --trust-workspace)
  --allow-secret-env NAME  let the workspace's own servers receive the secret variable NAME through
                           \${env:NAME} (a *_KEY, *_TOKEN, *_SECRET, *PASSWORD* variable or the API key);
                           refused without it. Repeat it, or give a comma list
  --allow-sampling SERVER  answer SERVER's MCP sampling requests with the model (one call, no tools,
                           maxTokens capped at 4096); refused without it. Repeat it, or give a comma list
  --resource SERVER:URI    attach the MCP resource URI of SERVER to the prompt (text whole, a binary one
                           named); repeat it for more. The model can also list and read resources itself
  --builtin-servers LIST   bundled servers to start: comma list of workspace,todo,tests, or "" for none
                           (default: workspace,todo; a configured server may not reuse their names)
  --session FILE           append the transcript to FILE (JSON lines) and resume from it if it exists
  --rewind N               with --session: go back to before user message N (1 is the first): the later
                           messages leave the conversation, the files the workspace server wrote since
                           are put back, and N's text is printed. With a prompt, it runs next; without
                           one, nothing else runs. Files written by run_command or other servers are
                           listed, not restored
  --force                  with --rewind: put files back even where they changed after the agent wrote
                           them (refused without it, naming the files)
  --allow-protected-writes let the agent write protected paths (.git/**, .vscode/**, .github/workflows/**,
                           ...: files that make git, editors or CI run code); refused without it
  --image PATH             send an image with the prompt (a screenshot: PNG, JPEG, GIF or WebP, at most 5 MB);
                           repeat it for more, at most 10. A model that takes no images gets a note instead
  --mode MODE              agent (default: every tool), ask (only tools marked read-only: nothing is
                           written or run), plan (read-only tools; the answer is a numbered plan of steps)
  --tools LIST             offer the model only these (and let it run only these): a comma list of server
                           names, tools (server/tool or server__tool) and tool sets of VS Code's user
                           prompts folder and the workspace's .vscode/*.toolsets.jsonc (with
                           --trust-workspace; it wins a clash); repeatable. A name nothing matches is
                           said, the rest apply
  --agent NAME             run as the custom agent NAME (.github/agents/*.agent.md, .claude/agents/*.md,
                           ~/.claude/agents/*.md: its instructions, its tools only); list them with
                           sprout-agent agents
  --input NAME=VALUE       a value for \${input:NAME} when the prompt is a slash command ("/NAME args": a
                           .github/prompts/NAME.prompt.md or .claude/commands/NAME.md file); repeatable
  --approve-plan           with --session: the numbered steps of the session's last answer (a --mode plan
                           run) become the todo list, then the prompt (default: carry out the plan) runs
                           in agent mode, held to the plan by the todo server's _Stop
  --json                   one JSON event per line on stdout; otherwise readable text
  --verbose                also print which instruction files (AGENTS.md, CLAUDE.md, rules) apply, on stderr
  --instructions-sources LIST  instruction formats to read: comma list of agents,claude,gemini,copilot,
                           cursor,cline,user, or "" for none (default: all; the workspace's only with
                           --trust-workspace)
  --model NAME             model name (default: $SPROUT_AGENT_MODEL)
  --max-rounds N           model rounds per prompt, 0 = no cap (default: $SPROUT_AGENT_MAX_ROUNDS or 50)
  --elicitation POLICY     answers to MCP servers' questions: decline (default), cancel, off (servers
                           are told the CLI cannot answer), or a JSON file of answers {"field": value}
  -h, --help               show this help
  -V, --version            show the version

Environment:
  OPENAI_BASE_URL                       OpenAI-compatible endpoint (default: https://api.openai.com/v1)
  OPENAI_API_KEY                        API key (never logged, never passed to MCP servers)
  SPROUT_AGENT_MODEL                    model name
  SPROUT_AGENT_MODEL_COMPAT             server family: auto, openai, azure, mistral, deepseek, gemini, ollama, generic (default: auto)
  MCP_HOOK_SERVERS                      servers whose "_" tools act as hooks: "*" or a comma list (default: none)
  SPROUT_AGENT_HOOK_TIMEOUT_MS          per hook call timeout, >= 1 (default: 2500)
  SPROUT_AGENT_STOP_MAX_REJECTIONS      _Stop objections honoured, 0 disables _Stop (default: 3)
  SPROUT_AGENT_STOP_BUDGET_SCOPE        "session" or "prompt" (default: session)
  SPROUT_AGENT_REPEATED_END_TURN_STOPS  end the turn when the model ends it again after an objection (default: true)
  SPROUT_AGENT_PRE_TOOL_USE_MAX_DENIALS _PreToolUse denials per prompt, 0 = never call _PreToolUse (default: 10)
  SPROUT_AGENT_MAX_ROUNDS               model rounds per prompt, 0 = no cap (default: 50)
  SPROUT_AGENT_MAX_CONTEXT_TOKENS       the model's context window in tokens (default: 128000)
  SPROUT_AGENT_BUILTIN_SERVERS          like --builtin-servers
  SPROUT_AGENT_TRUST_WORKSPACE          1 = like --trust-workspace
  SPROUT_AGENT_INSTRUCTIONS_SOURCES     like --instructions-sources
  SPROUT_AGENT_ELICITATION              like --elicitation
  SPROUT_AGENT_TOOL_TIMEOUT_MS          a tool call with no answer and no progress this long is cancelled (default: 300000)
  SPROUT_AGENT_TOOL_MAX_TOTAL_MS        progress extends a tool call up to this total (default: 1800000)
  SPROUT_AGENT_SERVER_READY_GRACE_MS    how long a round waits for MCP servers that are not ready (default: 1500)
  SPROUT_AGENT_SERVER_STARTUP_WAIT_MS   the same wait on the first round, while servers start (default: 10000)
  SPROUT_AGENT_TOOL_SEARCH_THRESHOLD    more tools than this and the model finds them with a tool search (default: 128)
  SPROUT_AGENT_USER_TOOL_SETS           the folder of your *.toolsets.jsonc for --tools ("" for none; default:
                                        VS Code's User/prompts, e.g. ~/.config/Code/User/prompts)
  SPROUT_AGENT_PROTECTED_PATHS          more protected path globs, comma list (added to the defaults, never removing one)
  SPROUT_AGENT_COMMAND_RULES            run_command rules, a JSON list: [{"allow":"npm test"},{"deny":"/git push.*/"}]; with allow
                                        rules set only what they allow runs (a workspace's .vscode/settings.json may only deny)
  SPROUT_AGENT_MCP_PROTOCOL             MCP protocol era: auto (ask each server, remembered), legacy, 2026-07-28 (default: auto)
  XDG_STATE_HOME                        private state (command output, todo lists) goes to $XDG_STATE_HOME/sprout-agent
                                        (default: ~/.local/state/sprout-agent)
  SPROUT_AGENT_LOG_LEVEL                diagnostics on stderr: debug (includes servers' stderr), info, warn, error (default: warn)

Exit status: 0 ended normally, 1 any other error, 2 bad usage or configuration, or an MCP
             server the run needed (allowlisted in MCP_HOOK_SERVERS, or whose tools the model called)
             failed, 3 max rounds reached, 4 ended with a hook objection unresolved (the model
             declined, the _Stop budget was spent, or max rounds came right after an objection),
             130 interrupted (SIGINT/SIGTERM).
`;

/** The environment variables the CLI reads its settings from (the usage's list, so the two never differ). */
export const CLI_ENVIRONMENT: readonly string[] = [...USAGE.matchAll(/^ {2}([A-Z][A-Z0-9_]+) /gm)].map((m) => m[1]!);

/** `--allow-secret-env A --allow-secret-env B,C` as [A, B, C]. */
export function secretEnvNames(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((n) => n.trim()).filter((n) => n !== '');
}

const CLI_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  cwd: { type: 'string' },
  'mcp-config': { type: 'string' },
  session: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  'instructions-sources': { type: 'string' },
  model: { type: 'string' },
  'max-rounds': { type: 'string' },
  'builtin-servers': { type: 'string' },
  'agent-hooks': { type: 'string' },
  'trust-workspace': { type: 'boolean' },
  elicitation: { type: 'string' },
  'allow-protected-writes': { type: 'boolean' },
  'allow-secret-env': { type: 'string', multiple: true },
  'allow-sampling': { type: 'string', multiple: true },
  resource: { type: 'string', multiple: true },
  image: { type: 'string', multiple: true },
  mode: { type: 'string' },
  tools: { type: 'string', multiple: true },
  agent: { type: 'string' },
  'approve-plan': { type: 'boolean' },
  input: { type: 'string', multiple: true },
  rewind: { type: 'string' },
  force: { type: 'boolean' },
} as const;

/** `--rewind N`: a user message's number, 1 or more. */
function rewindOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(value.trim())) throw new UsageError(`--rewind ${JSON.stringify(value)} is not a message number: give N of the user message to go back to before (1 is the first).`);
  return Number(value.trim());
}

/** `--mode`'s value; anything else is a usage error naming the flag and the choices. */
function modeOption(value: string | undefined): Mode {
  if (value === undefined) return 'agent';
  if (isMode(value)) return value;
  throw new UsageError(`--mode ${JSON.stringify(value)} is not a mode: use ${MODES.join(', ')} (default: agent).`);
}

/** `--tools`' names; a list that names nothing is a usage error (it would turn every tool off). */
function toolsOption(values: readonly string[]): string[] {
  const names = secretEnvNames(values);
  if (names.length === 0) throw new UsageError('--tools names no server, tool or tool set: give a comma list (--tools workspace,todo), or leave --tools out for every tool.');
  return names;
}

export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: CLI_OPTIONS });
  } catch (error) {
    throw new UsageError(`${explainArgsError(error, CLI_OPTIONS, CLI_ENVIRONMENT)}\n\n${USAGE}`);
  }
  const v = parsed.values;
  const positionals = parsed.positionals;
  const prompt = positionals.length === 0 || (positionals.length === 1 && positionals[0] === '-') ? undefined : positionals.join(' ');
  return {
    help: v.help === true,
    version: v.version === true,
    cwd: v.cwd,
    mcpConfig: v['mcp-config'],
    session: v.session,
    json: v.json === true,
    verbose: v.verbose === true,
    instructionsSources: v['instructions-sources'],
    model: v.model,
    maxRounds: v['max-rounds'],
    builtinServers: v['builtin-servers'],
    trustWorkspace: v['trust-workspace'] === true,
    elicitation: v.elicitation,
    allowProtectedWrites: v['allow-protected-writes'] === true,
    agentHooks: v['agent-hooks'],
    allowSecretEnv: secretEnvNames(v['allow-secret-env']),
    allowSampling: secretEnvNames(v['allow-sampling']),
    resources: v.resource ?? [],
    images: v.image ?? [],
    mode: modeOption(v.mode),
    modeGiven: v.mode !== undefined,
    agent: v.agent,
    inputs: v.input ?? [],
    ...(v.tools === undefined ? {} : { tools: toolsOption(v.tools) }),
    approvePlan: v['approve-plan'] === true,
    ...(v.rewind === undefined ? {} : { rewind: rewindOption(v.rewind) }),
    force: v.force === true,
    prompt,
  };
}
