/**
 * An MCP SDK `Transport` over a child process that leads its own process group. The SDK's stdio client
 * kills only the direct child, so a server's grandchildren (a test runner, a shell) would outlive it;
 * here every kill targets the whole group, plus what left the group (a `setsid` grandchild, found by
 * processTree.ts through the descendant tree and an environment tag), which is what lets the agent
 * stay sovereign over hung or hostile servers. Messages are newline-delimited JSON-RPC on
 * stdin/stdout; stderr goes to a callback.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { newSpawnTag, signalKnown, strayProcesses, waitUntilGone, type KnownProcess } from '../platform/processTree';
import { JsonLineReader, MessageTooLargeError } from './jsonLineReader';
import { quotedName } from '../agent/nameText';

export interface ProcessGroupTransportOptions {
  /** The server's configured name, for error messages. */
  server: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  onStderrLine?: (line: string) => void;
  /** How long close() waits after SIGTERM before SIGKILL. */
  closeGraceMs?: number;
}

/** The server process could not be started at all. */
export class SpawnError extends Error {
  constructor(
    readonly server: string,
    readonly command: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'SpawnError';
  }
}

const MAX_STDERR_LINE = 8192;
const STDERR_TAIL_LINES = 5;
/** After `exit`, wait this long for stdout to drain before reporting the close (a grandchild may hold the pipe). */
const CLOSE_AFTER_EXIT_MS = 200;
/** How long a write that found the pipe broken waits for the process's exit, to report that instead. */
const BROKEN_PIPE_EXIT_WAIT_MS = 2000;
/** How long close/kill wait for SIGKILLed group members and strays to be gone. */
const DESCENDANTS_GONE_MS = 2000;

function describeSpawnFailure(options: ProcessGroupTransportOptions, error: NodeJS.ErrnoException): SpawnError {
  const { server, command } = options;
  const cause =
    error.code === 'ENOENT'
      ? 'command not found (is it installed and on PATH?)'
      : error.code === 'EACCES'
        ? 'permission denied (is the file executable?)'
        : error.code === 'E2BIG'
          ? 'its arguments and environment are too large for the system (E2BIG); shorten the env values or args'
          : error.code === 'ERR_INVALID_ARG_VALUE' && /null bytes/i.test(error.message)
            ? 'an argument, the command or an environment value contains a NUL byte; remove it from the server configuration'
            : error.message;
  return new SpawnError(server, command, error.code, `MCP server ${quotedName(server)}: cannot start "${command}": ${cause}`);
}

