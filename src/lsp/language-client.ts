/**
 * One language server process and the LSP session with it: spawn through the harness
 * subprocess seam, `initialize`/`initialized`, capabilities (static + dynamic), concurrent
 * requests with `$/cancelRequest` on abort, server → client requests, progress, and an
 * orderly `shutdown` → `exit` → process-tree kill. A crash or a protocol violation fails
 * every pending request with a structured error carrying the stderr tail.
 */
import type { SubprocessHandle, SubprocessOutcome, SubprocessRuntime } from '@deepseek-ai/dsh-subprocess';
import { Emitter, type Event } from 'vscode-jsonrpc';
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { ServerConfig } from '../config.ts';
import { negotiatedEncoding, type PositionEncodingKind } from '../documents/position-encoding.ts';
import type { ActionError } from '../errors.ts';
import type { ServerInfo } from './engine-types.ts';
import { CapabilityRegistry } from './capability-registry.ts';
import { raceAbort } from '../race-abort.ts';
import { buildInitializeParams } from './client-capabilities.ts';
import { brokenStreamError, crashedError, startupTimeoutError, stoppedError } from './client-errors.ts';
import { createJsonRpcChannel, sendCancellable, type EngineLog, type JsonRpcChannel } from './json-rpc-connection.ts';
import { ProgressTracker } from './progress-tracker.ts';
import { requestError } from './request-errors.ts';
import { healthProbeRequest } from './health-probe.ts';
import { DEFAULT_HEALTH_POLICY, isNoProject, ServerHealth, unhealthyError } from './server-health.ts';
import { NO_APPLY_EDIT_ROUTE, installServerRequestHandlers } from './server-requests.ts';
import { StderrTail } from './stderr-tail.ts';
import { TsserverBridge } from './tsserver-bridge.ts';

/** Everything one client needs. */
export interface LanguageClientOptions {
  serverId: string;
  /** The server's root directory (cwd, rootUri, the one workspace folder). */
  root: string;
  config: ServerConfig;
  /** Absolute executable path (resolved at load). */
  executable: string;
  subprocess: Pick<SubprocessRuntime, 'spawn'>;
  log: EngineLog;
}

/** Lifecycle of a client. */
export type ClientState = 'new' | 'starting' | 'ready' | 'stopping' | 'stopped' | 'failed';

type ApplyEditRoute = (params: ApplyWorkspaceEditParams) => Promise<ApplyWorkspaceEditResult>;

/** An LSP session with one server process. */
export class LanguageClient {
  readonly serverId: string;
  readonly root: string;
  readonly config: ServerConfig;
  readonly registry = new CapabilityRegistry();
  readonly progress = new ProgressTracker();
  /** Position encoding negotiated in `initialize`. */
  encoding: PositionEncodingKind = 'utf-16';
  /** What the server said it is in `initialize` (`serverInfo`), when it said. */
  serverInfo: ServerInfo | undefined;
  state: ClientState = 'new';
  /** Why the client failed (crash, protocol violation, failed start). */
  failure: ActionError | undefined;
  private readonly options: LanguageClientOptions;
  private readonly tail: StderrTail;
  private handle: SubprocessHandle | undefined;
  private channel: JsonRpcChannel | undefined;
  private readonly pending = new Set<(error: ActionError) => void>();
  /** In-flight health probes: failed with the client like requests, but never make it `busy`. */
  private readonly probes = new Set<(error: ActionError) => void>();
  private readonly applyEditRoutes: ApplyEditRoute[] = [];
  private readonly failed = new Emitter<ActionError>();
  private readonly published = new Emitter<PublishDiagnosticsParams>();
  private readonly refreshed = new Emitter<void>();
  private stopping: Promise<void> | undefined;
  /** Aborted when the process has exited (ends waits for answers that cannot come). */
  private readonly exited = new AbortController();
  /** Signs that the server stopped answering meaningfully while its process lives on. */
  private readonly health: ServerHealth;

