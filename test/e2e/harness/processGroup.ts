// Child processes the editor harnesses start (code-server, the VS Code server) run in their own
// process group, so one signal reaches the extension host and every MCP server it spawned; stopping
// escalates from SIGTERM (lets the extension deactivate) to SIGKILL, so no path leaves them running.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

export interface GroupProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr, for diagnostics on failure. */
  output(): string;
  /** Resolves once `text` appears in the output (or rejects on exit or timeout). */
  waitForOutput(text: string | RegExp, timeoutMs: number): Promise<void>;
  stop(graceMs?: number): Promise<void>;
}

export function spawnGroup(command: string, args: string[], options: SpawnOptions, echo?: (line: string) => void): GroupProcess {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    out += text;
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
    if (echo) for (const line of text.split('\n')) if (line.trim()) echo(line);
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });

  const waitForOutput = (text: string | RegExp, timeoutMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const matches = (): boolean => (typeof text === 'string' ? out.includes(text) : text.test(out));
      const done = (err?: Error): void => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off('exit', onExit);
        if (err) reject(err);
        else resolve();
      };
      const check = (): void => {
        if (matches()) done();
      };
      const onExit = (): void => done(new Error(`${command} exited (${child.exitCode ?? child.signalCode}) before printing ${text}\n${out.slice(-4000)}`));
      const timer = setTimeout(() => done(new Error(`timed out after ${timeoutMs} ms waiting for ${text}\n${out.slice(-4000)}`)), timeoutMs);
      listeners.add(check);
      child.once('exit', onExit);
      check();
    });

  const signal = (sig: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // The group is already gone.
    }
  };

  const stop = async (graceMs = 5000): Promise<void> => {
    signal('SIGTERM');
    const timedOut = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref())]);
    // SIGKILL the group even after a clean exit: grandchildren may outlive the leader.
    signal('SIGKILL');
    if (timedOut) await Promise.race([exited, new Promise((r) => setTimeout(r, 2000).unref())]);
  };

  return { child, output: () => out, waitForOutput, stop };
}

/**
 * The environment for an editor under test: ours minus anything that looks like a credential, so a
 * developer's real API key can never reach the extension host, an MCP server or a log.
 */
export function scrubbedEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/API_KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 2xx (code-server's /healthz, the VS Code server's root page). */
export async function waitForHttp(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`server exited before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (last: ${last})`);
}