export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly readBuffer = new JsonLineReader();
  /** Why Sprout stopped the server itself (a limit it passed), said instead of the bare signal. */
  private stoppedBecause: string | undefined;
  private exitedFlag = false;
  private closeNotified = false;
  private exitDescription = '';
  private readonly stderrTail: string[] = [];
  private resolveExited!: () => void;
  private readonly exited = new Promise<void>((resolve) => (this.resolveExited = resolve));
  /** Resolves with notifyClose: the process is gone and its output read (or it never started). */
  private resolveSettled!: () => void;
  private readonly settled = new Promise<void>((resolve) => (this.resolveSettled = resolve));
  /** Inherited by everything the server starts, so an orphaned descendant can still be found. */
  private readonly tag = newSpawnTag();
  /** Processes outside the group seen at a kill, remembered for the next signal (SIGKILL after SIGTERM). */
  private readonly strays = new Map<number, KnownProcess>();

  constructor(private readonly options: ProcessGroupTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Stderr goes to `onStderrLine`, never to a stream of its own. The accessor (with `pid`) is how the
   * SDK's era probe knows a stdio server: silence or an exit on `server/discover` means a legacy one.
   */
  get stderr(): null {
    return null;
  }

  get hasExited(): boolean {
    return this.exitedFlag;
  }

  /** "exited with code 1" / "killed by SIGKILL", plus the last stderr lines; empty while running. */
  describeExit(): string {
    if (!this.exitedFlag) return '';
    const tail = this.stderrTail.length > 0 ? `; last stderr: ${this.stderrTail.join(' | ')}` : '';
    return `${this.stoppedBecause ?? this.exitDescription}${tail}`;
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('ProcessGroupTransport already started'));
    const { cwd } = this.options;
    if (cwd !== undefined && !isDirectory(cwd)) {
      this.markExited('never started');
      return Promise.reject(
        new SpawnError(this.options.server, this.options.command, 'ENOENT', `MCP server "${this.options.server}": working folder "${cwd}" does not exist`),
      );
    }
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(this.options.command, this.options.args, {
          detached: process.platform !== 'win32',
          stdio: ['pipe', 'pipe', 'pipe'],
          env: { ...this.options.env, ...this.tag.env },
          cwd,
          windowsHide: true,
        });
      } catch (error) {
        // Node throws at once for some bad input (a NUL byte in an argument, an environment past the
        // kernel's limit): no process exists, so nothing will ever report an exit.
        const failure = error as NodeJS.ErrnoException;
        this.markExited(`failed to start (${failure.code ?? failure.message})`);
        this.notifyClose();
        return reject(describeSpawnFailure(this.options, failure));
      }
      this.child = child;
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (spawned) return this.onerror?.(error);
        this.markExited(`failed to start (${error.code ?? error.message})`);
        this.notifyClose();
        reject(describeSpawnFailure(this.options, error));
      });
      child.once('exit', (code, signal) => {
        this.markExited(signal ? `killed by ${signal}` : `exited with code ${code}`);
        setTimeout(() => this.notifyClose(), CLOSE_AFTER_EXIT_MS).unref();
      });
      child.once('close', () => this.notifyClose());
      this.wireStreams(child);
    });
  }

  private wireStreams(child: ChildProcess): void {
    child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    let partial = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      const lines = (partial + text).split('\n');
      partial = (lines.pop() ?? '').slice(0, MAX_STDERR_LINE);
      for (const line of lines) this.onStderr(line.replace(/\r$/, '').slice(0, MAX_STDERR_LINE));
    });
    child.stderr?.on('end', () => partial && this.onStderr(partial));
  }

  private onStderr(line: string): void {
    this.stderrTail.push(line.slice(0, 300));
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    this.options.onStderrLine?.(line);
  }

  private onStdout(chunk: Buffer): void {
    if (this.stoppedBecause !== undefined) return;
    let lines: Buffer[];
    try {
      lines = this.readBuffer.push(chunk);
    } catch (error) {
      if (!(error instanceof MessageTooLargeError)) throw error;
      // A line past the hard limit is a flood, not a result: stop the server, saying which limit.
      this.stoppedBecause = `stopped by Sprout: ${error.message}`;
      this.onerror?.(new Error(`MCP server "${this.options.server}" was stopped: ${error.message}`));
      this.killGroup('SIGKILL');
      return;
    }
    for (const line of lines) {
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line.toString('utf8'));
      } catch (error) {
        this.onerror?.(new Error(`MCP server "${this.options.server}" wrote a line that is not JSON-RPC: ${(error as Error).message}`));
        continue;
      }
      this.onmessage?.(message);
    }
  }

  private markExited(description: string): void {
    if (this.exitedFlag) return;
    this.exitedFlag = true;
    this.exitDescription = description;
    this.resolveExited();
  }

  private notifyClose(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.resolveSettled();
    this.readBuffer.clear();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exitedFlag || stdin.destroyed) {
      const how = this.describeExit();
      return Promise.reject(new Error(`MCP server "${this.options.server}" is not running${how ? ` (${how})` : ''}`));
    }
    // Settles by the write's own callback: flushed, or failed because the pipe broke or the stream was
    // destroyed. Waiting for 'drain' instead hangs for good when the server dies with the write pending
    // (the SDK's connect awaits its `initialized` notification, so a server killed right after answering
    // initialize left its start, and every later call and close() of that server, waiting forever).
    return new Promise<void>((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => {
        if (!error) return resolve();
        // A broken pipe is a server on its way out: say how it ended (its exit and last stderr) once
        // that is known, not only EPIPE. One that closed its stdin and lives on is said as it is.
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<void>((r) => (timer = setTimeout(r, BROKEN_PIPE_EXIT_WAIT_MS)));
        void Promise.race([this.settled, waited]).then(() => {
          clearTimeout(timer);
          reject(new Error(`MCP server "${this.options.server}" is not running (${this.describeExit() || error.message})`));
        });
      });
    });
  }

  /** Signals every process in the server's group and every descendant that left it; a no-op once all are gone. */
  killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    // Collected before the signal: once the server dies, its children are reparented away from the tree.
    if (process.platform !== 'win32') for (const p of strayProcesses(this.exitedFlag ? undefined : pid, [this.tag.name])) this.strays.set(p.pid, p);
    try {
      if (process.platform === 'win32') this.child?.kill(signal);
      else process.kill(-pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') this.onerror?.(error as Error);
    }
    signalKnown(this.strays.values(), signal);
  }

  /** SIGTERM to the group, SIGKILL after the grace; resolves once the server process has exited. */
  async close(): Promise<void> {
    if (!this.child) return;
    if (!this.exitedFlag) {
      this.child.stdin?.end();
      this.killGroup('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.exited, new Promise((resolve) => (timer = setTimeout(resolve, this.options.closeGraceMs ?? 2000)))]);
      clearTimeout(timer);
    }
    // Always, even after the leader exited: grandchildren that ignored SIGTERM must not survive.
    this.killGroup('SIGKILL');
    await this.exited;
    await this.descendantsGone();
    this.notifyClose();
  }

  /** SIGKILL to the whole group at once (for hung servers); resolves once the process has exited. */
  async kill(): Promise<void> {
    this.killGroup('SIGKILL');
    await this.exited;
    await this.descendantsGone();
    this.notifyClose();
  }

  /** SIGKILL is delivered asynchronously: wait (bounded) until the group and the strays are really gone. */
  private async descendantsGone(): Promise<void> {
    if (process.platform === 'win32') return;
    // Bounded: a process stuck in the kernel (uninterruptible I/O) must not hold the host's shutdown.
    await waitUntilGone(this.child?.pid, this.strays.values(), DESCENDANTS_GONE_MS);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
