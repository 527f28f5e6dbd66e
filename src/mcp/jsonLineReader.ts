/**
 * Splits a stdio server's output into its newline-delimited JSON-RPC messages. A big tool result (20 MB
 * of text) is one long line: its chunks are kept as they come and joined once, when the line ends,
 * instead of the whole buffer being copied again for every 64 KB chunk. What reaches the model is
 * capped later, with its marker (the core's tool-result cap); here only a line longer than any real
 * message is refused, and the transport stops the server that sent it, saying which limit it passed.
 */

/** The most one message may hold: far above a real tool result, far below what would exhaust memory. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export class MessageTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly seen: number,
  ) {
    super(`it sent a message of more than ${limit / (1024 * 1024)} MiB (at least ${seen} bytes without a line break), the most one message may hold`);
    this.name = 'MessageTooLargeError';
  }
}

export class JsonLineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly limit = MAX_MESSAGE_BYTES) {}

  /** The lines `chunk` completes, in order, without their newline; throws MessageTooLargeError past the limit. */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let from = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, from)) {
      const tail = chunk.subarray(from, end);
      const size = this.pendingBytes + tail.length;
      if (size > this.limit) throw this.tooLarge(size);
      lines.push(this.pending.length === 0 ? tail : Buffer.concat([...this.pending, tail], size));
      this.pending = [];
      this.pendingBytes = 0;
      from = end + 1;
    }
    if (from < chunk.length) {
      this.pendingBytes += chunk.length - from;
      if (this.pendingBytes > this.limit) throw this.tooLarge(this.pendingBytes);
      this.pending.push(chunk.subarray(from));
    }
    return lines;
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private tooLarge(seen: number): MessageTooLargeError {
    this.clear();
    return new MessageTooLargeError(this.limit, seen);
  }
}
