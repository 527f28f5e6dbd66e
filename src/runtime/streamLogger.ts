/**
 * A Logger port that writes one line per entry to a stream (stderr for the CLI, an output channel
 * adapter for the extension), redacting secrets first: API keys, bearer tokens and the values of
 * anything that looks like a header, key, token or password never reach a log.
 */
import type { Logger } from '../agent/ports';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const SECRET_KEY = /(key|token|secret|password|passwd|authorization|auth|cookie|headers?)$/i;
export const REDACTED = '[redacted]';

export interface StreamLoggerOptions {
  level?: LogLevel;
  /** Literal secret values (the API key, say) to blank wherever they appear. */
  secrets?: readonly string[];
  /** Adds an ISO timestamp to each line. */
  timestamps?: boolean;
}

export interface WritableLike {
  write(chunk: string): unknown;
}

/** Blanks known secret values and common credential shapes in free text. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`)
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED);
}

/** Deep-copies `data`, replacing values under secret-looking keys and redacting strings. */
export function redactData(data: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof data === 'string') return redactText(data, secrets);
  if (data === null || typeof data !== 'object' || depth > 8) return data;
  if (Array.isArray(data)) return data.map((item) => redactData(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redactData(value, secrets, depth + 1);
  }
  return out;
}

export class StreamLogger implements Logger {
  private readonly level: number;
  private readonly secrets: readonly string[];

  constructor(
    private readonly stream: WritableLike,
    private readonly options: StreamLoggerOptions = {},
  ) {
    this.level = LEVEL_ORDER[options.level ?? 'info'];
    this.secrets = options.secrets ?? [];
  }

  debug(message: string, data?: Record<string, unknown>): void {
    this.write('debug', message, data);
  }
  info(message: string, data?: Record<string, unknown>): void {
    this.write('info', message, data);
  }
  warn(message: string, data?: Record<string, unknown>): void {
    this.write('warn', message, data);
  }
  error(message: string, data?: Record<string, unknown>): void {
    this.write('error', message, data);
  }

  private write(level: LogLevel, message: string, data?: Record<string, unknown>): void {
    if (LEVEL_ORDER[level] < this.level) return;
    const parts = [this.options.timestamps ? new Date().toISOString() : '', `[${level}]`, redactText(message, this.secrets)];
    if (data && Object.keys(data).length > 0) parts.push(JSON.stringify(redactData(data, this.secrets)));
    try {
      this.stream.write(`${parts.filter((p) => p.length > 0).join(' ')}\n`);
    } catch {
      // A closed stderr (a piped consumer went away) must not crash the agent.
    }
  }
}

/** Discards everything; for hosts and tests that do not want logs. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
