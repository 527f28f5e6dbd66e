/**
 * One MCP server's ups and downs, kept for ServerConnection: its state and last error as views see them,
 * the restarts it made, and the restart budget (each attempt waits a doubling backoff from when the server
 * went down, the attempts are capped, and a server that ran stably gets a fresh budget).
 */
import { keepsStoppingMessage } from './connectionErrors';
import type { ConnectionOptions, ServerState } from './connectionTypes';

/** The wait before restart `attempt` (1 for the first): doubling from the initial delay, capped. */
export function restartDelay(policy: ConnectionOptions['restart'], attempt: number): number {
  return Math.min(policy.initialDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
}

export class ServerRestarts {
  private stateNow: ServerState = 'idle';
  private errorNow: string | undefined;
  private restartCount = 0;
  private attempts = 0;
  private lastDownAt = 0;
  private readySince = 0;

  constructor(
    private readonly name: string,
    private readonly opts: Pick<ConnectionOptions, 'clock' | 'restart' | 'stableResetMs' | 'emit'>,
    /** Told of every change of state (the connection reports its status a microtask later). */
    private readonly changed: () => void,
    /** Ends a backoff wait when the connection closes. */
    private readonly closing: AbortSignal,
  ) {}

  get state(): ServerState {
    return this.stateNow;
  }

  set state(next: ServerState) {
    this.stateNow = next;
    this.changed();
  }

  get error(): string | undefined {
    return this.errorNow;
  }

  /** Successful restarts since the connection was made. */
  get restarts(): number {
    return this.restartCount;
  }

  /** Went down after a start attempt (killed, crashed, failed); the connection knows whether it is back. */
  get wentDown(): boolean {
    return this.state === 'killed' || this.state === 'restarting' || this.state === 'failed';
  }

  /** Failed with every attempt spent: it starts again only after a reset. */
  get gaveUp(): boolean {
    return this.state === 'failed' && this.attempts >= this.opts.restart.maxAttempts;
  }

  /** A start after a start attempt waits out its backoff first, or fails when the attempts are spent. */
  async waitBackoff(): Promise<void> {
    if (this.attempts >= this.opts.restart.maxAttempts) {
      const message = keepsStoppingMessage(this.name, this.opts.restart.maxAttempts, this.errorNow);
      if (this.state !== 'failed' || this.errorNow !== message) this.opts.emit({ type: 'server_error', server: this.name, message });
      this.state = 'failed';
      this.errorNow = message;
      throw new Error(message);
    }
    this.attempts++;
    const wait = this.lastDownAt + restartDelay(this.opts.restart, this.attempts) - this.opts.clock.now();
    this.state = 'restarting';
    if (wait > 0) await this.opts.clock.sleep(wait, this.closing);
  }

  /** The server went down (`killed`, `failed`, `restarting`) with `error`; one that ran stably gets its attempts back. */
  markDown(state: ServerState, error: string): void {
    const now = this.opts.clock.now();
    if (this.readySince > 0 && now - this.readySince >= this.opts.stableResetMs) this.attempts = 0;
    this.errorNow = error;
    this.lastDownAt = now;
    this.readySince = 0;
    this.state = state;
  }

  /** The server is up (its error is gone; how long it stays up decides whether its attempts come back). */
  ready(): void {
    this.errorNow = undefined;
    this.readySince = this.opts.clock.now();
    this.state = 'ready';
  }

  /** The start that made it ready was a restart: counted, and said with its attempt. */
  restarted(): void {
    this.restartCount++;
    this.opts.emit({ type: 'server_restarted', server: this.name, attempt: this.attempts });
  }

  /** The server's failures are forgotten; the next use starts it afresh. */
  reset(): void {
    this.errorNow = undefined;
    this.attempts = 0;
    this.readySince = 0;
    this.lastDownAt = 0;
    this.state = 'idle';
  }
}
