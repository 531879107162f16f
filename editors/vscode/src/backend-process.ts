/**
 * One `dsh-lsp-actions serve` process for one workspace folder: spawn, handshake
 * (`lsp.actions.list`, `lsp.events {subscribe:true}`), crash detection with restart backoff, and
 * a clean stop (end of stdin — the backend disposes every language server and exits — then
 * SIGTERM and SIGKILL to its process group if it lingers). No `vscode` import.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { RpcConnection } from './rpc-connection.ts';
import { restartDelayMs, type BackendState } from './status-text.ts';
import type { WireCatalog, WireEnvelope, WireEvent, WireSession } from './wire-types.ts';

/** How to start the backend. */
export interface BackendLaunch {
  command: string;
  args: string[];
  cwd: string;
}

/** Hooks the owner supplies. */
export interface BackendHooks {
  /** A line of the backend's stderr (or of this class's own log). */
  log(line: string): void;
  /** The lifecycle state changed. */
  state(state: BackendState, detail?: { restartInSeconds?: number; message?: string }): void;
  /** An `lsp.event` arrived. */
  event(event: WireEvent): void;
  /** A new connection is ready (after the first start and after every restart). */
  ready(catalog: WireCatalog): void;
}

/** A crash-free run this long resets the backoff. */
const HEALTHY_MS = 60_000;
/** How long a clean stop waits for the backend to exit after end of input. */
const STOP_GRACE_MS = 10_000;

/** A supervised backend process. */
export class BackendProcess {
  readonly #launch: BackendLaunch;
  readonly #hooks: BackendHooks;
  #child: ChildProcessWithoutNullStreams | undefined;
  #connection: RpcConnection | undefined;
  #readyPromise: Promise<RpcConnection> | undefined;
  #crashes = 0;
  #startedAt = 0;
  #restartTimer: ReturnType<typeof setTimeout> | undefined;
  #stopping = false;
  #sessions: WireSession[] = [];
  #requestCounter = 0;

  constructor(launch: BackendLaunch, hooks: BackendHooks) {
    this.#launch = launch;
    this.#hooks = hooks;
  }

  /** @returns the backend's pid while it runs */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** @returns the live sessions, as last listed or announced */
  get sessions(): readonly WireSession[] {
    return this.#sessions;
  }

  /** Starts the process (no-op while one runs). */
  start(): void {
    if (this.#child !== undefined || this.#stopping) return;
    clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    this.#hooks.state('starting');
    this.#hooks.log(`starting: ${this.#launch.command} ${this.#launch.args.join(' ')}`);
    const child = spawn(this.#launch.command, this.#launch.args, {
      cwd: this.#launch.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // its own process group: a lingering backend is stopped with its language servers
      env: process.env,
    });
    this.#child = child;
    this.#startedAt = Date.now();
    const connection = new RpcConnection(child.stdout, child.stdin);
    this.#connection = connection;
    let stderrRest = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = (stderrRest + chunk.toString('utf8')).split('\n');
      stderrRest = lines.pop() ?? '';
      for (const line of lines) this.#hooks.log(line);
    });
    connection.onNotification((method, params) => {
      if (method !== 'lsp.event' || typeof params !== 'object' || params === null) return;
      const event = params as WireEvent;
      if (event.kind === 'sessions.changed' && Array.isArray(event['sessions'])) this.#sessions = event['sessions'] as WireSession[];
      this.#hooks.event(event);
    });
    child.on('error', (error) => this.#hooks.log(`spawn failed: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (stderrRest !== '') this.#hooks.log(stderrRest);
      this.#onExit(child, code, signal);
    });
    this.#readyPromise = this.#handshake(connection);
    this.#readyPromise.catch(() => undefined);
  }

  async #handshake(connection: RpcConnection): Promise<RpcConnection> {
    const catalog = await connection.request<WireCatalog>('lsp.actions.list', {});
    this.#sessions = Array.isArray(catalog.sessions) ? catalog.sessions : [];
    connection.notify('lsp.events', { subscribe: true });
    if (this.#connection === connection) {
      this.#hooks.state('ready');
      this.#hooks.ready(catalog);
    }
    return connection;
  }

  #onExit(child: ChildProcessWithoutNullStreams, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#child !== child) return;
    this.#child = undefined;
    this.#connection?.close();
    this.#connection = undefined;
    this.#hooks.log(`backend exited (${signal ?? `code ${code}`})`);
    // A backend that died abruptly cannot stop its language servers: end what is left of its group.
    if (code !== 0) killGroup(child, 'SIGKILL');
    if (this.#stopping) return;
    if (Date.now() - this.#startedAt > HEALTHY_MS) this.#crashes = 0;
    this.#crashes += 1;
    const delay = restartDelayMs(this.#crashes);
    this.#hooks.state('crashed', { restartInSeconds: Math.round(delay / 1000), message: `exit ${signal ?? code}` });
    this.#restartTimer = setTimeout(() => this.start(), delay);
  }

  /**
   * @returns the connection once the handshake is done; starts the backend if none runs
   */
  async connection(): Promise<RpcConnection> {
    if (this.#child === undefined) {
      if (this.#restartTimer !== undefined) throw new Error('the backend crashed and is about to restart; try again in a moment');
      this.start();
    }
    if (this.#readyPromise === undefined) throw new Error('the backend is stopped');
    return this.#readyPromise;
  }

  /**
   * @param action the action id
   * @param params its params
   * @param sessionId the session to bind the run to
   * @returns the envelope
   */
  async run<T>(action: string, params: Record<string, unknown>, sessionId?: string): Promise<WireEnvelope<T>> {
    const connection = await this.connection();
    const requestId = `vscode-${action}-${++this.#requestCounter}`;
    const request: Record<string, unknown> = { action, params, requestId, protocol: 'lsp-actions/v1' };
    if (sessionId !== undefined) request['sessionId'] = sessionId;
    return connection.request<WireEnvelope<T>>('lsp.actions.run', request);
  }

  /** Stops now and starts again, with the backoff reset. */
  async restart(): Promise<void> {
    await this.stop();
    this.#stopping = false;
    this.#crashes = 0;
    this.start();
  }

  /**
   * Ends stdin (the backend disposes its language servers and exits 0); escalates to SIGTERM and
   * SIGKILL on the process group if it has not exited in time.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    const child = this.#child;
    if (child === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    if (await within(exited, STOP_GRACE_MS)) return this.#stopped();
    killGroup(child, 'SIGTERM');
    if (await within(exited, 3000)) return this.#stopped();
    killGroup(child, 'SIGKILL');
    await within(exited, 3000);
    this.#stopped();
  }

  #stopped(): void {
    this.#hooks.state('stopped');
  }
}

function killGroup(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}
