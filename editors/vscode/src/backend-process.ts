/**
 * One `dsh-lsp-actions serve` process for one workspace folder: spawn, handshake
 * (`lsp.actions.list` answered as `lsp-actions/v1`, then `lsp.events {subscribe:true}`), crash
 * detection with restart backoff — bounded: after MAX_ATTEMPTS failed starts or quick exits in a
 * row it stops retrying and reports why once (the backend's own first error line) —, and a clean
 * stop (end of stdin — the backend disposes every language server and exits — then SIGTERM and
 * SIGKILL to its process group if it lingers). Every process it starts is a new **epoch**: what a
 * backend said (events, results) belongs to its epoch, so state remembered from an earlier
 * process is never mistaken for the current one's. No `vscode` import.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { RpcConnection } from './rpc-connection.ts';
import { explainStartFailure, firstErrorLine, type StartFailure } from './start-failure.ts';
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
  /** An `lsp.event` arrived from the process of `epoch`. */
  event(event: WireEvent, epoch: number): void;
  /** A new connection is ready (after the first start and after every restart), as `epoch`. */
  ready(catalog: WireCatalog, epoch: number): void;
  /** The backend failed MAX_ATTEMPTS times in a row and is no longer restarted (told once per give-up). */
  failed(failure: StartFailure): void;
}

