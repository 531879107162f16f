/**
 * A tiny raw LSP client for the fake server's self-tests: spawns the fake, speaks Content-Length
 * framing by hand, records every byte and message, and answers server→client requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fakeServerCommand, type FakeScenario } from '../fixtures/fake-lsp-scenario.ts';

/** A JSON-RPC message as seen on the wire. */
export interface RpcMessage {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Answers a server→client request; return (or resolve) a result, or throw (reject) `{code,message}`. */
export type ServerRequestHandler = (method: string, params: unknown) => unknown;

/** Default answers for server→client requests. */
export const defaultServerRequestHandler: ServerRequestHandler = (method, params) => {
  if (method === 'workspace/configuration') {
    const items = (params as { items: Array<{ section?: string }> }).items;
    return items.map((i) => ({ section: i.section, answered: true }));
  }
  if (method === 'workspace/applyEdit') return { applied: true };
  return null;
};

/** A spawned fake server with a raw client attached. */
export class RawLspClient {
  readonly child: ChildProcess;
  /** Every byte received on stdout. */
  raw: Buffer = Buffer.alloc(0);
  /** stderr text. */
  stderr = '';
  /** Every parsed message from the server, in order. */
  readonly messages: RpcMessage[] = [];
  /** Bytes that were not a parseable frame. */
  readonly garbage: string[] = [];
  /** Resolves with the exit code (or signal name). */
  readonly exited: Promise<number | string | null>;
  handler: ServerRequestHandler = defaultServerRequestHandler;

  private buffer: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number | string, (m: RpcMessage) => void>();
  private readonly waiters: Array<{ predicate: (m: RpcMessage) => boolean; resolve: (m: RpcMessage) => void }> = [];

  constructor(scenarioOrArgs: FakeScenario | string[]) {
    const { command, args } = Array.isArray(scenarioOrArgs)
      ? { command: process.execPath, args: scenarioOrArgs }
      : fakeServerCommand(scenarioOrArgs);
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin?.on('error', () => {});
    this.child.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    this.child.stdout?.on('data', (d: Buffer) => this.onData(d));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve(code ?? signal)));
  }

  private onData(chunk: Buffer): void {
    this.raw = Buffer.concat([this.raw, chunk]);
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /^content-length:\s*(\d+)\s*$/im.exec(header);
      if (!match) {
        this.garbage.push(header);
        this.buffer = this.buffer.subarray(headerEnd + 4);
        continue;
      }
      const length = Number(match[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      let message: RpcMessage;
      try {
        message = JSON.parse(body) as RpcMessage;
      } catch {
        this.garbage.push(body);
        continue;
      }
      this.onMessage(message);
    }
  }

  private onMessage(message: RpcMessage): void {
    this.messages.push(message);
    const matched = this.waiters.filter((w) => w.predicate(message));
    for (const waiter of matched) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      const id = message.id;
      Promise.resolve()
        .then(() => this.handler(message.method ?? '', message.params))
        .then(
          (result) => this.write({ jsonrpc: '2.0', id, result: result ?? null }),
          (error: unknown) => this.write({ jsonrpc: '2.0', id, error: error as { code: number; message: string } }),
        );
    } else if (message.method === undefined && message.id !== undefined && message.id !== null) {
      const resolve = this.pending.get(message.id);
      this.pending.delete(message.id);
      resolve?.(message);
    }
  }

  /** Writes one framed message. */
  write(message: object): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.writeRaw(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  }

  /** Writes raw bytes to the server's stdin. */
  writeRaw(data: string | Buffer): void {
    this.child.stdin?.write(data);
  }

  /** Sends a request; resolves with the whole response message (result or error). */
  request(method: string, params?: unknown, id: number | string = this.nextId++): Promise<RpcMessage> {
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.write(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  /** Sends a request and returns its result, failing on an error response. */
  async call<T = unknown>(method: string, params?: unknown): Promise<T> {
    const response = await this.request(method, params);
    if (response.error) throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    return response.result as T;
  }

  notify(method: string, params?: unknown): void {
    this.write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Resolves with the first message (already received or future) matching `predicate`. */
  waitFor(predicate: (m: RpcMessage) => boolean, timeoutMs = 5000, after = 0): Promise<RpcMessage> {
    const seen = this.messages.slice(after).find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a message; got ${JSON.stringify(this.messages.map((m) => m.method ?? m.id))}`)), timeoutMs);
      this.waiters.push({
        predicate,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Waits for the next message matching `predicate` that arrives after now. */
  next(predicate: (m: RpcMessage) => boolean, timeoutMs = 5000): Promise<RpcMessage> {
    return this.waitFor(predicate, timeoutMs, this.messages.length);
  }

  /** initialize (offering `encodings`) + initialized; returns the initialize result. */
  async initialize(
    encodings: string[] = ['utf-16'],
    extra: Record<string, unknown> = {},
  ): Promise<{ capabilities: Record<string, unknown>; serverInfo?: { name: string } }> {
    const result = await this.call<{ capabilities: Record<string, unknown> }>('initialize', {
      processId: null,
      rootUri: 'file:///work/ws',
      workspaceFolders: [{ uri: 'file:///work/ws', name: 'ws' }],
      capabilities: { general: { positionEncodings: encodings }, workspace: { diagnostics: { refreshSupport: true } } },
      ...extra,
    });
    this.notify('initialized', {});
    return result;
  }

  open(uri: string, text: string, version = 1): void {
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version, text } });
  }

  /** shutdown + exit; resolves with the exit code. */
  async stop(): Promise<number | string | null> {
    await this.request('shutdown');
    this.notify('exit');
    return this.exited;
  }

  /** Kills the server if still running. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
