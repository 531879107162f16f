/**
 * Newline-delimited JSON-RPC 2.0 over a Readable/Writable pair: one UTF-8 JSON object per
 * `\n`-terminated line, in both directions. The output carries frames only.
 */
import type { Readable, Writable } from 'node:stream';
import {
  classifyMessage,
  errorFrame,
  INVALID_REQUEST,
  PARSE_ERROR,
  parseJsonRpcLine,
  peekRequestId,
  type JsonRpcId,
  type JsonRpcInbound,
} from './json-rpc.ts';

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
  /** The input ended (EOF) or closed; a last line without `\n` has been delivered first. */
  onClose?: () => void;
  /** The output failed (its reader went away: EPIPE); nothing more can be written. */
  onOutputClosed?: () => void;
  /**
   * Bytes of frames queued behind backpressure above which input reading pauses until the
   * writable drains (the queue then stays bounded whatever the client sends). Default 1 MiB.
   */
  maxQueuedBytes?: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
/** Bytes of an oversize line kept to recover its request id. */
const HEAD_BYTES = 256;
/** Default bound of the output queue. */
const DEFAULT_MAX_QUEUED_BYTES = 1024 * 1024;

/**
 * The transport. Input is split on the `\n` byte first (0x0A never occurs inside a multi-byte
 * UTF-8 sequence, so characters split across chunks are reassembled) and each complete line is
 * then decoded as UTF-8 strictly (invalid UTF-8 is a parse error, never replaced silently);
 * this counts the line bound in bytes exactly. A trailing `\r` is dropped, blank lines are
 * skipped, malformed lines are ignored; a last line without `\n` is still delivered at EOF. A
 * line longer than `maxLineBytes` is discarded up to its newline without dropping the
 * connection; when its request id can be read from its first bytes it is answered `-32600`,
 * otherwise ignored. A batch (array) is answered per element as JSON-RPC 2.0 allows: this
 * backend does not serve batches, so every request in it gets `-32600` in one array.
 *
 * Output frames are queued and written one `write()` each, waiting for `'drain'` whenever the
 * writable signals backpressure. Input is paused while the queue holds more than
 * `maxQueuedBytes` or while a holder ({@link hold}) asks for it, so memory stays bounded.
 */
