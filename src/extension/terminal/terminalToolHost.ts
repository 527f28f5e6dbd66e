/**
 * Runs the bundled workspace server's `run_command` in a "Sprout" terminal the user can watch, as a
 * ToolHost decorator like the approval and checkpoint ones, so the core never knows. It sits inside
 * the approval decorator: the command rules and the user's answer come first, and `_PreToolUse` and
 * `_PostToolUse` see the call as any other. The call keeps the server's own limits, taken from the
 * same code (`commandPlan`: the cwd confined to the workspace, the timeout and its cap, a private log
 * file with the full output; `commandResultText`: the tail the model reads), and the output is
 * neutralised before it goes anywhere (terminal output is a terminal's: colours, titles, the shell
 * integration's own sequences). Everything else, and a call the terminal cannot take (the setting off,
 * no shell integration, a command with control characters), goes to the server as before; the first
 * fallback for want of a terminal is said once in the chat.
 */
import type { ToolCallOptions, ToolHost } from '../../agent/ports';
import type { ToolCallResult } from '../../agent/messages';
import { errorMessage } from '../../agent/errorMessage';
import { createPrivateFile } from '../../platform/privateState';
import { terminalTextStream } from '../../platform/terminalText';
import { ToolHostRelay } from '../../runtime/toolHostRelay';
import { realRoot } from '../../servers/common/safePath';
import { commandPlan, OutputTail, runCommandInput, type CommandPlan } from '../../servers/workspace/runCommand';
import { terminalResult, type TerminalEnd } from './terminalResult';
import { terminalCommandLine } from './terminalCommandLine';

/** The window's terminals as this decorator uses them (sproutTerminals.ts; vscode stays there). */
export interface CommandTerminals<Taken = unknown> {
  /** Whether a terminal can run commands here at all. */
  available(): boolean;
  /** A terminal with shell integration reserved for `callId`, or undefined when none came up (or on abort). */
  take(callId: string, signal: AbortSignal): Promise<Taken | undefined>;
  /** Runs `line` in the taken terminal; `stop` interrupts it. */
  run(taken: Taken, line: string, options: { stop: AbortSignal; onData(chunk: string): void }): Promise<TerminalEnd>;
  /** The command ended: the terminal is free again. */
  give(taken: Taken): void;
  /** Whether call `callId` runs (or ran) in a terminal that is still open. */
  has(callId: string): boolean;
}

export interface TerminalTargets {
  /** The name the bundled workspace server runs under (undefined when it does not run). */
  workspaceServer: () => string | undefined;
  workspaceFolder: string;
  /** The workspace server's state folder (its command output goes under it). */
  stateDir: string;
  /** `sprout.tools.runInTerminal`, read at each call. */
  enabled: () => boolean;
  /** A note in the chat (said once: why commands run hidden). */
  say: (text: string) => void;
}

export const NO_TERMINAL_NOTE =
  'Commands run as a hidden process: the Sprout terminal\'s shell integration did not start (it needs bash and `terminal.integrated.shellIntegration.enabled`). Their output still comes back to the chat; `sprout.tools.runInTerminal` turns the terminal off.';

export class TerminalToolHost extends ToolHostRelay {
  private said = false;

  constructor(
    inner: ToolHost,
    private readonly terminals: CommandTerminals,
    private readonly targets: TerminalTargets,
  ) {
    super();
    this.use(inner);
  }

  override async callTool(server: string, bareName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult> {
    const input = bareName === 'run_command' && server === this.targets.workspaceServer() && this.targets.enabled() ? runCommandInput.safeParse(args) : undefined;
    // Arguments the server would refuse go to it, so the model reads the server's own error.
    if (input === undefined || !input.success) return super.callTool(server, bareName, args, options);
    let plan: CommandPlan;
    try {
      plan = commandPlan(realRoot(this.targets.workspaceFolder), this.targets.stateDir, input.data);
    } catch (error) {
      return { isError: true, text: errorMessage(error) };
    }
    const line = terminalCommandLine(plan.command, plan.cwd);
    const taken = line === undefined || !this.terminals.available() ? undefined : await this.terminals.take(options.callId ?? plan.logPath, options.signal);
    options.signal.throwIfAborted();
    if (line === undefined || taken === undefined) {
      if (line !== undefined) this.sayOnce();
      return super.callTool(server, bareName, args, options);
    }
    options.onProgress?.({ message: 'Running in the Sprout terminal' });
    return this.run(plan, line, taken, options.signal).finally(() => this.terminals.give(taken));
  }

  private async run(plan: CommandPlan, line: string, taken: unknown, signal: AbortSignal): Promise<ToolCallResult> {
    const log = createPrivateFile(plan.logPath);
    const output = new OutputTail();
    // The server's timeout, or the chat's stop, whichever comes first.
    const stop = AbortSignal.any([signal, AbortSignal.timeout(plan.timeoutMs)]);
    const started = Date.now();
    const text = terminalTextStream();
    // Output can still come after the call ended (a terminal closed while its stream was being read):
    // it is dropped then, never written to the ended log.
    let open = true;
    const keep = (clean: string): void => {
      if (!open) return;
      log.write(clean);
      output.add(clean);
    };
    const end = await this.terminals.run(taken, line, { stop, onData: (chunk) => keep(text.push(chunk)) });
    keep(text.end());
    open = false;
    await new Promise<void>((resolve) => log.end(resolve));
    const result = terminalResult(plan, end, Date.now() - started, output);
    // A stop by the chat is the chat's: the core says the call was cancelled.
    signal.throwIfAborted();
    return result;
  }

  private sayOnce(): void {
    if (this.said) return;
    this.said = true;
    this.targets.say(NO_TERMINAL_NOTE);
  }
}
