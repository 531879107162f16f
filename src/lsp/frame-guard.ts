/**
 * A pass-through guard in front of `vscode-jsonrpc`'s `StreamMessageReader`.
 *
 * Measured on vscode-jsonrpc 8.2.0: its reader buffers until `Content-Length` bytes have
 * arrived, with no upper bound, and scans for the header terminator forever on garbage, so
 * a hostile or broken server can grow our memory without limit; a header line without `:`
 * or a missing length only fires an error and leaves the stream desynchronised. This guard
 * parses the framing itself, bounds the header block and each body by `maxMessageBytes`, and
 * fails the stream with a {@link FramingError} on the first violation. Valid bytes pass
 * through unchanged, so the library still does the decoding.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Longest header block accepted (the headers LSP defines are two short lines). */
export const MAX_HEADER_BYTES = 8 * 1024;

const TERMINATOR = Buffer.from('\r\n\r\n', 'ascii');

/** The server broke the Content-Length framing or exceeded the message bound. */
export class FramingError extends Error {
  /** What was wrong, for logs and error details. */
  readonly reason: 'oversized' | 'bad-header' | 'header-too-long';

  /**
   * @param reason what was wrong
   * @param message explanation
   */
  constructor(reason: FramingError['reason'], message: string) {
    super(message);
    this.name = 'FramingError';
    this.reason = reason;
  }
}

/**
 * Parses one header block (without the terminator).
 * @param block the header bytes as ASCII
 * @param maxMessageBytes the body bound
 * @returns the body length
 * @throws FramingError on a malformed header or an oversized body
 */
export function parseHeaderBlock(block: string, maxMessageBytes: number): number {
  let length: number | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new FramingError('bad-header', `malformed header line ${JSON.stringify(line.slice(0, 80))}`);
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-length') {
      if (!/^\d{1,15}$/.test(value)) throw new FramingError('bad-header', `invalid Content-Length ${JSON.stringify(value.slice(0, 40))}`);
      length = Number(value);
    }
  }
  if (length === undefined) throw new FramingError('bad-header', 'header block without Content-Length');
  if (length > maxMessageBytes) {
    throw new FramingError('oversized', `message of ${length} bytes exceeds the ${maxMessageBytes}-byte limit (maxMessageBytes)`);
  }
  return length;
}

const TOKEN = /^[A-Za-z0-9-]*$/;

/**
 * Fails early on bytes that cannot start a header block (e.g. a bare JSON body), instead of
 * waiting for a terminator that may never come.
 * @param partial header bytes received so far (no terminator yet)
 * @throws FramingError when some line's name part is not a header token
 */
function checkPartialHeader(partial: Buffer): void {
  for (const line of partial.toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? line.replace(/\r$/, '') : line.slice(0, colon);
    if (!TOKEN.test(name)) throw new FramingError('bad-header', `expected a header line, got ${JSON.stringify(line.slice(0, 80))}`);
  }
}

/** Validates Content-Length framing while passing the bytes through. */
export class FrameGuard extends Transform {
  private readonly maxMessageBytes: number;
  private header: Buffer = Buffer.alloc(0);
  /** Body bytes still expected; -1 while reading a header. */
  private remaining = -1;

  /** @param maxMessageBytes largest body accepted */
  constructor(maxMessageBytes: number) {
    super();
    this.maxMessageBytes = maxMessageBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.consume(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private consume(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.remaining >= 0) {
        const take = Math.min(this.remaining, rest.length);
        this.push(rest.subarray(0, take));
        this.remaining -= take;
        rest = rest.subarray(take);
        if (this.remaining === 0) this.remaining = -1;
        continue;
      }
      const joined = this.header.length === 0 ? rest : Buffer.concat([this.header, rest]);
      const end = joined.indexOf(TERMINATOR);
      if (end < 0) {
        if (joined.length > MAX_HEADER_BYTES) {
          throw new FramingError('header-too-long', `no header terminator within ${MAX_HEADER_BYTES} bytes (garbage on stdout?)`);
        }
        checkPartialHeader(joined);
        this.header = Buffer.from(joined);
        return;
      }
      if (end > MAX_HEADER_BYTES) {
        throw new FramingError('header-too-long', `header block longer than ${MAX_HEADER_BYTES} bytes`);
      }
      const length = parseHeaderBlock(joined.subarray(0, end).toString('ascii'), this.maxMessageBytes);
      this.push(joined.subarray(0, end + TERMINATOR.length));
      this.header = Buffer.alloc(0);
      rest = joined.subarray(end + TERMINATOR.length);
      this.remaining = length;
      if (length === 0) this.remaining = -1;
    }
  }
}
