/**
 * Newline-delimited JSON-RPC 2.0 over a Readable/Writable pair: one UTF-8 JSON object per
 * `\n`-terminated line, in both directions. The output carries frames only.
 */
import type { Readable, Writable } from 'node:stream';
import { errorFrame, INVALID_REQUEST, parseJsonRpcLine, peekRequestId, type JsonRpcInbound } from './json-rpc.ts';

/** Options of {@link NdjsonTransport}. */
export interface NdjsonTransportOptions {
  input: Readable;
  output: Writable;
  /** Longest accepted line in bytes, without its `\n` / `\r\n` terminator. */
  maxLineBytes: number;
  /** Every well-formed inbound message, in arrival order (handlers run concurrently). */
  onMessage: (message: JsonRpcInbound) => void;
  /** A line was ignored or refused; for a stderr log, never for stdout. */
  onIgnored?: (reason: string) => void;
  /** The input ended (EOF) or closed. */
  onClose?: () => void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
/** Bytes of an oversize line kept to recover its request id. */
const HEAD_BYTES = 256;

/**
 * The transport. Input is split on the `\n` byte first (0x0A never occurs inside a multi-byte
 * UTF-8 sequence, so characters split across chunks are reassembled) and each complete line is
 * then decoded as UTF-8; this counts the line bound in bytes exactly. A trailing `\r` is
 * dropped, blank lines are skipped, malformed lines are ignored. A line longer than
 * `maxLineBytes` is discarded up to its newline without dropping the connection; when its
 * request id can be read from its first bytes it is answered `-32600`, otherwise ignored.
 * Output frames are queued and written one `write()` each, waiting for `'drain'` whenever the
 * writable signals backpressure.
 */
export class NdjsonTransport {
  readonly #options: NdjsonTransportOptions;
  readonly #decoder = new TextDecoder('utf-8');
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Set while discarding an oversize line; holds its first bytes. */
  #oversizeHead: Buffer | undefined;
  readonly #queue: string[] = [];
  #waitingForDrain = false;
  #closed = false;
  #ended = false;
  readonly #onData = (chunk: Buffer | string): void => this.#receive(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  readonly #onEnd = (): void => this.#inputClosed();
  readonly #onDrain = (): void => {
    this.#waitingForDrain = false;
    this.#pump();
  };
  readonly #onOutputError = (): void => {
    // swallowed: a broken output (client gone) cannot be reported anywhere; stop writing
    this.#queue.length = 0;
    this.#closed = true;
  };

  /** @param options streams, bound and callbacks */
  constructor(options: NdjsonTransportOptions) {
    this.#options = options;
  }

  /** Starts reading the input. */
  start(): void {
    const { input, output } = this.#options;
    input.on('data', this.#onData);
    input.on('end', this.#onEnd);
    input.on('close', this.#onEnd);
    input.on('error', this.#onEnd);
    output.on('drain', this.#onDrain);
    output.on('error', this.#onOutputError);
    input.resume();
  }

  /** @returns frames queued behind backpressure (not yet handed to the writable) */
  get queuedFrames(): number {
    return this.#queue.length;
  }

  /**
   * Queues one frame. Frames are written in order, each as one line.
   * @param frame a JSON-RPC message object
   */
  send(frame: object): void {
    if (this.#closed) return;
    this.#queue.push(`${JSON.stringify(frame)}\n`);
    this.#pump();
  }

  /** Stops reading the input (pending partial input is dropped); frames can still be sent. */
  stopReading(): void {
    const { input } = this.#options;
    input.off('data', this.#onData);
    input.off('end', this.#onEnd);
    input.off('close', this.#onEnd);
    input.off('error', this.#onEnd);
    input.pause();
    this.#pending = [];
    this.#oversizeHead = undefined;
  }

  /**
   * Stops reading and detaches every listener. Frames still queued are handed to the writable
   * (which buffers them) so nothing already answered is lost; the streams are not ended, since
   * their owner (the process, or a test) may still use them.
   */
  close(): void {
    if (this.#closed) return;
    this.stopReading();
    const { output } = this.#options;
    for (const line of this.#queue.splice(0)) output.write(line);
    output.off('drain', this.#onDrain);
    output.off('error', this.#onOutputError);
    this.#closed = true;
  }

  #pump(): void {
    const { output } = this.#options;
    while (!this.#waitingForDrain && this.#queue.length > 0 && !this.#closed) {
      const line = this.#queue.shift() as string;
      if (!output.write(line)) this.#waitingForDrain = true;
    }
  }

  #receive(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length && !this.#closed) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  #append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#oversizeHead) return;
    this.#pending.push(part);
    this.#pendingBytes += part.length;
    // one byte of slack for a `\r` that may turn out to be part of the terminator
    if (this.#pendingBytes > this.#options.maxLineBytes + 1) {
      this.#oversizeHead = Buffer.concat(this.#pending).subarray(0, HEAD_BYTES);
      this.#pending = [];
      this.#pendingBytes = 0;
    }
  }

  #endLine(): void {
    const head = this.#oversizeHead;
    if (head) {
      this.#oversizeHead = undefined;
      this.#refuse(head);
      return;
    }
    let bytes = Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (bytes.length > this.#options.maxLineBytes) {
      this.#refuse(bytes.subarray(0, HEAD_BYTES));
      return;
    }
    const line = this.#decoder.decode(bytes);
    if (line.trim() === '') return;
    const parsed = parseJsonRpcLine(line);
    if ('malformed' in parsed) {
      this.#options.onIgnored?.(`malformed line ignored (${parsed.malformed})`);
      return;
    }
    this.#options.onMessage(parsed);
  }

  #refuse(head: Buffer): void {
    const limit = this.#options.maxLineBytes;
    const id = peekRequestId(this.#decoder.decode(head));
    this.#options.onIgnored?.(`line longer than ${limit} bytes refused${id === undefined ? '' : ` (request id ${JSON.stringify(id)})`}`);
    if (id !== undefined) this.send(errorFrame(id, INVALID_REQUEST, `request line exceeds the ${limit}-byte limit (editor.maxLineBytes)`));
  }

  #inputClosed(): void {
    if (this.#closed || this.#ended) return;
    this.#ended = true;
    this.#options.onClose?.();
  }
}
