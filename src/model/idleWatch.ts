/**
 * Notices response streams that went silent, for all the streams of one model client with one timer.
 * A stream notes the time of each chunk (a clock read, no timer reset per chunk) and a sweep every
 * quarter of the limit cuts those silent for at least the limit: a silent stream is cut after between
 * `idleMs` and 1.25 × `idleMs`. The timer stops at the first sweep that finds nothing to watch, so a
 * run of rounds shares one timer and an idle client holds none.
 */
export interface WatchedStream {
  /** Call on every chunk. */
  touch(): void;
  /** Call when the stream ends, however it ends. */
  stop(): void;
}

interface Entry {
  last: number;
  readonly onIdle: () => void;
}

export class IdleWatch {
  private readonly entries = new Set<Entry>();
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly idleMs: number) {}

  /** Starts watching one stream; `onIdle` runs once if it stays silent for `idleMs`. */
  watch(onIdle: () => void): WatchedStream {
    const entry: Entry = { last: performance.now(), onIdle };
    this.entries.add(entry);
    this.timer ??= setInterval(() => this.sweep(), Math.max(1, Math.floor(this.idleMs / 4))).unref();
    return {
      touch: () => (entry.last = performance.now()),
      stop: () => this.entries.delete(entry),
    };
  }

  private sweep(): void {
    const now = performance.now();
    for (const entry of this.entries) {
      if (now - entry.last < this.idleMs) continue;
      this.entries.delete(entry);
      entry.onIdle();
    }
    if (this.entries.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