/** Starts (the first one included) before giving up when each one fails or exits quickly. */
export const MAX_ATTEMPTS = 4;
/** How long the backend may take to answer `lsp.actions.list` after it was spawned. */
const HANDSHAKE_MS = 60_000;
/** The protocol a backend must answer with. */
const PROTOCOL = 'lsp-actions/v1';
/** Epochs are unique in the extension host, across folders and supervisors. */
let lastEpoch = 0;

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
  #epoch = 0;
  #attempts = 0;
  /** stderr lines of the current process (bounded), for the reason of a failed start. */
  #stderr: string[] = [];
  /** Set when the current process answered, but not as the backend (or not at all). */
  #notBackend: string | undefined;
  #spawnError: string | undefined;
  #handshakeDone = false;
  #failure: StartFailure | undefined;

  constructor(launch: BackendLaunch, hooks: BackendHooks) {
    this.#launch = launch;
    this.#hooks = hooks;
  }

  /** @returns the backend's pid while it runs */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** @returns the epoch of the current (or last) process: unique per process started */
  get epoch(): number {
    return this.#epoch;
  }

  /** @returns how many processes this supervisor has started */
  get attempts(): number {
    return this.#attempts;
  }

  /** @returns why the backend is no longer restarted, once it gave up */
  get failure(): StartFailure | undefined {
    return this.#failure;
  }

  /** @returns the live sessions, as last listed or announced */
  get sessions(): readonly WireSession[] {
    return this.#sessions;
  }

  /** Starts the process (no-op while one runs). */
  start(): void {
    if (this.#child !== undefined || this.#stopping || this.#failure !== undefined) return;
    clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    lastEpoch += 1;
    this.#epoch = lastEpoch;
    this.#attempts += 1;
    const epoch = this.#epoch;
    this.#stderr = [];
    this.#notBackend = undefined;
    this.#spawnError = undefined;
    this.#handshakeDone = false;
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
      for (const line of lines) this.#noteStderr(line);
    });
    connection.onNotification((method, params) => {
      if (method !== 'lsp.event' || typeof params !== 'object' || params === null) return;
      const event = params as WireEvent;
      if (event.kind === 'sessions.changed' && Array.isArray(event['sessions'])) this.#sessions = event['sessions'] as WireSession[];
      this.#hooks.event(event, epoch);
    });
    child.on('error', (error) => {
      this.#hooks.log(`spawn failed: ${error.message}`);
      this.#spawnError = `${this.#launch.command}: ${error.message}`;
      // A process that never started emits no 'exit': end this attempt here.
      if (child.pid === undefined) this.#onExit(child, null, null);
    });
    child.on('exit', (code, signal) => {
      if (stderrRest !== '') this.#noteStderr(stderrRest);
      this.#onExit(child, code, signal);
    });
    this.#readyPromise = this.#handshake(connection, child, epoch);
    this.#readyPromise.catch(() => undefined);
  }

  #noteStderr(line: string): void {
    if (this.#stderr.length < 50) this.#stderr.push(line);
    this.#hooks.log(line);
  }

  async #handshake(connection: RpcConnection, child: ChildProcessWithoutNullStreams, epoch: number): Promise<RpcConnection> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), HANDSHAKE_MS)));
    let catalog: WireCatalog | 'timeout';
    try {
      catalog = await Promise.race([connection.request<WireCatalog>('lsp.actions.list', {}), timeout]);
    } finally {
      clearTimeout(timer);
    }
    const wrong =
      catalog === 'timeout'
        ? `${this.#launch.command} did not answer the ${PROTOCOL} handshake within ${HANDSHAKE_MS / 1000} s`
        : catalog.protocol !== PROTOCOL
          ? `${this.#launch.command} answered the handshake as ${JSON.stringify(catalog.protocol ?? null)}, not ${PROTOCOL}`
          : undefined;
    if (wrong !== undefined || catalog === 'timeout') {
      if (this.#child === child) {
        this.#notBackend = wrong;
        this.#hooks.log(wrong ?? 'handshake failed');
        killGroup(child, 'SIGKILL');
      }
      throw new Error(wrong);
    }
    if (this.#connection === connection && this.#epoch === epoch) {
      this.#handshakeDone = true;
      this.#sessions = Array.isArray(catalog.sessions) ? catalog.sessions : [];
      connection.notify('lsp.events', { subscribe: true });
      this.#hooks.state('ready');
      this.#hooks.ready(catalog, epoch);
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
    if (this.#handshakeDone && Date.now() - this.#startedAt > HEALTHY_MS) this.#crashes = 0;
    this.#crashes += 1;
    const how = signal ?? `code ${code}`;
    if (this.#crashes >= MAX_ATTEMPTS) {
      const own = firstErrorLine(this.#stderr);
      const reason =
        this.#notBackend ??
        this.#spawnError ??
        own ??
        (this.#handshakeDone ? `the backend exited (${how}) ${this.#crashes} times in a row` : `${this.#launch.command} exited (${how}) before answering the ${PROTOCOL} handshake`);
      const notTheBackend = this.#notBackend !== undefined || (!this.#handshakeDone && own === undefined && this.#spawnError === undefined);
      this.#failure = explainStartFailure(reason, notTheBackend);
      this.#hooks.log(`giving up after ${this.#crashes} tries in a row: ${reason}`);
      this.#hooks.state('failed', { message: reason });
      this.#hooks.failed(this.#failure);
      return;
    }
    const delay = restartDelayMs(this.#crashes);
    this.#hooks.state('crashed', { restartInSeconds: Math.round(delay / 1000), message: `exit ${how}` });
    this.#restartTimer = setTimeout(() => this.start(), delay);
  }

  /**
   * @returns the connection once the handshake is done; starts the backend if none runs
   */
  async connection(): Promise<RpcConnection> {
    if (this.#child === undefined) {
      if (this.#failure !== undefined) throw new Error(`the backend could not be started: ${this.#failure.reason}`);
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
   * @returns the envelope, with the epoch of the process that answered
   */
  async run<T>(action: string, params: Record<string, unknown>, sessionId?: string): Promise<WireEnvelope<T>> {
    const connection = await this.connection();
    const epoch = this.#epoch;
    const requestId = `vscode-${action}-${++this.#requestCounter}`;
    const request: Record<string, unknown> = { action, params, requestId, protocol: PROTOCOL };
    if (sessionId !== undefined) request['sessionId'] = sessionId;
    const envelope = await connection.request<WireEnvelope<T>>('lsp.actions.run', request);
    return { ...envelope, epoch };
  }

  /** Stops now and starts again, with the backoff and a give-up reset. */
  async restart(): Promise<void> {
    await this.stop();
    this.#stopping = false;
    this.#crashes = 0;
    this.#failure = undefined;
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
