/**
 * The last command each terminal ran and its output, heard through VS Code's shell integration (a
 * terminal without it, or a shell it does not know, tells nothing: `#terminalLastCommand` says so).
 * The output is read as the command runs (it cannot be read afterwards), kept capped per terminal.
 */
import * as vscode from 'vscode';
import { capText } from '../../agent/contextMentions';
import { neutralizeTerminalText } from '../../platform/terminalText';

const KEPT_CHARS = 20_000;

interface LastCommand {
  /** The execution this is (its end is matched by identity: the end may name another command line). */
  execution: vscode.TerminalShellExecution;
  commandLine: string;
  cwd?: string;
  output: string;
  exitCode?: number;
  done: boolean;
}

const last = new WeakMap<vscode.Terminal, LastCommand>();

/** Starts listening to every terminal's shell integration (once, at activation). */
export function watchTerminalCommands(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.window.onDidStartTerminalShellExecution(async (event) => {
      const entry: LastCommand = { execution: event.execution, commandLine: event.execution.commandLine.value, ...(event.execution.cwd ? { cwd: event.execution.cwd.fsPath } : {}), output: '', done: false };
      last.set(event.terminal, entry);
      for await (const data of event.execution.read()) {
        entry.output = (entry.output + data).slice(-KEPT_CHARS);
      }
    }),
    vscode.window.onDidEndTerminalShellExecution((event) => {
      const entry = last.get(event.terminal);
      if (entry === undefined || entry.execution !== event.execution) return;
      entry.done = true;
      if (event.exitCode !== undefined) entry.exitCode = event.exitCode;
    }),
  );
}

/** The active terminal's last command and output, or why there is none. */
export function lastTerminalCommand(): string {
  const terminal = vscode.window.activeTerminal;
  if (terminal === undefined) return 'No terminal command attached: there is no active terminal.';
  const entry = last.get(terminal);
  if (entry === undefined) {
    return terminal.shellIntegration === undefined
      ? `No terminal command attached: the terminal "${terminal.name}" has no shell integration (a shell VS Code does not integrate with, or integration is off: terminal.integrated.shellIntegration.enabled).`
      : `No terminal command attached: no command has run in the terminal "${terminal.name}" since Sprout started.`;
  }
  const state = entry.done ? (entry.exitCode === undefined ? 'finished' : `exit code ${entry.exitCode}`) : 'still running';
  return [`$ ${entry.commandLine}`, `(${state}${entry.cwd ? `, in ${entry.cwd}` : ''})`, capText(neutralizeTerminalText(entry.output), KEPT_CHARS)].join('\n');
}
