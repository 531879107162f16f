/**
 * The last bytes a server wrote to stderr, kept for error reports (crash, failed start).
 */

/** A bounded byte tail. */
export class StderrTail {
  private readonly maxBytes: number;
  private chunks: Buffer[] = [];
  private size = 0;

  /** @param maxBytes how many bytes to keep (the config's `stderrTailBytes`) */
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** @param chunk bytes the server wrote */
  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (buf.length >= this.maxBytes) {
      this.chunks = [buf.subarray(buf.length - this.maxBytes)];
      this.size = this.maxBytes;
      return;
    }
    this.chunks.push(buf);
    this.size += buf.length;
    while (this.size > this.maxBytes) {
      const first = this.chunks[0];
      if (first === undefined) break;
      const excess = this.size - this.maxBytes;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  /** @returns the kept tail as text (a split multi-byte character at the start is replaced) */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