export class NdjsonTransport {
  readonly #options: NdjsonTransportOptions;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  readonly #lenient = new TextDecoder('utf-8');
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Set while discarding an oversize line; holds its first bytes. */
  #oversizeHead: Buffer | undefined;
  readonly #queue: string[] = [];
  #queuedBytes = 0;
  #waitingForDrain = false;
  #closed = false;
  #ended = false;
  #reading = false;
  /** Reasons input is held (backpressure on the output, or a holder's own). */
  readonly #holds = new Set<string>();
  #lastWrite = Date.now();
  readonly #onData = (chunk: Buffer | string): void => this.#receive(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  readonly #onEnd = (): void => this.#inputClosed();
  readonly #onDrain = (): void => {
    this.#waitingForDrain = false;
    this.#pump();
  };
  readonly #onOutputError = (): void => {
    // a broken output (client gone) cannot be reported on it; stop writing and tell the owner
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    const wasOpen = !this.#outputBroken;
    this.#outputBroken = true;
    if (wasOpen) this.#options.onOutputClosed?.();
  };
  #outputBroken = false;

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
    output.on('close', this.#onOutputError);
    this.#reading = true;
    this.#updateFlow();
  }

  /**
   * Pauses input reading for `reason` until {@link release} (e.g. too many requests in flight).
   * @param reason a key; holding twice under one key is one hold
   */
  hold(reason: string): void {
    this.#holds.add(reason);
    this.#updateFlow();
  }

  /** @param reason a key given to {@link hold} */
  release(reason: string): void {
    if (this.#holds.delete(reason)) this.#updateFlow();
  }

  /** @returns whether input reading is paused */
  get inputHeld(): boolean {
    return this.#holds.size > 0;
  }

  /** @returns whether the output broke (its reader went away) */
  get outputBroken(): boolean {
    return this.#outputBroken;
  }

  /** @returns milliseconds since anything was handed to the output */
  get idleMs(): number {
    return Date.now() - this.#lastWrite;
  }

  /**
   * Checks that the output still has a reader, by writing a lone `\n` (a blank line, which
   * NDJSON readers skip) when nothing else is pending: a pipe whose reader closed fails the
   * write (EPIPE) and {@link NdjsonTransportOptions.onOutputClosed} fires.
   */
  probeOutput(): void {
    if (this.#closed || this.#outputBroken || this.#queue.length > 0 || this.#waitingForDrain) return;
    this.#lastWrite = Date.now();
    this.#options.output.write('\n');
  }

  /** @returns settles once every queued frame has been handed to the writable and flushed by it (or the output broke) */
  flush(): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.#outputBroken || this.#queue.length === 0) {
          const { output } = this.#options;
          if (this.#outputBroken || output.destroyed || output.writableEnded) resolve();
          else output.write('', () => resolve());
          return;
        }
        setTimeout(check, 10);
      };
      check();
    });
  }

  #updateFlow(): void {
    const { input } = this.#options;
    if (!this.#reading) return;
    const maxQueued = this.#options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    if (this.#queuedBytes > maxQueued) this.#holds.add('output');
    else if (this.#queuedBytes <= maxQueued / 4) this.#holds.delete('output');
    if (this.#holds.size > 0) input.pause();
    else input.resume();
  }

  /** @returns frames queued behind backpressure (not yet handed to the writable) */
  get queuedFrames(): number {
    return this.#queue.length;
  }

  /**
   * Queues one frame. Frames are written in order, each as one line.
   * @param frame a JSON-RPC message object
   */
  send(frame: object | object[]): void {
    if (this.#closed || this.#outputBroken) return;
    const line = `${JSON.stringify(frame)}\n`;
    this.#queue.push(line);
    this.#queuedBytes += line.length;
    this.#pump();
    this.#updateFlow();
  }

  /** Stops reading the input (pending partial input is dropped); frames can still be sent. */
  stopReading(): void {
    const { input } = this.#options;
    this.#reading = false;
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
    if (!this.#outputBroken) for (const line of this.#queue.splice(0)) output.write(line);
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    output.off('drain', this.#onDrain);
    output.off('error', this.#onOutputError);
    output.off('close', this.#onOutputError);
    this.#closed = true;
  }

  #pump(): void {
    const { output } = this.#options;
    while (!this.#waitingForDrain && this.#queue.length > 0 && !this.#closed && !this.#outputBroken) {
      const line = this.#queue.shift() as string;
      this.#queuedBytes -= line.length;
      this.#lastWrite = Date.now();
      if (!output.write(line)) this.#waitingForDrain = true;
    }
    this.#updateFlow();
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
    let line: string;
    try {
      line = this.#decoder.decode(bytes);
    } catch {
      // swallowed: invalid UTF-8 is a parse error; answered when the request id is readable
      this.#parseError(bytes);
      return;
    }
    if (line.trim() === '') return;
    const parsed = parseJsonRpcLine(line);
    if ('malformed' in parsed) {
      this.#options.onIgnored?.(`malformed line ignored (${parsed.malformed})`);
    } else if ('refused' in parsed) {
      this.#options.onIgnored?.(`request refused (${parsed.refused.message})`);
      this.send(errorFrame(parsed.refused.id, parsed.refused.code, parsed.refused.message));
    } else if ('batch' in parsed) {
      this.#refuseBatch(parsed.batch);
    } else {
      this.#options.onMessage(parsed);
    }
  }

  /** Invalid UTF-8: `-32700` to the request id when the line is otherwise a request, else ignored. */
  #parseError(bytes: Buffer): void {
    const parsed = parseJsonRpcLine(this.#lenient.decode(bytes));
    const id: JsonRpcId | undefined = 'kind' in parsed && parsed.kind === 'request' ? parsed.id : undefined;
    this.#options.onIgnored?.(`line with invalid UTF-8 refused${id === undefined ? '' : ` (request id ${JSON.stringify(id)})`}`);
    if (id !== undefined) this.send(errorFrame(id, PARSE_ERROR, 'parse error: the line is not valid UTF-8'));
  }

  /**
   * JSON-RPC 2.0 batches: an empty array is one `-32600` with id null; otherwise one response
   * per element that is not a notification, all in one array (none at all when every element
   * is a notification). Batches are not served: each request is refused `-32600`.
   */
  #refuseBatch(batch: unknown[]): void {
    const message = 'batch requests are not served by lsp-actions/v1; send one request per line';
    this.#options.onIgnored?.(`batch of ${batch.length} refused`);
    if (batch.length === 0) {
      this.send(errorFrame(null, INVALID_REQUEST, 'empty batch'));
      return;
    }
    const answers: object[] = [];
    for (const element of batch) {
      const item = classifyMessage(element);
      if ('malformed' in item) answers.push(errorFrame(null, INVALID_REQUEST, `invalid request in batch (${item.malformed})`));
      else if (item.kind === 'request') answers.push(errorFrame(item.id, INVALID_REQUEST, message));
    }
    if (answers.length > 0) this.send(answers);
  }

  #refuse(head: Buffer): void {
    const limit = this.#options.maxLineBytes;
    const id = peekRequestId(this.#lenient.decode(head));
    this.#options.onIgnored?.(`line longer than ${limit} bytes refused${id === undefined ? '' : ` (request id ${JSON.stringify(id)})`}`);
    if (id !== undefined) this.send(errorFrame(id, INVALID_REQUEST, `request line exceeds the ${limit}-byte limit (editor.maxLineBytes)`));
  }

  #inputClosed(): void {
    if (this.#closed || this.#ended) return;
    this.#ended = true;
    // a last request without its `\n` is still a request
    if (this.#pendingBytes > 0 || this.#oversizeHead) this.#endLine();
    this.#options.onClose?.();
  }
}
