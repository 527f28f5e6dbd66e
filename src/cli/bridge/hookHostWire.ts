/**
 * How a bridge process and the hook host talk: one JSON line each way per connection, over a socket
 * in the private state folder. Also where the socket is, how a bridge starts a host (detached, in a
 * session of its own, so an agent's Ctrl-C does not reach it), and which process is "the agent" a
 * hook runs for (the bridge's parent, past the shell most agents run hook commands through).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, stateHome, type StateEnv } from '../../platform/privateState';

/** A request line may carry a large payload (a long prompt, a tool's result): bounded all the same. */
export const HOST_LINE_LIMIT = 32 * 1024 * 1024;

export function hostSocketPath(env: StateEnv): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\sprout-agent-hook-host-${userInfo().username}`;
  return join(ensurePrivateDir(join(stateHome(env), 'hook-host')), 'host.sock');
}

export function readLine(socket: Socket, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: string | Buffer): void => {
      buffer += chunk.toString();
      const end = buffer.indexOf('\n');
      if (end >= 0) {
        socket.off('data', onData);
        resolve(buffer.slice(0, end));
      } else if (buffer.length > limit) {
        socket.destroy();
        reject(new Error('hook host line too long'));
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('end', () => (buffer.includes('\n') ? undefined : reject(new Error('hook host closed the connection'))));
  });
}

/**
 * Sends one message and waits at most `deadlineMs` for the answer. Undefined when nothing listens
 * there, the host did not answer in time, or the line was not JSON: the caller then goes on without it.
 */
export function exchange<T>(socketPath: string, message: unknown, deadlineMs: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const timer = setTimeout(() => finish(undefined), deadlineMs);
    let done = false;
    function finish(value: T | undefined): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    }
    socket.setEncoding('utf8');
    socket.once('error', () => finish(undefined));
    socket.once('connect', () => {
      socket.write(`${JSON.stringify(message)}\n`);
      readLine(socket, HOST_LINE_LIMIT).then(
        (line) => {
          try {
            finish(JSON.parse(line) as T);
          } catch {
            finish(undefined);
          }
        },
        () => finish(undefined),
      );
    });
  });
}

export async function pingHost(socketPath: string, deadlineMs: number): Promise<boolean> {
  return (await exchange<{ ok?: boolean }>(socketPath, { op: 'ping' }, deadlineMs))?.ok === true;
}

/** Starts `node cliMain.js hooks host` on its own: detached, no stdio, not waited for. */
export function startHost(cliMain: string, env: NodeJS.ProcessEnv): void {
  const child = spawn(process.execPath, [cliMain, 'hooks', 'host'], { detached: true, stdio: 'ignore', env: { ...env, ELECTRON_RUN_AS_NODE: '1' } });
  child.on('error', () => undefined);
  child.unref();
}

// Not node: Gemini CLI is a node process itself.
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'fish', 'ksh', 'busybox', 'env']);

function parentOf(pid: number): { ppid: number; name: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? { ppid, name } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The agent this hook runs for: the bridge's parent, or, when that is a shell that the
 * agent ran the hook command through, the first ancestor that is not. Where /proc cannot say, the parent.
 */
export function agentProcessId(): number {
  let pid = process.ppid;
  for (let hops = 0; hops < 4; hops += 1) {
    const own = parentOf(pid);
    if (own === undefined || !SHELLS.has(own.name) || own.ppid <= 1) return pid;
    pid = own.ppid;
  }
  return pid;
}