  /** @param options server id, root, config entry, executable, subprocess seam, log */
  constructor(options: LanguageClientOptions) {
    this.options = options;
    this.serverId = options.serverId;
    this.root = options.root;
    this.config = options.config;
    this.tail = new StderrTail(options.config.stderrTailBytes);
    this.health = new ServerHealth(
      (reason) => {
        if (this.state === 'starting' || this.state === 'ready') this.fail(unhealthyError(this.serverId, reason, this.stderrTail()));
      },
      (signal) => this.probe(signal),
      { ...DEFAULT_HEALTH_POLICY, probeTimeoutMs: options.config.probeTimeoutMs },
    );
  }

  /** @returns health probes sent so far (a caller gave up on a request each time none was out) */
  get probesSent(): number {
    return this.health.probesSent;
  }

  /** @returns health probes waiting for their answer */
  get probesInFlight(): number {
    return this.probes.size;
  }

  /** @returns the server process id, when spawned */
  get pid(): number | undefined {
    return this.handle !== undefined && this.handle.pid > 0 ? this.handle.pid : undefined;
  }
  /** Fires once when the server crashes or breaks the protocol (not on an orderly stop). */
  get onDidFail(): Event<ActionError> {
    return this.failed.event;
  }
  /** Every `textDocument/publishDiagnostics`. */
  get onPublishDiagnostics(): Event<PublishDiagnosticsParams> {
    return this.published.event;
  }
  /** Every `workspace/diagnostic/refresh`. */
  get onRefresh(): Event<void> {
    return this.refreshed.event;
  }
  /** @returns the last bytes of the server's stderr */
  stderrTail(): string {
    return this.tail.text();
  }

  /**
   * Spawns the server and runs `initialize` → `initialized`. Not abortable by one caller
   * (others may share it); bounded by `startupTimeoutMs`.
   */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('LanguageClient.start() called twice');
    this.state = 'starting';
    const { config, log } = this.options;
    let handle: SubprocessHandle;
    try {
      handle = this.options.subprocess.spawn({
        argv: [this.options.executable, ...config.args],
        cwd: this.root,
        stdio: { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' },
        graceMs: config.killGraceMs,
        env: { ...config.env },
      });
    } catch (error) {
      this.fail(this.crashError(`could not be started: ${error instanceof Error ? error.message : String(error)}`));
      throw this.failure;
    }
    this.handle = handle;
    handle.stderr?.on('data', (chunk: Buffer) => this.tail.push(chunk));
    handle.stderr?.on('error', (error) => log('debug', `${this.serverId}: stderr: ${error.message}`));
    handle.done.then(
      (outcome) => this.onProcessExit(outcome),
      (error: unknown) => this.onProcessExit(undefined, error),
    );
    if (handle.stdout === undefined || handle.stdin === undefined) {
      this.fail(this.crashError('the server process has no stdio pipes'));
      throw this.failure;
    }
    // a tsserver is spoken to through our bridge (the LSP side stays the same)
    const pipes = config.protocol === 'tsserver' ? new TsserverBridge({ stdin: handle.stdin, stdout: handle.stdout }, { root: this.root, maxMessageBytes: config.maxMessageBytes, terminate: () => handle.terminate(), onStray: (text) => log('debug', `${this.serverId}: skipped on tsserver's stdout: ${text.slice(0, 200)}`) }).lsp : { stdout: handle.stdout, stdin: handle.stdin };
    const channel = createJsonRpcChannel(
      pipes,
      { maxMessageBytes: config.maxMessageBytes, log, label: this.serverId },
    );
    this.channel = channel;
    channel.onFatal((error) => {
      // a broken pipe while we stop it is the stop, not a crash
      if (this.state !== 'stopping' && this.state !== 'stopped') this.fail(this.protocolError(error));
    });
    installServerRequestHandlers(channel.connection, {
      serverId: this.serverId,
      root: this.root,
      configuration: config.configuration,
      registry: this.registry,
      progress: this.progress,
      // the server's own log lines are also health signs (a backend that died under it)
      log: (level, message) => {
        this.health.observeLog(message);
        log(level, message);
      },
      onRefresh: () => this.refreshed.fire(),
      onPublishDiagnostics: (params) => this.published.fire(params),
      applyEdit: (params) => this.applyEditRoutes.at(-1)?.(params) ?? Promise.resolve(NO_APPLY_EDIT_ROUTE),
    });
    channel.connection.listen();
    let result: InitializeResult;
    try {
      result = await this.send<InitializeResult>(
        'initialize',
        buildInitializeParams(this.root, config.initializationOptions),
        AbortSignal.timeout(config.startupTimeoutMs),
      );
    } catch (error) {
      const failure = (error as ActionError).code === 'LSP_ACTION_TIMEOUT' ? startupTimeoutError(this.serverId, config.startupTimeoutMs, this.stderrTail()) : (error as ActionError);
      this.fail(failure);
      throw failure;
    }
    if (this.state !== 'starting') throw this.failure ?? this.disposedError();
    this.registry.capabilities = result?.capabilities ?? {};
    this.encoding = negotiatedEncoding(this.registry.capabilities.positionEncoding);
    this.serverInfo = readServerInfo(result?.serverInfo);
    this.notify('initialized', {});
    if (Object.keys(config.configuration).length > 0) {
      this.notify('workspace/didChangeConfiguration', { settings: config.configuration });
    }
    this.state = 'ready';
    log('info', `${this.serverId}: ready (pid ${this.pid}, root ${this.root}, ${this.encoding})`);
  }

