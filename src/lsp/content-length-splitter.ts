/**
 * Splits a byte stream framed by `Content-Length` headers (LSP's base protocol, and tsserver's
 * answers and events on its stdout) into message bodies. The framing rules and bounds are
 * {@link FrameGuard}'s: a malformed header, a header block longer than {@link MAX_HEADER_BYTES}
 * or a body over the message bound throws a {@link FramingError}.
 */
import { FramingError, MAX_HEADER_BYTES, parseHeaderBlock } from './frame-guard.ts';

const TERMINATOR = Buffer.from('\r\n\r\n', 'ascii');

const HEADER = Buffer.from('Content-Length:', 'ascii');

/** Accumulates chunks; hands out each complete body. */
export class ContentLengthSplitter {
  private readonly maxMessageBytes: number;
  private readonly onSkipped: ((bytes: Buffer) => void) | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  /** Body length of the message being read; -1 while reading a header. */
  private length = -1;

  /**
   * @param maxMessageBytes largest body accepted
   * @param onSkipped when given, bytes between messages that do not start a `Content-Length`
   *   header are handed to it and skipped instead of failing the stream (tsserver's stdout, where
   *   a TypeScript plugin's `console.log` lands between messages; typescript-language-server
   *   reads TypeScript ≥ 4.9 over IPC, where it cannot)
   */
  constructor(maxMessageBytes: number, onSkipped?: (bytes: Buffer) => void) {
    this.maxMessageBytes = maxMessageBytes;
    this.onSkipped = onSkipped;
  }

  /** Lenient mode: drops what precedes the next header, keeping a tail that may begin one. */
  private resync(): void {
    if (this.onSkipped === undefined || this.buffered.length === 0) return;
    const at = this.buffered.indexOf(HEADER);
    let cut = at;
    if (at < 0) {
      let keep = Math.min(HEADER.length - 1, this.buffered.length);
      while (keep > 0 && !HEADER.subarray(0, keep).equals(this.buffered.subarray(this.buffered.length - keep))) keep--;
      cut = this.buffered.length - keep;
    }
    if (cut <= 0) return;
    this.onSkipped(this.buffered.subarray(0, cut));
    this.buffered = this.buffered.subarray(cut);
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
        this.resync();
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
