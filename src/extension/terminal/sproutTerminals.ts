/**
 * The window's "Sprout" terminals, where the workspace server's `run_command` calls run when the user
 * can watch them (terminalToolHost.ts decides which calls). A new terminal for each command: a shell
 * that already ran one may never report the end of the next (https://github.com/microsoft/vscode/issues/248799,
 * seen here as a call waiting out its whole timeout with no output), and two chats never type into the
 * same shell. A finished command's terminal stays open for the user to read (the newest few; older ones
 * are closed). The command, its output and its exit code are read back
 * through VS Code's terminal API (`executeCommand`, `read()`, `onDidEndTerminalShellExecution`).
 *
 * Shell integration takes a moment to start in a new terminal: the wait is bounded (generously) and
 * ends on `onDidChangeTerminalShellIntegration`; a terminal where it never starts (a shell VS Code
 * cannot integrate, the setting off) is `undefined` to the caller, who runs the hidden process instead.
 * That event comes when the integration script loads, before the shell's first prompt (seen here: up
 * to seconds before, on a loaded machine); the command is sent once the prompt is there, which the
 * shell says by reporting its working directory from its prompt hook (bounded too: a shell that never
 * reports it gets the line anyway, and VS Code's own wait for the prompt applies;
 * https://github.com/microsoft/vscode/issues/243099 is the same race inside VS Code).
 * A stop (the chat's, or the timeout) interrupts with Ctrl-C and, if the command does not end within
 * a grace, closes the terminal, which hangs up on everything running in it.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TerminalEnd } from './terminalResult';
import type { CommandTerminals } from './terminalToolHost';

/** How long a new terminal's shell integration may take to start (a slow shell profile, a loaded machine). */
export const INTEGRATION_WAIT_MS = 20_000;
/** After Ctrl-C, how long a command may take to end before its terminal is closed. */
export const INTERRUPT_GRACE_MS = 5_000;
/** Finished commands' terminals kept open for the user to read; older ones are closed. */
const KEPT_FINISHED = 3;
/** After shell integration started, how long the first prompt may take before the line is sent anyway. */
export const PROMPT_WAIT_MS = 10_000;
/** After the end event, how long the rest of the output may take to arrive. */
const STREAM_END_WAIT_MS = 2_000;


export interface TerminalRunOptions {
  /** Aborted by the chat's stop or the call's timeout: the command is interrupted. */
  stop: AbortSignal;
  onData(chunk: string): void;
}

/** The first shell VS Code integrates and every POSIX system has; where there is none, no terminal. */
function bashPath(): string | undefined {
  return ['/bin/bash', '/usr/bin/bash'].find((path) => existsSync(path));
}

