/**
 * Runs one hook command the way coding agents do: `sh -c <command>` with the JSON payload on stdin,
 * stdout and stderr collected (each capped), in its own process group so an abort or its own timeout
 * kills the whole tree, including what left the group (src/platform/processTree.ts). The environment is
 * exactly the one given: the caller passes Sprout's minimal environment, never its own.
 */
import { spawn } from 'node:child_process';
import type { CommandRequest, CommandResult } from '../agent/ports';
import { newSpawnTag, processesTagged, signalKnown, strayProcesses } from './processTree';

/** What a hook command may print before the rest is dropped: far more than any answer needs. */
export const COMMAND_OUTPUT_CAP = 1024 * 1024;

function capped(): { add(chunk: string): void; text(): string } {
  let text = '';
  return {
    add: (chunk) => {
      if (text.length < COMMAND_OUTPUT_CAP) text += chunk.slice(0, COMMAND_OUTPUT_CAP - text.length);
    },
    text: () => text,
  };
}

export function runHookCommand(request: CommandRequest): Promise<CommandResult> {
  const tag = newSpawnTag();
  const child = spawn('/bin/sh', ['-c', request.command], { cwd: request.cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: { ...request.env, ...tag.env } });
  const stdout = capped();
  const stderr = capped();
  let timedOut = false;
  let killed = false;
  const kill = (): void => {
    if (killed) return;
    killed = true;
    const strays = strayProcesses(child.pid, [tag.name]);
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    signalKnown([...strays, ...processesTagged([tag.name])], 'SIGKILL');
  };
  const timer = request.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), kill()), request.timeoutMs);
  request.signal.addEventListener('abort', kill, { once: true });
  if (request.signal.aborted) kill();
  child.stdout.setEncoding('utf8').on('data', stdout.add);
  child.stderr.setEncoding('utf8').on('data', stderr.add);
  // A command that never reads its stdin must not fail the run with EPIPE.
  child.stdin.on('error', () => undefined);
  child.stdin.end(request.stdin);
  return new Promise((resolve) => {
    child.on('error', (error) => stderr.add(`failed to start: ${error.message}`));
    child.on('close', (code) => {
      if (timer !== undefined) clearTimeout(timer);
      request.signal.removeEventListener('abort', kill);
      // A background job may hold the group after the shell exits: nothing of a hook outlives its answer.
      if (!killed) kill();
      resolve({ stdout: stdout.text(), stderr: stderr.text(), exitCode: killed && code === null ? -1 : code ?? -1, ...(timedOut ? { timedOut } : {}) });
    });
  });
}
