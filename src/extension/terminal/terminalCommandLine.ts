/**
 * The line the Sprout terminal's shell is given for one `run_command` call. What is sent to a terminal
 * is typed into its line editor, so a command with a control character (a newline runs what came
 * before it, a tab completes, an escape starts a key binding, Ctrl-C interrupts) cannot be sent as it
 * is: it runs as the hidden process instead (`undefined` here). Otherwise the command runs as the
 * workspace server runs it (`/bin/sh -c`, src/servers/common/processGroup.ts), in the planned
 * directory: a shell of its own, so nothing it does (`cd`, `export`, `set -e`, `exit`) outlives it in
 * the terminal. Not in a subshell `( ... )`: bash's shell integration sees a command start through its
 * DEBUG trap, which a subshell does not inherit, so neither the output nor the end would be reported.
 * vscode-free, so it is unit-tested under node.
 */

/** C0 controls (tab and newline included), DEL and C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `text` as one single-quoted word of a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The line for `command` run in `cwd`, or undefined when it cannot be typed into a terminal. */
export function terminalCommandLine(command: string, cwd: string): string | undefined {
  if (CONTROL.test(command) || CONTROL.test(cwd)) return undefined;
  return `cd ${shellQuote(cwd)} && /bin/sh -c ${shellQuote(command)}`;
}
