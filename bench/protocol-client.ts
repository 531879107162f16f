/**
 * The benchmark's editor client of `lsp-actions/v1`: spawns `dsh-lsp-actions serve` (the built
 * `lib/cli/main.js`) on this Node, writes one JSON-RPC request per line on its stdin and reads
 * response and `lsp.event` lines from its stdout — what an editor extension does, kept lean so
 * the client adds as little as possible to what it measures. It counts the frames and bytes it
 * receives, and timestamps every event on arrival.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { now } from './raw-session.ts';

/** Absolute path of the built command line (`npm run build`). */
export const SERVE_MAIN: string = join(import.meta.dirname, '..', 'lib', 'cli', 'main.js');

/** A JSON object as received. */
export type Json = Record<string, unknown>;

/** An `lsp.event` with its arrival time (`performance.now()`). */
export interface TimedEvent {
  at: number;
  params: Json;
}

/** What the client has received so far. */
export interface WireCounts {
  /** Responses received. */
  responses: number;
  /** `lsp.event` notifications received. */
  events: number;
  /** stdout bytes received (frames and their newlines). */
  bytes: number;
  /** stdout lines that were not JSON (must stay 0). */
  junk: number;
}

interface Pending {
  resolve(frame: Json): void;
  reject(error: Error): void;
  sentAt: number;
  method: string;
}

/** A spawned `serve` and the conversation with it. */
export class ServeClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly counts: WireCounts = { responses: 0, events: 0, bytes: 0, junk: 0 };
  /** Events kept since the last {@link ServeClient.clearEvents} (only while `keepEvents`). */
  readonly events: TimedEvent[] = [];
  /** Whether received events are kept in {@link ServeClient.events}. */
  keepEvents = false;
  private readonly pending = new Map<string, Pending>();
  private readonly exited: Promise<number | null>;
  private readonly watchdog: NodeJS.Timeout;
  private stderrTail = '';
  private buffer = '';
  private nextId = 1;

  /**
   * @param args arguments after `serve` (e.g. `--workspace DIR --servers FILE`)
   * @param timeoutMs a request unanswered this long fails (a hang is a benchmark failure)
   */
  constructor(args: readonly string[], timeoutMs = 120_000) {
    this.child = spawn(process.execPath, [SERVE_MAIN, 'serve', '--log-level', 'warn', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
    this.child.stdout.on('data', (chunk: string) => this.receive(chunk));
    this.exited = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
    void this.exited.then(() => this.failAll(new Error(`serve exited; stderr:\n${this.stderrTail}`)));
    this.watchdog = setInterval(() => {
      const limit = now() - timeoutMs;
      for (const [id, p] of this.pending) {
        if (p.sentAt < limit) {
          this.pending.delete(id);
          p.reject(new Error(`no answer to ${p.method} #${id} within ${timeoutMs} ms; stderr:\n${this.stderrTail}`));
        }
      }
    }, 1000);
    this.watchdog.unref();
  }

  /** @returns the pid of the `serve` process */
  get pid(): number {
    const pid = this.child.pid;
    if (pid === undefined) throw new Error('serve did not start');
    return pid;
  }

  /** @returns the last 4000 characters `serve` wrote to stderr */
  stderr(): string {
    return this.stderrTail;
  }

  /**
   * Sends a request (string id, as the VS Code client does) and resolves with its response frame.
   * @param method JSON-RPC method
   * @param params its params
   * @returns the response frame
   */
  request(method: string, params: unknown): Promise<Json> {
    const id = String(this.nextId++);
    return new Promise<Json>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, sentAt: now(), method });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /**
   * @param method JSON-RPC method
   * @param params its params
   */
  notify(method: string, params: unknown): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  /**
   * `lsp.actions.run` → the envelope.
   * @param action action id
   * @param params action params
   * @returns the envelope (`{requestId, action, status, result | error}`)
   */
  async run(action: string, params: Json): Promise<Json> {
    const frame = await this.request('lsp.actions.run', { action, params });
    const envelope = frame['result'];
    if (typeof envelope !== 'object' || envelope === null) throw new Error(`lsp.actions.run answered without an envelope: ${JSON.stringify(frame).slice(0, 500)}`);
    return envelope as Json;
  }

  /** Forgets the kept events. */
  clearEvents(): void {
    this.events.length = 0;
  }

  /**
   * Ends stdin (the editor went away) and waits for `serve` to exit.
   * @param graceMs SIGKILL after this long
   * @returns the exit code (`null` when it had to be killed)
   */
  async close(graceMs = 20_000): Promise<number | null> {
    clearInterval(this.watchdog);
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private receive(chunk: string): void {
    this.counts.bytes += Buffer.byteLength(chunk, 'utf8');
    this.buffer += chunk;
    let start = 0;
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n', start)) {
      const line = this.buffer.slice(start, nl);
      start = nl + 1;
      let frame: Json;
      try {
        frame = JSON.parse(line) as Json;
      } catch {
        this.counts.junk++;
        continue;
      }
      if (frame['method'] === 'lsp.event') {
        this.counts.events++;
        if (this.keepEvents) this.events.push({ at: now(), params: frame['params'] as Json });
        continue;
      }
      const id = frame['id'];
      const waiting = typeof id === 'string' ? this.pending.get(id) : undefined;
      if (waiting === undefined) continue;
      this.counts.responses++;
      this.pending.delete(id as string);
      waiting.resolve(frame);
    }
    this.buffer = this.buffer.slice(start);
  }

  private failAll(error: Error): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}