/** Resolves with the terminal's shell integration once it is there, or undefined after `INTEGRATION_WAIT_MS` or its close. */
function integrationOf(terminal: vscode.Terminal, signal: AbortSignal): Promise<vscode.TerminalShellIntegration | undefined> {
  if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
  return new Promise((resolve) => {
    const done = (value: vscode.TerminalShellIntegration | undefined): void => {
      clearTimeout(timer);
      changed.dispose();
      closed.dispose();
      signal.removeEventListener('abort', aborted);
      resolve(value);
    };
    const aborted = (): void => done(undefined);
    const timer = setTimeout(() => done(terminal.shellIntegration), INTEGRATION_WAIT_MS);
    const changed = vscode.window.onDidChangeTerminalShellIntegration((event) => event.terminal === terminal && done(event.shellIntegration));
    const closed = vscode.window.onDidCloseTerminal((t) => t === terminal && done(undefined));
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * Resolves once the shell is at its first prompt: its prompt hook reported the working directory
 * (`shellIntegration.cwd`), or after `PROMPT_WAIT_MS`, the terminal's close or the abort.
 */
function promptOf(terminal: vscode.Terminal, signal: AbortSignal): Promise<void> {
  if (terminal.shellIntegration?.cwd !== undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      changed.dispose();
      closed.dispose();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, PROMPT_WAIT_MS);
    const changed = vscode.window.onDidChangeTerminalShellIntegration((event) => event.terminal === terminal && event.shellIntegration.cwd !== undefined && done());
    const closed = vscode.window.onDidCloseTerminal((t) => t === terminal && done());
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A terminal reserved for one call, with its shell integration. */
export interface TakenTerminal {
  terminal: vscode.Terminal;
  integration: vscode.TerminalShellIntegration;
}

export class SproutTerminals implements vscode.Disposable, CommandTerminals<TakenTerminal> {
  /** Terminals whose command ended, oldest first: kept for reading, never given another command. */
  private readonly finished: vscode.Terminal[] = [];
  private readonly all = new Set<vscode.Terminal>();
  /** The terminal each call ran in, for the tool card's "Show terminal". */
  private readonly byCall = new Map<string, vscode.Terminal>();
  /** Shell integration did not start in a terminal once: it is not waited for again (the hidden process runs). */
  private integrationFailed = false;
  private readonly closing: vscode.Disposable;
  private opened = 0;

  constructor(private readonly cwd: string) {
    this.closing = vscode.window.onDidCloseTerminal((terminal) => {
      this.all.delete(terminal);
      const at = this.finished.indexOf(terminal);
      if (at >= 0) this.finished.splice(at, 1);
      for (const [callId, ranIn] of this.byCall) if (ranIn === terminal) this.byCall.delete(callId);
    });
  }

  /** Whether a terminal can run commands here at all (a bash to run them in, shell integration not turned off). */
  available(): boolean {
    return bashPath() !== undefined && vscode.workspace.getConfiguration('terminal.integrated').get<boolean>('shellIntegration.enabled') !== false;
  }

  /** Whether call `callId` runs (or ran) in a terminal that is still open. */
  has(callId: string): boolean {
    const terminal = this.byCall.get(callId);
    return terminal !== undefined && this.all.has(terminal);
  }

  /** A tool card's Show terminal (its entry id is `t-<callId>`): the terminal, or why not. */
  showEntry(entryId: string): void {
    const terminal = this.byCall.get(entryId.replace(/^t-/, ''));
    if (terminal !== undefined && this.all.has(terminal)) terminal.show(false);
    else void vscode.window.showInformationMessage('Sprout: the terminal this command ran in was closed (its output is in the tool card).');
  }

  /** A new terminal with shell integration, for `callId`; undefined when integration did not start (in it, or once before). */
  async take(callId: string, signal: AbortSignal): Promise<TakenTerminal | undefined> {
    if (this.integrationFailed) return undefined;
    const terminal = this.open();
    if (terminal === undefined) return undefined;
    const integration = await integrationOf(terminal, signal);
    if (integration === undefined) {
      if (!signal.aborted) this.integrationFailed = true;
      terminal.dispose();
      return undefined;
    }
    await promptOf(terminal, signal);
    this.byCall.set(callId, terminal);
    // Shown without focus: the user watches the command, their cursor stays where it was.
    terminal.show(true);
    return { terminal, integration };
  }

  run(taken: TakenTerminal, line: string, options: TerminalRunOptions): Promise<TerminalEnd> {
    return runInTerminal(taken.terminal, taken.integration, line, options);
  }

  /** A terminal whose command ended stays open to read (never given another command); the oldest beyond a few are closed. */
  give(taken: TakenTerminal): void {
    if (!this.all.has(taken.terminal)) return;
    this.finished.push(taken.terminal);
    while (this.finished.length > KEPT_FINISHED) this.finished.shift()?.dispose();
  }

  private open(): vscode.Terminal | undefined {
    const shellPath = bashPath();
    if (shellPath === undefined) return undefined;
    // "Sprout" while it is the only one; a second one at once (another chat's command) is numbered.
    this.opened += 1;
    const name = this.all.size === 0 ? 'Sprout' : `Sprout (${this.opened})`;
    const terminal = vscode.window.createTerminal({ name, shellPath, cwd: this.cwd, iconPath: new vscode.ThemeIcon('sparkle'), isTransient: true });
    this.all.add(terminal);
    return terminal;
  }

  dispose(): void {
    this.closing.dispose();
    for (const terminal of this.all) terminal.dispose();
    this.all.clear();
    this.finished.length = 0;
    this.byCall.clear();
  }
}

/**
 * Runs `line` in `terminal` and resolves with how it ended. The terminal is this call's alone (a new
 * one, given one line), so the command is the first execution the shell reports starting in it, and
 * the end is that execution's: not the `executeCommand` execution matched by its command line, since
 * the shell may report another line than the one sent. Bash with `HISTCONTROL` set (Ubuntu's default
 * .bashrc) reports only the first simple command (`cd '<folder>'`): VS Code then starts a new
 * execution, and the one `executeCommand` returned never ends. The output is read from the sent
 * execution at once (the stream gives only what comes after `read()`), from another started one when
 * its start event comes; a stray end right after integration
 * started (https://github.com/microsoft/vscode/issues/221399) is not an end of an execution seen starting.
 */
export function runInTerminal(terminal: vscode.Terminal, integration: vscode.TerminalShellIntegration, line: string, options: TerminalRunOptions): Promise<TerminalEnd> {
  return new Promise((resolve) => {
    let stopped: 'interrupted' | 'terminal closed' | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const subscriptions: vscode.Disposable[] = [];
    const finish = (end: TerminalEnd): void => {
      clearTimeout(grace);
      // A stopped command's end as the shell reports it (Ctrl-C's line may be reported as the end, with
      // an exit code) does not prove its process is gone: the terminal goes with it, which ends it.
      if (stopped !== undefined && end.kind !== 'closed') terminal.dispose();
      for (const subscription of subscriptions) subscription.dispose();
      options.stop.removeEventListener('abort', stop);
      resolve(stopped === undefined ? end : { kind: 'stopped', how: end.kind === 'closed' ? 'terminal closed' : stopped });
    };
    const stop = (): void => {
      stopped = 'interrupted';
      terminal.sendText('\u0003', false);
      grace = setTimeout(() => terminal.dispose(), INTERRUPT_GRACE_MS);
    };
    // Assigned once, below the listeners that read it (events come asynchronously, after the assignment).
    // eslint-disable-next-line prefer-const
    let sent: vscode.TerminalShellExecution | undefined;
    let started: vscode.TerminalShellExecution | undefined;
    let pumped: Promise<void> = Promise.resolve();
    const pump = (execution: vscode.TerminalShellExecution): void => {
      const stream = execution.read();
      pumped = (async () => {
        for await (const chunk of stream) options.onData(chunk);
      })().catch(() => undefined);
    };
    subscriptions.push(
      vscode.window.onDidStartTerminalShellExecution((event) => {
        if (event.terminal !== terminal || started !== undefined) return;
        started = event.execution;
        // Another execution than the one sent: its stream from now (its first output may be gone already).
        if (started !== sent) pump(started);
      }),
      vscode.window.onDidEndTerminalShellExecution((event) => {
        if (event.terminal !== terminal || started === undefined || event.execution !== started) return;
        // After Ctrl-C VS Code may report the `^C` as a new command, which ends this one with no exit
        // code while it still runs (it may ignore Ctrl-C): only the grace's close ends it then.
        if (stopped !== undefined && event.exitCode === undefined) return;
        // The stream ends with the execution; the bound only keeps a stream that never ends from holding the call.
        void Promise.race([pumped, new Promise((r) => setTimeout(r, STREAM_END_WAIT_MS))]).then(() => finish({ kind: 'exit', exitCode: event.exitCode }));
      }),
      vscode.window.onDidCloseTerminal((t) => t === terminal && finish({ kind: 'closed' })),
    );
    sent = integration.executeCommand(line);
    // Read at once: a stream opened when the start event comes can miss output that arrives with it.
    pump(sent);
    options.stop.addEventListener('abort', stop, { once: true });
    if (options.stop.aborted) stop();
  });
}
