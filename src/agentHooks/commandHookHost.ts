/**
 * Other agents' command hooks as a ToolHost: each consented config file is one hook "server" whose
 * `_` tools are the Sprout hooks its events map to. A hook call runs the file's matching commands in
 * parallel with the payload their agent would send and reads their answers in that agent's format.
 * Because this is a ToolHost, the core's HookCaller calls it like any MCP hook server: Sprout's hook
 * timeout (which caps each command's own), fail open, the kill on the second timeout in a row (it
 * kills the file's running commands), the budgets and the decline rule all apply unchanged
 * (docs/hooks.md#hooks-from-other-agents-files). Pure: commands run through the CommandRunner port.
 */
import type { AgentFormat, BridgeCall } from './agentFormat';
import { SPROUT_SHELL_TOOL, agentToolView, matchNames, sproutArguments, type AgentToolView } from './agentToolNames';
import { eventsForHook, hooksServed, matcherAllows, type CommandHook } from './hookSources';
import { HOOK_META_KEY } from '../agent/hookCaller';
import { isHookName } from '../agent/toolNames';
import type { HookName } from '../agent/events';
import type { ToolCallResult, ToolInfo } from '../agent/messages';
import type { CommandRunner, ToolCallOptions, ToolHost, ToolHostEvent } from '../agent/ports';

/** One config file Sprout runs, under the hook-server name it shows as. */
export interface CommandHookSource {
  /** The hook-server name (`claude-settings`, `user-claude-settings`). */
  name: string;
  /** The file as the user knows it: relative to the workspace, or `~/...`. */
  file: string;
  format: AgentFormat;
  hooks: readonly CommandHook[];
}

export interface CommandHookHostOptions {
  runner: CommandRunner;
  /** The workspace folder: the commands' working folder and the payload's `cwd`. */
  cwd: string;
  /** The environment each command of `source` gets. */
  env(source: CommandHookSource): Record<string, string>;
}

/** One command to run for a hook call: its payload, and the tool call as its agent names it. */
interface Job {
  hook: CommandHook;
  payload: Record<string, unknown>;
  view: AgentToolView | undefined;
}

/** What one command did, for the hook's reply. */
interface CommandReply {
  hook: CommandHook;
  text: string;
  problem?: string;
}

function contextOf(options: ToolCallOptions): Record<string, unknown> {
  const meta = options.meta?.[HOOK_META_KEY];
  return meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : {};
}

/**
 * The names a matcher tests: for a tool event whose payload names the tool, the agent's name and
 * Sprout's (`Bash` and `workspace__run_command`); a session start's source; none for other events
 * (and for Cursor's shell event, which names no tool), which run always.
 */
function matchSubjects(hook: HookName, payload: Record<string, unknown>, view: AgentToolView | undefined): string[] | undefined {
  if (hook === '_PreToolUse' || hook === '_PostToolUse') return view !== undefined && (typeof payload.tool_name === 'string' || typeof payload.toolName === 'string') ? matchNames(view) : undefined;
  if (hook === '_SessionStart' || hook === '_PostCompact') return typeof payload.source === 'string' ? [payload.source] : undefined;
  return undefined;
}

function matches(matcher: string | undefined, subjects: string[] | undefined): boolean {
  return subjects === undefined ? matcherAllows(matcher, undefined) : subjects.some((s) => matcherAllows(matcher, s));
}

/** Cursor splits tool calls into Sprout's shell tool and the rest; every other agent has one tool event. */
function eventFits(event: string, view: AgentToolView | undefined): boolean {
  const isShell = view?.sproutName === SPROUT_SHELL_TOOL;
  if (event === 'beforeShellExecution') return isShell;
  if (event === 'beforeMCPExecution') return !isShell;
  return true;
}

/** A tool hook's call as the source's agent names it (agentToolNames.ts); undefined for other hooks. */
function toolView(format: AgentFormat, hook: HookName, context: Record<string, unknown>, cwd: string): AgentToolView | undefined {
  if (hook !== '_PreToolUse' && hook !== '_PostToolUse') return undefined;
  const text = (key: string): string => (typeof context[key] === 'string' ? (context[key] as string) : '');
  const args = context.arguments !== null && typeof context.arguments === 'object' ? (context.arguments as Record<string, unknown>) : {};
  return agentToolView(format.tools, { tool: text('tool'), server: text('server'), toolName: text('toolName') }, args, cwd);
}

/** A rewrite (a denial in Sprout) with the input the hook wrote, as Sprout's arguments for the same tool. */
function rewriteText(text: string, view: AgentToolView | undefined, rewrite: Record<string, unknown>, cwd: string): string {
  if (view === undefined) return text;
  const args = JSON.stringify(sproutArguments(view, rewrite, cwd));
  return `${text} (the hook's input, as ${view.sproutName} arguments: ${args.length > 2000 ? `${args.slice(0, 2000)}…` : args})`;
}

export class CommandHookHost implements ToolHost {
  private readonly byName = new Map<string, CommandHookSource>();
  private readonly running = new Map<string, Set<AbortController>>();

