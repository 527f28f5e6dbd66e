/**
 * The last command each terminal ran and its output, heard through VS Code's shell integration (a
 * terminal without it, or a shell it does not know, tells nothing: `#terminalLastCommand` says so).
 *
 * The output is read as the command runs (it cannot be read afterwards), kept capped per terminal.
 * That stream loses a short command's output about one time in two: VS Code's extension host starts
 * listening to an execution's `read()` stream in a microtask, and when the start, the output and the
 * end arrive in one message batch (a command that prints and ends at once) the output is emitted before
 * that listener exists and is dropped (ShellExecutionDataStream in microsoft/vscode's
 * extHostTerminalShellIntegration.ts). So a finished command's output is taken from VS Code's own record
 * of the active terminal's last command where this VS Code has one (its `terminal_last_command` tool,
 * which reads the terminal's buffer), and from the stream otherwise or while the command runs.
 */
import * as vscode from 'vscode';
import { capText } from '../../agent/contextMentions';
import { neutralizeTerminalText } from '../../platform/terminalText';

const KEPT_CHARS = 20_000;
/** VS Code's tool that reads the active terminal's last command from its buffer (VS Code 1.104 and later). */
const VSCODE_LAST_COMMAND_TOOL = 'terminal_last_command';
/** Hang guard for asking that tool. */
const TOOL_BOUND_MS = 10_000;

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

/**
 * VS Code's own record of the active terminal's last finished command (its tool's text: "The following
 * is the last command run in the terminal:", the command, optional lines, then "It has the following
 * output:" and the output). Undefined when the tool is absent, fails or reports a running command.
 */
export async function recordedCommand(): Promise<{ commandLine: string; output: string } | undefined> {
  if (!vscode.lm.tools.some((t) => t.name === VSCODE_LAST_COMMAND_TOOL)) return undefined;
  const cancel = new vscode.CancellationTokenSource();
  const timer = setTimeout(() => cancel.cancel(), TOOL_BOUND_MS);
  try {
    const result = await vscode.lm.invokeTool(VSCODE_LAST_COMMAND_TOOL, { input: {}, toolInvocationToken: undefined }, cancel.token);
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    const head = 'The following is the last command run in the terminal:\n';
    if (!text.startsWith(head)) return undefined;
    const rest = text.slice(head.length);
    const next = rest.search(/\nIt (was run in the directory|exited with code|has the following output):/);
    const marker = '\nIt has the following output:\n';
    const at = rest.indexOf(marker);
    return { commandLine: next < 0 ? rest : rest.slice(0, next), output: at < 0 ? '' : rest.slice(at + marker.length) };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    cancel.dispose();
  }
}

/** The active terminal's last command and output, or why there is none. */
export async function lastTerminalCommand(): Promise<string> {
  const terminal = vscode.window.activeTerminal;
  if (terminal === undefined) return 'No terminal command attached: there is no active terminal.';
  const entry = last.get(terminal);
  if (entry === undefined) {
    return terminal.shellIntegration === undefined
      ? `No terminal command attached: the terminal "${terminal.name}" has no shell integration (a shell VS Code does not integrate with, or integration is off: terminal.integrated.shellIntegration.enabled).`
      : `No terminal command attached: no command has run in the terminal "${terminal.name}" since Sprout started.`;
  }
  const state = entry.done ? (entry.exitCode === undefined ? 'finished' : `exit code ${entry.exitCode}`) : 'still running';
  // Both are the active terminal's last command; VS Code's record has the whole line. The output heard
  // as it came wins where there is any: VS Code's record reads the buffer between the marks the shell
  // wrote, and a prompt that sets the window title (Debian's default .bashrc) can shift them onto the
  // prompt; the record fills in where the stream lost a short command's output.
  const recorded = entry.done ? await recordedCommand() : undefined;
  const output = entry.output.trim() !== '' ? entry.output : (recorded?.output ?? '');
  return [`$ ${recorded?.commandLine ?? entry.commandLine}`, `(${state}${entry.cwd ? `, in ${entry.cwd}` : ''})`, capText(neutralizeTerminalText(output), KEPT_CHARS)].join('\n');
}
