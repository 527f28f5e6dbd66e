/**
 * ScriptedAgent: a stand-in for a coding agent's hook runner, run as a real child process. It reads a
 * script (`--script FILE`: events, each a hook command line and the payload to send it), runs each
 * command the way agents do (`sh -c`, payload on stdin, in the workspace), appends what came back to
 * the output file as a JSON line, and exits. Its process is "the agent" the hook host serves, so a
 * test can watch the host and its servers go once it has exited. The real agents are driven by the
 * agents suite; this one lets the bridge be tested without them.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';

export interface ScriptedEvent {
  command: string;
  payload: unknown;
  /** A shell command run right after the hook answered; its stdout is recorded as `after`. */
  after?: string;
}

export interface AgentScript {
  cwd: string;
  env: Record<string, string>;
  events: ScriptedEvent[];
  /** JSON lines: one `{ stdout, stderr, exitCode }` per event. */
  out: string;
}

export interface ScriptedAnswer {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  after?: string;
}

export function readAnswers(file: string): ScriptedAnswer[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ScriptedAnswer);
}

function main(): void {
  const at = process.argv.indexOf('--script');
  const script = JSON.parse(readFileSync(process.argv[at + 1] ?? '', 'utf8')) as AgentScript;
  for (const event of script.events) {
    const result = spawnSync('sh', ['-c', event.command], { cwd: script.cwd, env: script.env, input: JSON.stringify(event.payload), encoding: 'utf8', timeout: 120_000 });
    const after = event.after === undefined ? undefined : spawnSync('sh', ['-c', event.after], { cwd: script.cwd, env: script.env, encoding: 'utf8' }).stdout.trim();
    appendFileSync(script.out, `${JSON.stringify({ stdout: result.stdout, stderr: result.stderr, exitCode: result.status, after })}\n`);
  }
}

if (require.main === module) main();