  constructor(
    readonly sources: readonly CommandHookSource[],
    private readonly options: CommandHookHostOptions,
  ) {
    for (const source of sources) this.byName.set(source.name, source);
  }

  has(server: string): boolean {
    return this.byName.has(server);
  }

  serverNames(): string[] {
    return this.sources.map((s) => s.name);
  }

  listTools(): Promise<ToolInfo[]> {
    return Promise.resolve(this.tools());
  }

  cachedTools(): ToolInfo[] {
    return this.tools();
  }

  private tools(): ToolInfo[] {
    return this.sources.flatMap((source) =>
      hooksServed(source.format, source.hooks).map((hook) => ({
        server: source.name,
        bareName: hook,
        qualifiedName: `${source.name}__${hook}`,
        description: `${source.format.displayName} hooks of ${source.file}: ${source.hooks.filter((h) => eventsForHook(source.format, hook).includes(h.event)).map((h) => h.command).join('; ')}`,
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        annotations: {},
        isHook: true,
      })),
    );
  }

  async callTool(server: string, bareName: string, _args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    const source = this.byName.get(server);
    if (source === undefined || !isHookName(bareName)) return { isError: true, text: `unknown tool: ${server}__${bareName}` };
    const hook = bareName as HookName;
    const context = contextOf(options);
    const view = toolView(source.format, hook, context, this.options.cwd);
    const fields = view === undefined ? context : { ...context, tool: view.name, arguments: view.input, ...(view.mcp !== undefined ? { mcp: view.mcp } : {}) };
    const call: BridgeCall = {
      hook,
      sessionId: typeof context.sessionId === 'string' ? context.sessionId : '',
      cwd: this.options.cwd,
      afterObjection: context.afterObjection === true,
      fields,
    };
    const jobs = eventsForHook(source.format, hook).flatMap((event) => {
      const payload = source.format.payload(event, call);
      const subjects = matchSubjects(hook, payload, view);
      return source.hooks.filter((h) => h.event === event && eventFits(event, view) && matches(h.matcher, subjects)).map((h) => ({ hook: h, payload, view }));
    });
    const replies = await this.runAll(source, jobs, options.signal);
    return replyOf(source, replies);
  }

  private async runAll(source: CommandHookSource, jobs: Job[], signal: AbortSignal): Promise<CommandReply[]> {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    signal.addEventListener('abort', abort, { once: true });
    if (signal.aborted) abort();
    const live = this.running.get(source.name) ?? new Set<AbortController>();
    this.running.set(source.name, live.add(controller));
    try {
      return await Promise.all(jobs.map((job) => this.runOne(source, job, controller.signal)));
    } finally {
      live.delete(controller);
      signal.removeEventListener('abort', abort);
    }
  }

  private async runOne(source: CommandHookSource, { hook, payload, view }: Job, signal: AbortSignal): Promise<CommandReply> {
    const cwd = hook.cwd === undefined ? this.options.cwd : `${this.options.cwd}/${hook.cwd}`;
    const answer = await this.options.runner({ command: hook.command, cwd, env: this.options.env(source), stdin: `${JSON.stringify(payload)}\n`, ...(hook.timeoutMs !== undefined ? { timeoutMs: hook.timeoutMs } : {}), signal });
    if (answer.timedOut === true) return { hook, text: '', problem: `timed out after its own ${hook.timeoutMs} ms timeout (killed)` };
    const read = source.format.read(hook.event, answer);
    const text = read.rewrite !== undefined && read.text.trim() !== '' ? rewriteText(read.text.trim(), view, read.rewrite, this.options.cwd) : read.text.trim();
    return { hook, text, ...(read.problem !== undefined ? { problem: read.problem } : {}) };
  }

  killServer(server: string): Promise<void> {
    for (const controller of this.running.get(server) ?? []) controller.abort();
    return Promise.resolve();
  }

  subscribe(_listener: (event: ToolHostEvent) => void): () => void {
    // Command hooks restart nothing and change no tool list: there is nothing to report.
    return () => undefined;
  }
}

/** `<file> <event> \`<command>\``: where hook text came from, in front of the text itself. */
export function commandLabel(source: CommandHookSource, hook: CommandHook): string {
  return `${source.file} ${hook.event} \`${hook.command}\``;
}

/**
 * The hook's reply: each command's text that takes effect, labelled with its file and command; when
 * none has any and a command misbehaved, an error reply saying which (fail open: no effect).
 */
function replyOf(source: CommandHookSource, replies: readonly CommandReply[]): ToolCallResult {
  const texts = replies.filter((r) => r.text !== '').map((r) => `${commandLabel(source, r.hook)}: ${r.text}`);
  if (texts.length > 0) return { isError: false, text: texts.join('\n\n') };
  const problems = replies.filter((r) => r.problem !== undefined).map((r) => `${commandLabel(source, r.hook)}: ${r.problem}`);
  return problems.length > 0 ? { isError: true, text: problems.join('\n') } : { isError: false, text: '' };
}
