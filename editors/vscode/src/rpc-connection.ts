/**
 * A newline-delimited JSON-RPC 2.0 client over a child's stdio, as `lsp-actions/v1` frames it:
 * one JSON object per `\n`-terminated line, string request ids, responses matched by id.
 * Pure Node: no `vscode` import, so the unit specs drive it over in-memory streams.
 */
import type { Readable, Writable } from 'node:stream';

/** A JSON-RPC error answered instead of a result. */
export class RpcError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** The connection ended before the request was answered. */
export class ConnectionClosedError extends Error {
  constructor() {
    super('the backend connection closed');
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** A JSON-RPC client over one input/output pair. */
export class RpcConnection {
  readonly #output: Writable;
  readonly #pending = new Map<string, Pending>();
  readonly #notificationHandlers: ((method: string, params: unknown) => void)[] = [];
  #nextId = 1;
  #buffer: Buffer = Buffer.alloc(0);
  #closed = false;

  /**
   * @param input the backend's stdout
   * @param output the backend's stdin
   */
  constructor(input: Readable, output: Writable) {
    this.#output = output;
    input.on('data', (chunk: Buffer) => this.#receive(chunk));
    input.on('end', () => this.close());
    input.on('close', () => this.close());
    output.on('error', () => this.close());
  }

  /** @returns whether the connection has ended */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * @param handler called for every notification from the backend
   */
  onNotification(handler: (method: string, params: unknown) => void): void {
    this.#notificationHandlers.push(handler);
  }

  /**
   * @param method the method
   * @param params its params
   * @returns the result; rejects with RpcError or ConnectionClosedError
   */
  request<T>(method: string, params: unknown): Promise<T> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError());
    const id = String(this.#nextId++);
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /**
   * @param method the method
   * @param params its params
   */
  notify(method: string, params: unknown): void {
    if (!this.#closed) this.#send({ jsonrpc: '2.0', method, params });
  }

  /** Rejects every pending request; later requests reject at once. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const pending of this.#pending.values()) pending.reject(new ConnectionClosedError());
    this.#pending.clear();
  }

  #send(frame: object): void {
    try {
      this.#output.write(`${JSON.stringify(frame)}\n`);
    } catch {
      this.close();
    }
  }

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (let nl = this.#buffer.indexOf(10); nl >= 0; nl = this.#buffer.indexOf(10)) {
      const line = this.#buffer.subarray(0, nl).toString('utf8').trim();
      this.#buffer = this.#buffer.subarray(nl + 1);
      if (line !== '') this.#dispatch(line);
    }
  }

  #dispatch(line: string): void {
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    if (typeof frame['method'] === 'string') {
      for (const handler of this.#notificationHandlers) handler(frame['method'], frame['params']);
      return;
    }
    const id = frame['id'];
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const pending = this.#pending.get(String(id));
    if (pending === undefined) return;
    this.#pending.delete(String(id));
    const error = frame['error'] as { code?: number; message?: string } | undefined;
    if (error !== undefined && error !== null) pending.reject(new RpcError(error.code ?? -32603, error.message ?? 'error'));
    else pending.resolve(frame['result']);
  }
}
