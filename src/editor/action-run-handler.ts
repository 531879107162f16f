/**
 * `lsp.actions.run` and `lsp.actions.cancel`: the envelope, the `action.status` lifecycle,
 * session binding, fail-closed escalation, the per-run timeout, cancellation by `requestId`,
 * first-cached-error targeting for `quickfix.apply`, and the cache/events a run changes.
 */
import { randomUUID } from 'node:crypto';
import type { ActionRunner } from '../actions/action-runner.ts';
import { toActionError } from '../actions/action-runner.ts';
import { abortError, ActionError, type ActionErrorCode } from '../errors.ts';
import { drainWrites } from '../edits/write-drain.ts';
import { raceAbort } from '../race-abort.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import type { DiagnosticsCache } from './diagnostics-cache.ts';
import type { EventStream, WireError } from './event-stream.ts';
import { toWireError } from './wire-error.ts';
import { INVALID_PARAMS, RpcError } from './json-rpc.ts';
import { announceDiagnostics, changedFiles, fileRef, type ClientPaths, type FileRef } from './run-effects.ts';
import type { Escalation, SessionBinding, SessionDirectory } from './session-directory.ts';

/** The protocol this backend serves. */
export const PROTOCOL = 'lsp-actions/v1';

/**
 * Code of a run that exceeded `editor.requestTimeoutMs`. The v1 text files the run timeout under
 * `LSP_ACTION_UNAVAILABLE`; issue 4 and the design give it its own code (see docs/editor-protocol.md).
 */
export const RUN_TIMEOUT_CODE: ActionErrorCode = 'LSP_ACTION_TIMEOUT';

/** The `lsp.actions.run` result: always this envelope, success or failure. */
export type RunEnvelope =
  | { requestId: string; action: string; status: 'succeeded'; result: unknown }
  | { requestId: string; action: string; status: 'failed'; error: WireError };

/** What the handler runs against. */
export interface RunHandlerDeps {
  runner: Pick<ActionRunner, 'run' | 'registry'>;
  engine: Pick<LspEngineApi, 'documentText'>;
  cache: DiagnosticsCache;
  events: EventStream;
  sessions: SessionDirectory;
  paths: ClientPaths;
  requestTimeoutMs: number;
  /** The workspace folders served: every run's `workspaceRoot` must lie inside one of them. */
  servedRoots?: () => Promise<readonly string[]>;
  /** The file's filesystem version, when the composition can tell. */
  fileVersion?: (path: string, signal: AbortSignal) => Promise<string | undefined>;
  /** The file's current content, when the composition can read it (checks a cached snapshot is current). */
  readFile?: (path: string, signal: AbortSignal) => Promise<string | undefined>;
}

interface InFlight {
  controller: AbortController;
  /** Files announced as changed by an observation while this write run was in flight. */
  announced?: Set<string>;
}

/** Serves runs; every run is tracked by `requestId` until its envelope is produced. */
export class ActionRunHandler {
  readonly #deps: RunHandlerDeps;
  readonly #inFlight = new Map<string, InFlight>();
  #closed = false;

  /** @param deps runner, engine, cache, events, sessions, bounds */
  constructor(deps: RunHandlerDeps) {
    this.#deps = deps;
  }

