// The line the Sprout terminal is given for a run_command call, and the result the model reads back:
// a command runs in a shell of its own (`/bin/sh -c`, as the workspace server runs it) in the planned
// directory (so a trailing comment, a `cd` or an `exit` cannot change the terminal's shell), a command the terminal's line editor would act on runs hidden
// instead, and the result says how it ended in the workspace server's words.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { shellQuote, terminalCommandLine } from '../../../src/extension/terminal/terminalCommandLine';
import { terminalResult, TERMINAL_CLOSED_TEXT } from '../../../src/extension/terminal/terminalResult';
import { commandPlan, OutputTail } from '../../../src/servers/workspace/runCommand';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-terminal-line-')));
after(() => rmSync(root, { recursive: true, force: true }));

/** What bash prints for the line, run as the terminal's shell would (the line is all it gets). */
const inBash = (line: string): string => execFileSync('/bin/bash', ['-c', line], { cwd: '/', encoding: 'utf8' });

describe('terminalCommandLine', () => {
  it('runs the command in the planned directory, quotes and comments intact', () => {
    const line = terminalCommandLine(`echo "it's here" # a comment`, root);
    assert.ok(line !== undefined);
    assert.equal(inBash(`${line}; echo after`), `it's here\nafter\n`, 'the comment ended with the command');
    assert.equal(inBash(`${terminalCommandLine('cd /; pwd', root) ?? ''}; pwd`), `/\n${root}\n`, "the command's cd stayed in its own shell");
  });

  it('is one top-level command line, no subshell (bash shell integration reports only those)', () => {
    assert.ok(terminalCommandLine('npm test', root)?.startsWith(`cd '${root}' && /bin/sh -c 'npm test'`));
  });

  it('keeps the command\'s exit code and keeps `exit` from closing the shell', () => {
    assert.equal(inBash(`${terminalCommandLine('exit 3', root) ?? ''}; echo "code $?"`), 'code 3\n');
  });

  it('refuses a command the line editor would act on: newline, tab, escape, Ctrl-C, C1', () => {
    for (const command of ['echo a\necho b', 'ls\tx', 'echo \u001b[A', 'sleep 1\u0003', 'echo \u009b2J']) assert.equal(terminalCommandLine(command, root), undefined, JSON.stringify(command));
    assert.equal(terminalCommandLine('ls', `${root}\nx`), undefined);
  });

  it('quotes single quotes the POSIX way', () => {
    assert.equal(shellQuote(`a'b`), `'a'\\''b'`);
    assert.equal(inBash(`printf %s ${shellQuote(`$HOME 'x' \`id\``)}`), `$HOME 'x' \`id\``);
  });
});

describe('terminalResult', () => {
  const plan = commandPlan(root, join(root, '.state'), { command: 'npm test', timeoutMs: 5000 });
  const output = new OutputTail();
  output.add('1 failing\n');

  it('says the exit code, the output and the log file, an exit other than 0 as an error', () => {
    const result = terminalResult(plan, { kind: 'exit', exitCode: 1 }, 12, output);
    assert.equal(result.isError, true);
    assert.match(result.text, /^\$ npm test\n\(cwd \.; exit code 1; 12 ms in the Sprout terminal\)\n1 failing\n\nfull output: /);
    assert.ok(result.text.endsWith(plan.logPath));
    assert.equal(terminalResult(plan, { kind: 'exit', exitCode: 0 }, 1, output).isError, false);
  });

  it('says a closed terminal and a timeout plainly', () => {
    assert.match(terminalResult(plan, { kind: 'closed' }, 3, output).text, new RegExp(`\\(cwd \\.; ${TERMINAL_CLOSED_TEXT}; 3 ms`));
    const timedOut = terminalResult(plan, { kind: 'stopped', how: 'interrupted' }, 5001, output);
    assert.equal(timedOut.isError, true);
    assert.match(timedOut.text, /timed out after 5000 ms \(interrupted with Ctrl-C\)/);
  });

  it('says when the shell did not report an exit code, as an error', () => {
    const result = terminalResult(plan, { kind: 'exit', exitCode: undefined }, 1, new OutputTail());
    assert.equal(result.isError, true);
    assert.match(result.text, /exit code not reported.*\n\(no output\)/);
  });
});
