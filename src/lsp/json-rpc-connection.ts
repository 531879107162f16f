/**
 * The JSON-RPC channel to one server process: `vscode-jsonrpc`'s message connection (imported
 * directly: `vscode-languageserver-protocol` re-exports it but costs ~25 ms more to load, decision
 * 0112) over the process's pipes, with {@link FrameGuard} bounding what the server may send.
 * Any framing violation, undecodable body or pipe error is fatal: it is reported once through
 * {@link JsonRpcChannel.onFatal} and the owner tears the process down.
 */
import { Writable, type Readable } from 'node:stream';
import {
  CancellationTokenSource,
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
  type Logger,
  type MessageConnection,
} from 'vscode-jsonrpc/node.js';
import { abortError, type ActionError } from '../errors.ts';
import { FrameGuard } from './frame-guard.ts';

/** Log sink shared by the engine's parts. */
export type EngineLog = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

/** A live connection plus its fatal-error signal. */
export interface JsonRpcChannel {
  connection: MessageConnection;
  /**
   * @param listener called once, with the first fatal error (framing, decoding, broken pipe)
   */
  onFatal(listener: (error: Error) => void): void;
  /** @returns whether messages can still be sent (not failed, closed or disposed) */
  isOpen(): boolean;
  /** Stops listening and releases the streams (idempotent). */
  dispose(): void;
}

/**
 * @param io the server's stdout (read) and stdin (write)
 * @param options `maxMessageBytes` bounds every incoming message; `log` receives library logs
 * @param options.maxMessageBytes largest incoming JSON-RPC body accepted
 * @param options.log log sink
 * @param options.label prefix for log lines (server id)
 * @returns the channel; call `connection.listen()` after installing handlers
 */
export function createJsonRpcChannel(
  io: { stdout: Readable; stdin: Writable },
  options: { maxMessageBytes: number; log: EngineLog; label: string },
): JsonRpcChannel {
  const { log, label } = options;
  const guard = new FrameGuard(options.maxMessageBytes);
  let fatal: Error | undefined;
  let disposed = false;
  const listeners: Array<(error: Error) => void> = [];
  const fail = (error: Error): void => {
    if (fatal !== undefined || disposed) return;
    fatal = error;
    for (const listener of listeners) listener(error);
  };
  guard.on('error', fail);
  io.stdin.on('error', (error) => fail(new Error(`writing to the server failed: ${error.message}`, { cause: error })));
  io.stdout.on('error', (error) => fail(new Error(`reading from the server failed: ${error.message}`, { cause: error })));
  io.stdout.pipe(guard);

  const logger: Logger = {
    error: (m) => log('warn', `${label}: jsonrpc: ${m}`),
    warn: (m) => log('warn', `${label}: jsonrpc: ${m}`),
    info: (m) => log('debug', `${label}: jsonrpc: ${m}`),
    log: (m) => log('debug', `${label}: jsonrpc: ${m}`),
  };
  const reader = new StreamMessageReader(guard);
  // vscode-jsonrpc 8.2.0 turns a failed request write into an unhandled rejection (it rethrows
  // inside an async Promise executor), which would crash the host. Writes go through this sink,
  // which never fails: a broken pipe is reported once as fatal, and the owner then fails every
  // pending request itself.
  const stdin = io.stdin;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (stdin.destroyed || !stdin.writable) {
        fail(new Error('the server closed its stdin'));
        callback();
        return;
      }
      stdin.write(chunk, (error) => {
        if (error) fail(new Error(`writing to the server failed: ${error.message}`, { cause: error }));
        callback();
      });
    },
  });
  const writer = new StreamMessageWriter(sink);
  reader.onError((error) => fail(error));
  writer.onError(([error]) => fail(error));
  const connection = createMessageConnection(reader, writer, logger);
  let closed = false;
  connection.onClose(() => (closed = true));
  return {
    connection,
    isOpen: () => !closed && !disposed && fatal === undefined,
    onFatal(listener) {
      if (fatal !== undefined) listener(fatal);
      else listeners.push(listener);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      io.stdout.unpipe(guard);
      try {
        connection.dispose();
      } catch (error) {
        // ConnectionError "already disposed": nothing left to release
        log('debug', `${label}: connection dispose: ${(error as Error).message}`);
      }
      guard.destroy();
    },
  };
}

/**
 * Sends a request that an abort cancels at once: the caller is rejected with
 * CANCELLED/TIMEOUT immediately and the server gets `$/cancelRequest` (its late answer is
 * dropped). While in flight, the request's reject function sits in `pending`, so the owner
 * can fail it (crash, stop).
 * @param channel the channel (its connection; `$/cancelRequest` only while it is open)
 * @param method the method
 * @param params its params (`undefined` → no `params` member at all)
 * @param signal the caller's cancellation
 * @param pending in-flight rejecters, owned by the caller
 * @param mapError turns a rejection into an ActionError
 * @returns the result
 */
export function sendCancellable<R>(
  channel: Pick<JsonRpcChannel, 'connection' | 'isOpen'>,
  method: string,
  params: unknown,
  signal: AbortSignal | undefined,
  pending: Set<(error: ActionError) => void>,
  mapError: (error: unknown) => ActionError,
): Promise<R> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const connection = channel.connection;
  const source = new CancellationTokenSource();
  let sent: Promise<R>;
  try {
    sent = params === undefined ? connection.sendRequest<R>(method, source.token) : connection.sendRequest<R>(method, params, source.token);
  } catch (error) {
    return Promise.reject(mapError(error));
  }
  return new Promise<R>((resolve, reject) => {
    const settle = (): void => {
      pending.delete(rejectWith);
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    };
    const rejectWith = (error: ActionError): void => {
      settle();
      reject(error);
    };
    const onAbort = (): void => {
      // cancelling on a closed connection would only log a ConnectionError
      if (channel.isOpen()) source.cancel();
      rejectWith(abortError(signal as AbortSignal));
    };
    pending.add(rejectWith);
    signal?.addEventListener('abort', onAbort, { once: true });
    sent.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => rejectWith(mapError(error)),
    );
  });
}