  /** @returns requestIds of runs in flight */
  inFlight(): string[] {
    return [...this.#inFlight.keys()];
  }

  /**
   * Runs one `lsp.actions.run`. Never throws: every outcome is an envelope.
   * @param raw the request params
   * @returns the envelope
   */
  async run(raw: unknown): Promise<RunEnvelope> {
    const p = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
    const requestId = typeof p['requestId'] === 'string' && p['requestId'] !== '' ? p['requestId'] : `editor-${randomUUID()}`;
    const action = typeof p['action'] === 'string' ? p['action'] : '';
    const params = p['params'] === undefined ? {} : p['params'];
    let binding: SessionBinding | undefined;
    let escalation: Escalation | undefined;
    let writes: boolean;
    try {
      if (p['protocol'] !== undefined && p['protocol'] !== PROTOCOL) {
        throw new ActionError('LSP_PROTOCOL_VERSION_UNSUPPORTED', `protocol ${describeValue(p['protocol'])} is not served; this server speaks ${PROTOCOL}`);
      }
      if (action.trim() === '') throw new ActionError('LSP_ACTION_INVALID_ARGS', 'action is required (an id from lsp.actions.list)');
      writes = this.#deps.runner.registry.get(action).writes;
      if (this.#closed) throw new ActionError('LSP_ACTION_CANCELLED', 'the editor backend is shutting down');
      if (this.#inFlight.has(requestId)) throw new ActionError('LSP_ACTION_INVALID_ARGS', `requestId "${requestId}" is already in flight`);
      refuseMisplacedSessionId(params);
      binding = this.#deps.sessions.bind(p['sessionId']);
      escalation = writes ? this.#deps.sessions.escalation(params, binding) : undefined;
    } catch (error) {
      // refused before it started: one `failed` status, no `started`
      return this.#finish(requestId, action, toWireError(toActionError(error, NEVER_ABORTED)));
    }

    const controller = new AbortController();
    const entry: InFlight = writes ? { controller, announced: new Set() } : { controller };
    this.#inFlight.set(requestId, entry);
    const timer = setTimeout(() => {
      controller.abort(new ActionError(RUN_TIMEOUT_CODE, `the run exceeded editor.requestTimeoutMs (${this.#deps.requestTimeoutMs} ms)`));
    }, this.#deps.requestTimeoutMs);
    const { signal } = controller;
    this.#deps.events.emit('action.status', { requestId, action, status: 'started' });
    try {
      const ref = fileRef(params);
      if (ref) this.#deps.paths.note(ref);
      const containingRoots = this.#deps.servedRoots ? await raceAbort(this.#deps.servedRoots(), signal) : undefined;
      const runParams = action === 'quickfix.apply' && ref ? await this.#targetFirstError(params, ref, signal) : params;
      const running = this.#deps.runner.run({
        action,
        params: runParams,
        signal,
        ...(binding ? { session: binding.agent.session, agent: binding.agent, containingRoot: binding.cwd } : {}),
        ...(containingRoots ? { containingRoots } : {}),
        ...(escalation ? { escalation } : {}),
        callId: requestId,
        toolName: `editor:${action}`,
        actor: undefined,
      });
      const result = await this.#settle(running, writes, signal);
      // a write that committed although its abort came first still gets its follow-up events
      if (ref) await this.#afterSuccess({ requestId, action, writes, params, ref, result, entry, signal: signal.aborted ? NEVER_ABORTED : signal });
      this.#deps.events.emit('action.status', { requestId, action, status: 'succeeded' });
      return { requestId, action, status: 'succeeded', result };
    } catch (error) {
      return this.#finish(requestId, action, toWireError(signal.aborted ? abortError(signal) : toActionError(error, signal)));
    } finally {
      clearTimeout(timer);
      this.#inFlight.delete(requestId);
    }
  }

  /**
   * Waits for a run, or for its abort. A write's answer to an abort waits until every write in
   * progress stopped — committed or rolled back ({@link drainWrites}) — so a cancel or timeout never
   * answers while files are still changing; a run whose commit completed is reported as succeeded.
   * The wait does not depend on the run honouring its signal: a run hung in a server request is
   * not waited for.
   */
  async #settle<T>(running: Promise<T>, writes: boolean, signal: AbortSignal): Promise<T> {
    let outcome: { value: T } | undefined;
    const done = running.then((value) => void (outcome = { value }), () => undefined);
    try {
      return await raceAbort(running, signal);
    } catch (error) {
      if (!(writes && signal.aborted)) throw error;
      await drainWrites();
      await Promise.race([done, delay(COMMIT_SETTLE_MS)]);
      if (outcome !== undefined) return outcome.value;
      throw error;
    }
  }

  /**
   * `lsp.actions.cancel`: aborts the run with that `requestId`; its envelope fails with
   * `LSP_ACTION_CANCELLED`.
   * @param raw the request params (`{requestId}`)
   * @returns `{requestId, cancelled}`: whether a run in flight was found
   * @throws RpcError `-32602` when `requestId` is not a non-empty string
   */
  cancel(raw: unknown): { requestId: string; cancelled: boolean } {
    const requestId = (raw as { requestId?: unknown } | null | undefined)?.requestId;
    if (typeof requestId !== 'string' || requestId === '') {
      throw new RpcError(INVALID_PARAMS, 'lsp.actions.cancel needs a non-empty string requestId');
    }
    const entry = this.#inFlight.get(requestId);
    entry?.controller.abort(new ActionError('LSP_ACTION_CANCELLED', `run "${requestId}" was cancelled by the client`));
    return { requestId, cancelled: entry !== undefined };
  }

  /**
   * Notes that a file changed under in-flight writes, so they do not announce it twice.
   * @param path absolute path already announced
   */
  observedChange(path: string): void {
    for (const entry of this.#inFlight.values()) entry.announced?.add(path);
  }

  /** Refuses new runs and aborts every run in flight (dispose). */
  close(): void {
    this.#closed = true;
    for (const entry of this.#inFlight.values()) {
      entry.controller.abort(new ActionError('LSP_ACTION_CANCELLED', 'the editor backend is shutting down'));
    }
  }

  async #targetFirstError(params: unknown, ref: FileRef, signal: AbortSignal): Promise<unknown> {
    if ((params as { range?: unknown }).range !== undefined) return params;
    const doc = this.#deps.engine.documentText(ref.path);
    if (!doc || !this.#deps.cache.peek(ref.path)) return params;
    const content = this.#deps.readFile ? await settleQuietly(this.#deps.readFile(ref.path, signal), signal) : undefined;
    const range = this.#deps.cache.firstCurrentError(ref.path, {
      engineVersion: doc.version,
      ...(this.#deps.readFile ? { sourceMatches: content === doc.text } : {}),
    });
    return range ? { ...(params as object), range } : params;
  }

  async #afterSuccess(run: {
    requestId: string;
    action: string;
    writes: boolean;
    params: unknown;
    ref: FileRef;
    result: unknown;
    entry: InFlight;
    signal: AbortSignal;
  }): Promise<void> {
    const { requestId, action, writes, params, ref, result, entry, signal } = run;
    const { cache, events } = this.#deps;
    if (action === 'diagnostics.get') {
      const fsVersion = this.#deps.fileVersion ? await settleQuietly(this.#deps.fileVersion(ref.path, signal), signal) : undefined;
      const overlay = typeof (params as { text?: unknown }).text === 'string';
      announceDiagnostics({ cache, events, engine: this.#deps.engine }, ref, result, overlay, fsVersion, requestId);
      return;
    }
    if (!writes) return;
    for (const filePath of changedFiles(ref, result)) {
      const fileRefChanged = fileRef({ filePath, workspaceRoot: ref.workspaceRoot });
      if (!fileRefChanged) continue;
      cache.invalidate(fileRefChanged.path);
      if (entry.announced?.has(fileRefChanged.path)) continue;
      events.emit('file.changed', { filePath, workspaceRoot: ref.workspaceRoot, requestId });
    }
  }

  #finish(requestId: string, action: string, error: WireError): RunEnvelope {
    this.#deps.events.emit('action.status', { requestId, action, status: 'failed', error });
    return { requestId, action, status: 'failed', error };
  }
}

const NEVER_ABORTED = new AbortController().signal;
/** After the writes drained, how long a committed run may take to hand back its result. */
const COMMIT_SETTLE_MS = 50;
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A short description of a client value for a message; never walks a nested structure. */
/**
 * `sessionId` belongs to the envelope (`{action, params, sessionId}`), next to `action`; inside the
 * action's `params` nothing reads it, so the run would go ahead unbound — under the backend's own,
 * possibly wider, preset — while the client believes it bound a session. Refused instead.
 * @param params the action's params as received
 * @throws ActionError `LSP_ACTION_INVALID_ARGS` naming the field
 */
function refuseMisplacedSessionId(params: unknown): void {
  if (typeof params === 'object' && params !== null && !Array.isArray(params) && Object.hasOwn(params, 'sessionId')) {
    throw new ActionError(
      'LSP_ACTION_INVALID_ARGS',
      'params.sessionId is not an action parameter: send sessionId next to action in the lsp.actions.run params ({ action, params, sessionId }) to bind the run to that session',
    );
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}



/** A best-effort probe: its value, or undefined when it fails or the run is aborted first. */
function settleQuietly<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return raceAbort(work, signal).catch(() => undefined);
}

