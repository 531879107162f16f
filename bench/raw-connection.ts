/**
 * The benchmark's floor client: a language server spawned with `node:child_process` and spoken
 * to with hand-written Content-Length framing. No library, no normalisation: requests,
 * notifications, trivial answers to server→client requests, and a process-group kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** A JSON-RPC message as parsed from the wire. */
interface WireMessage {
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Called with every notification the server sends. */
export type NotificationListener = (method: string, params: unknown) => void;

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One server process and its stdio JSON-RPC session. */
export class RawConnection {
  readonly child: ChildProcess;
  private buffer: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<NotificationListener>();
  private stderrTail = '';
  private exitInfo: string | undefined;
  readonly exited: Promise<void>;

  /**
   * @param argv executable and arguments
   * @param cwd working directory (the project root)
   */
  constructor(argv: string[], cwd: string) {
    const [command, ...args] = argv;
    if (command === undefined) throw new Error('RawConnection: empty argv');
    this.child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stdin?.on('error', () => undefined);
    this.child.stdout?.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = signal === null ? `exit code ${code}` : `signal ${signal}`;
        for (const p of this.pending.values()) p.reject(new Error(`${p.method}: server exited (${this.exitInfo}); stderr: ${this.stderrTail.slice(-500)}`));
        this.pending.clear();
        resolve();
      });
    });
  }

  /** @returns the server's process id */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  /**
   * @param method LSP method
   * @param params params; `undefined` sends no `params` member (TS 7 rejects `null`)
   * @returns the result
   */
  request<T>(method: string, params?: unknown): Promise<T> {
    if (this.exitInfo !== undefined) return Promise.reject(new Error(`${method}: server already exited (${this.exitInfo})`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
      this.write(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  /**
   * @param method LSP notification
   * @param params params; `undefined` sends none
   */
  notify(method: string, params?: unknown): void {
    this.write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /**
   * @param listener called for every server notification
   * @returns unsubscribe
   */
  onNotification(listener: NotificationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * `shutdown` → `exit` → wait; then kills the process group whatever happened.
   * @param timeoutMs how long the orderly part may take
   */
  async shutdown(timeoutMs = 3000): Promise<void> {
    if (this.exitInfo === undefined) {
      const timer = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
      await Promise.race([
        this.request('shutdown').then(
          () => {
            this.notify('exit');
            return this.exited;
          },
          () => undefined,
        ),
        timer,
      ]);
    }
    this.killGroup();
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }

  /** SIGKILLs the server's whole process group (it was spawned detached). */
  killGroup(): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private write(message: object): void {
    const body = JSON.stringify(message);
    this.child.stdin?.write(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`);
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /content-length:\s*(\d+)/i.exec(header);
      if (match === null) throw new Error(`RawConnection: frame without Content-Length: ${header}`);
      const start = headerEnd + HEADER_END.length;
      const end = start + Number(match[1]);
      if (this.buffer.length < end) return;
      const body = this.buffer.subarray(start, end).toString('utf8');
      this.buffer = this.buffer.subarray(end);
      this.onMessage(JSON.parse(body) as WireMessage);
    }
  }

  private onMessage(message: WireMessage): void {
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      this.write({ jsonrpc: '2.0', id: message.id, result: answerServerRequest(message.method, message.params) });
      return;
    }
    if (message.method !== undefined) {
      for (const listener of this.listeners) listener(message.method, message.params);
      return;
    }
    if (typeof message.id !== 'number') return;
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id);
    if (message.error !== undefined) pending.reject(new Error(`${pending.method}: ${message.error.code} ${message.error.message}`));
    else pending.resolve(message.result);
  }
}

/**
 * @param method a server→client request
 * @param params its params
 * @returns a minimal valid answer
 */
function answerServerRequest(method: string, params: unknown): unknown {
  if (method === 'workspace/configuration') {
    const items = (params as { items?: unknown[] } | undefined)?.items ?? [];
    return items.map(() => null);
  }
  if (method === 'workspace/applyEdit') return { applied: false };
  return null;
}
