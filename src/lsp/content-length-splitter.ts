/**
 * Splits a byte stream framed by `Content-Length` headers (LSP's base protocol, and tsserver's
 * answers and events on its stdout) into message bodies. The framing rules and bounds are
 * {@link FrameGuard}'s: a malformed header, a header block longer than {@link MAX_HEADER_BYTES}
 * or a body over the message bound throws a {@link FramingError}.
 */
import { FramingError, MAX_HEADER_BYTES, parseHeaderBlock } from './frame-guard.ts';

const TERMINATOR = Buffer.from('\r\n\r\n', 'ascii');

/** Accumulates chunks; hands out each complete body. */
export class ContentLengthSplitter {
  private readonly maxMessageBytes: number;
  private buffered: Buffer = Buffer.alloc(0);
  /** Body length of the message being read; -1 while reading a header. */
  private length = -1;

  /** @param maxMessageBytes largest body accepted */
  constructor(maxMessageBytes: number) {
    this.maxMessageBytes = maxMessageBytes;
  }

  /**
   * @param chunk bytes as they arrived
   * @returns the bodies completed by them, in order (UTF-8 text)
   * @throws FramingError on a framing violation (the stream cannot be resynchronised)
   */
  push(chunk: Buffer): string[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const out: string[] = [];
    for (;;) {
      if (this.length < 0) {
        const end = this.buffered.indexOf(TERMINATOR);
        if (end < 0) {
          if (this.buffered.length > MAX_HEADER_BYTES) throw new FramingError('header-too-long', `no header terminator within ${MAX_HEADER_BYTES} bytes`);
          return out;
        }
        if (end > MAX_HEADER_BYTES) throw new FramingError('header-too-long', `header block longer than ${MAX_HEADER_BYTES} bytes`);
        this.length = parseHeaderBlock(this.buffered.subarray(0, end).toString('ascii'), this.maxMessageBytes);
        this.buffered = this.buffered.subarray(end + TERMINATOR.length);
      }
      if (this.buffered.length < this.length) return out;
      out.push(this.buffered.subarray(0, this.length).toString('utf8'));
      this.buffered = this.buffered.subarray(this.length);
      this.length = -1;
    }
  }
}

/**
 * @param message a JSON-serialisable message
 * @returns it framed for an LSP peer
 */
export function frameMessage(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}