  /**
   * Sends a request; runs concurrently with any other.
   * @param method LSP method
   * @param params request params (`undefined` → no `params` member at all)
   * @param signal aborting sends `$/cancelRequest` and rejects with CANCELLED/TIMEOUT
   * @returns the result
   */
  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    if (this.state !== 'ready') return Promise.reject(this.failure ?? this.disposedError());
    return this.send<R>(method, params, signal);
  }

  /**
   * A request about a file the server may not have loaded (a batch asking tsserver about files it
   * was never sent): a `No Project` answer is an expected outcome there, so it counts as an answer,
   * never as a sign that the server lost its projects.
   * @param method LSP method
   * @param params request params
   * @param signal as for {@link request}
   * @returns the result
   */
  requestUnloaded<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    if (this.state !== 'ready') return Promise.reject(this.failure ?? this.disposedError());
    return this.send<R>(method, params, signal, true);
  }

  /**
   * @param method LSP notification
   * @param params its params (`undefined` → no `params` member)
   */
  notify(method: string, params?: unknown): void {
    const connection = this.channel?.connection;
    if (connection === undefined || this.failure !== undefined || this.state === 'stopped') return;
    const sent = params === undefined ? connection.sendNotification(method) : connection.sendNotification(method, params);
    sent.catch((error: unknown) => this.options.log('debug', `${this.serverId}: ${method} not sent: ${String(error)}`));
  }

  /**
   * Routes `workspace/applyEdit` requests the server sends while `fn` runs to `route`.
   * @param route answers the server's applyEdit
   * @param fn the work during which the route is active (an executeCommand)
   * @returns what `fn` returns
   */
  async withApplyEditRoute<T>(route: ApplyEditRoute, fn: () => Promise<T>): Promise<T> {
    this.applyEditRoutes.push(route);
    try {
      return await fn();
    } finally {
      const index = this.applyEditRoutes.lastIndexOf(route);
      if (index >= 0) this.applyEditRoutes.splice(index, 1);
    }
  }

  /** @returns whether requests are in flight */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Orderly stop: `shutdown` (no params), `exit`, wait, then kill the process tree.
   * Pending requests fail with `LSP_ACTION_DISPOSED`. Idempotent.
   */
  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    const { config, log } = this.options;
    const wasReady = this.state === 'ready';
    if (this.state !== 'failed') this.state = 'stopping';
    this.rejectPending(this.disposedError());
    const handle = this.handle;
    if (wasReady && this.channel !== undefined) {
      try {
        if (this.exited.signal.aborted) throw new Error('the process already exited');
        const bound = AbortSignal.any([AbortSignal.timeout(config.shutdownTimeoutMs), this.exited.signal]);
        await this.send('shutdown', undefined, bound);
        await this.channel.connection.sendNotification('exit');
        // one deadline for the exit: the process's own exit first — the subprocess service checks
        // that its whole tree is gone on a 15 ms tick, and asked right away it always waits at
        // least one (measured: a stop took 16 ms, the server exited after 5); asked after the
        // exit, a gone tree is seen at once
        const exitBy = AbortSignal.timeout(config.shutdownTimeoutMs);
        await raceAbort<unknown>(handle?.done ?? Promise.resolve(), AbortSignal.any([exitBy, this.exited.signal])).catch(() => undefined);
        await handle?.waitForExit(exitBy);
      } catch (error) {
        log('debug', `${this.serverId}: orderly shutdown incomplete (${(error as Error).message}); terminating`);
      }
    }
    handle?.terminate();
    await handle?.waitForExit(AbortSignal.timeout(config.killGraceMs + config.shutdownTimeoutMs));
    this.channel?.dispose();
    this.progress.clear();
    if (this.state !== 'failed') this.state = 'stopped';
  }

  private send<R>(method: string, params: unknown, signal: AbortSignal | undefined, noProjectExpected = false): Promise<R> {
    const channel = this.channel;
    if (channel === undefined || this.failure !== undefined) return Promise.reject(this.failure ?? this.disposedError());
    const sent = sendCancellable<R>(channel, method, params, signal, this.pending, (error) => requestError(error, this.serverId, method, this.failure));
    if (method === 'shutdown' || method === 'initialize') return sent;
    return sent.then(
      (value) => {
        this.health.answered();
        return value;
      },
      (error: unknown) => {
        if (noProjectExpected && isNoProject(error)) this.health.answered();
        else this.health.failed(error as ActionError);
        throw error;
      },
    );
  }

  /** The health probe: sent past the health accounting (its outcome is judged by {@link ServerHealth}). */
  private probe(signal: AbortSignal): Promise<unknown> {
    const channel = this.channel;
    if (channel === undefined || this.state !== 'ready') return Promise.reject(this.failure ?? this.disposedError());
    const { method, params } = healthProbeRequest(this.registry);
    this.options.log('debug', `${this.serverId}: a caller gave up on a request; probing the server (${method}, up to ${this.config.probeTimeoutMs} ms)`);
    return sendCancellable(channel, method, params, signal, this.probes, (error) => requestError(error, this.serverId, method, this.failure));
  }

  private onProcessExit(outcome: SubprocessOutcome | undefined, error?: unknown): void {
    this.exited.abort();
    if (this.state === 'stopping' || this.state === 'stopped') return;
    const how =
      outcome === undefined
        ? `could not be started: ${error instanceof Error ? error.message : String(error)}`
        : `exited unexpectedly (${outcome.signal !== null ? `signal ${outcome.signal}` : `exit code ${outcome.exitCode}`})`;
    this.fail(this.crashError(how, { exitCode: outcome?.exitCode ?? null, signal: outcome?.signal ?? null }));
  }

  private fail(error: ActionError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.state = 'failed';
    this.rejectPending(error);
    this.progress.clear();
    this.channel?.dispose();
    this.handle?.terminate();
    this.options.log('warn', error.message);
    this.failed.fire(error);
  }

  private rejectPending(error: ActionError): void {
    for (const reject of [...this.pending, ...this.probes]) reject(error);
    this.pending.clear();
    this.probes.clear();
  }

  private crashError(how: string, extra: Record<string, unknown> = {}): ActionError {
    return crashedError(this.serverId, how, this.stderrTail(), extra);
  }

  private protocolError(error: Error): ActionError {
    return brokenStreamError(this.serverId, error, this.stderrTail());
  }

  private disposedError(): ActionError {
    return stoppedError(this.serverId);
  }
}

/**
 * @param raw `serverInfo` of an `initialize` result
 * @returns its name and version when the name is a string
 */
function readServerInfo(raw: unknown): ServerInfo | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { name, version } = raw as { name?: unknown; version?: unknown };
  if (typeof name !== 'string') return undefined;
  return typeof version === 'string' ? { name, version } : { name };
}
