/**
 * One `textDocument/diagnostic` pull: params with `identifier` and `previousResultId`,
 * `full` and `unchanged` reports, and the server's ways of saying "ask again" (ServerCancelled
 * with `retriggerRequest`, ContentModified) or "I don't do that" (MethodNotFound).
 */
import { abortError, isActionError, type ActionError } from '../errors.ts';
import type { EngineDiagnostic } from './engine-types.ts';
import type { LanguageClient } from './language-client.ts';
import { isObject } from './normalize-common.ts';
import { RPC_CODES, peerCode } from './request-errors.ts';

/** A pulled result for one document version. */
export interface PullResult {
  version: number;
  items: EngineDiagnostic[];
  /** The server's own Diagnostic objects (code action context). */
  raw: unknown[];
  resultId?: string;
  /** A refresh arrived since: ask again before trusting it. */
  dirty: boolean;
  /** Empty while the server was loading or had just started: not trusted yet. */
  provisional: boolean;
  /** When a provisional result may be re-checked. */
  recheckAt: number;
}

/** What one pull came to. */
export type PullOutcome =
  | { kind: 'report'; items: EngineDiagnostic[]; raw: unknown[]; resultId?: string }
  /** `unchanged` without a matching previous result: ask again without `previousResultId`. */
  | { kind: 'reset' }
  | { kind: 'retry' }
  | { kind: 'unsupported' }
  /** The wait budget ran out first. */
  | { kind: 'expired' }
  | { kind: 'error'; error: ActionError };

/**
 * @param client the server
 * @param request what to pull
 * @param request.uri the document URI
 * @param request.previous the last result for this document, if any
 * @param request.deadline `performance.now()` time the pull must finish by
 * @param request.signal the caller's cancellation (rethrown as CANCELLED/TIMEOUT)
 * @param request.normalize turns the report's items into engine diagnostics (throws on malformed)
 * @returns the outcome
 */
export async function pullDiagnostics(
  client: LanguageClient,
  request: {
    uri: string;
    previous: PullResult | undefined;
    deadline: number;
    signal?: AbortSignal | undefined;
    normalize: (items: unknown) => EngineDiagnostic[];
  },
): Promise<PullOutcome> {
  const { previous, signal } = request;
  const budget = AbortSignal.timeout(Math.max(1, Math.ceil(request.deadline - performance.now())));
  const combined = signal === undefined ? budget : AbortSignal.any([signal, budget]);
  const params: Record<string, unknown> = { textDocument: { uri: request.uri } };
  const identifier = client.registry.pullIdentifier;
  if (identifier !== undefined) params.identifier = identifier;
  if (previous?.resultId !== undefined) params.previousResultId = previous.resultId;
  let report: unknown;
  try {
    report = await client.request('textDocument/diagnostic', params, combined);
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    if (budget.aborted) return { kind: 'expired' };
    if (!isActionError(error)) throw error;
    const code = peerCode(error);
    const data = error.details.peer?.data;
    const retrigger = !(isObject(data) && data.retriggerRequest === false);
    if ((code === RPC_CODES.ServerCancelled && retrigger) || code === RPC_CODES.ContentModified || code === RPC_CODES.RequestCancelled) return { kind: 'retry' };
    if (code === RPC_CODES.MethodNotFound) return { kind: 'unsupported' };
    return { kind: 'error', error };
  }
  if (!isObject(report)) return { kind: 'report', items: [], raw: [] };
  const resultId = typeof report.resultId === 'string' ? report.resultId : undefined;
  if (report.kind === 'unchanged') {
    if (previous === undefined || previous.resultId !== resultId) return { kind: 'reset' };
    return resultId === undefined ? { kind: 'report', items: previous.items, raw: previous.raw } : { kind: 'report', items: previous.items, raw: previous.raw, resultId };
  }
  const raw = Array.isArray(report.items) ? report.items : [];
  const items = request.normalize(raw);
  return resultId === undefined ? { kind: 'report', items, raw } : { kind: 'report', items, raw, resultId };
}

/** Per-document pull bookkeeping the coordinator keeps up to date. */
export interface PullDoc {
  uri: string;
  /** The server's own Diagnostic objects of its latest result. */
  raw: unknown[];
  pull?: PullResult;
  pulling?: { version: number; promise: Promise<ActionError | undefined> };
  retryAt?: number;
  /** Version last sent to the server. */
  readonly sentVersion: number;
}

/** Pulls for one server: one request per (document, version) at a time, refresh handling. */
export class PullCoordinator {
  /** The server answered MethodNotFound: diagnostics fall back to push. */
  unsupported = false;
  private readonly client: LanguageClient;
  private readonly deps: {
    docs: () => Iterable<[string, PullDoc]>;
    get: (path: string) => PullDoc | undefined;
    normalize: (path: string, items: unknown) => EngineDiagnostic[];
    settleMs: () => number;
    baseSettleMs: number;
    refreshWaitMs: number;
    onUpdate: (path: string) => void;
    onRefresh: () => void;
    log: (message: string) => void;
  };
  private readonly readyAt = performance.now();
  private generation = 0;
  private repulling: { again: boolean } | undefined;

  /**
   * @param client the server
   * @param deps document access, normaliser, timing, hooks
   */
  constructor(client: LanguageClient, deps: PullCoordinator['deps']) {
    this.client = client;
    this.deps = deps;
    client.onRefresh(() => this.onRefresh());
  }

  /**
   * Pulls `path` for `version` (joining a pull already running for it).
   * @param path the document
   * @param doc its bookkeeping
   * @param version the version the server has
   * @param deadline `performance.now()` time to give up at
   * @param signal the caller's cancellation
   * @returns an error to report for this server when the pull failed for good
   */
  pull(path: string, doc: PullDoc, version: number, deadline: number, signal?: AbortSignal): Promise<ActionError | undefined> {
    if (doc.pulling !== undefined && doc.pulling.version === version) return doc.pulling.promise;
    const promise = this.pullNow(path, doc, version, deadline, signal).finally(() => {
      if (doc.pulling?.promise === promise) doc.pulling = undefined;
    });
    doc.pulling = { version, promise };
    return promise;
  }

  private async pullNow(path: string, doc: PullDoc, version: number, deadline: number, signal?: AbortSignal): Promise<ActionError | undefined> {
    const generation = this.generation;
    doc.retryAt = undefined;
    const outcome = await pullDiagnostics(this.client, { uri: doc.uri, previous: doc.pull, deadline, signal, normalize: (items) => this.deps.normalize(path, items) });
    if (this.deps.get(path) !== doc) return undefined;
    switch (outcome.kind) {
      case 'error':
        return outcome.error;
      case 'unsupported':
        this.unsupported = true;
        return undefined;
      case 'retry':
        doc.retryAt = performance.now() + Math.max(20, this.deps.baseSettleMs / 3);
        return undefined;
      case 'reset':
        doc.pull = undefined;
        return undefined;
      case 'expired':
        return undefined;
      case 'report': {
        const now = performance.now();
        const warming = now - this.readyAt < this.deps.baseSettleMs * 4;
        doc.raw = outcome.raw;
        doc.pull = {
          version,
          items: outcome.items,
          raw: outcome.raw,
          dirty: generation !== this.generation,
          provisional: outcome.items.length === 0 && (this.client.progress.busy || warming),
          recheckAt: now + this.deps.settleMs() * 2,
        };
        if (outcome.resultId !== undefined) doc.pull.resultId = outcome.resultId;
        return undefined;
      }
    }
  }

  /**
   * Another file the server sees changed: every held result may be out of date (a pull in
   * flight comes back dirty), so the next call asks again. No background re-pull.
   */
  invalidate(): void {
    this.generation++;
    for (const [, doc] of this.deps.docs()) if (doc.pull !== undefined) doc.pull.dirty = true;
  }

  private onRefresh(): void {
    this.generation++;
    for (const [, doc] of this.deps.docs()) if (doc.pull !== undefined) doc.pull.dirty = true;
    this.deps.onRefresh();
    void this.repullOpen();
  }

  /** Re-pulls every open document a refresh invalidated (for live views), coalescing refreshes. */
  private async repullOpen(): Promise<void> {
    if (this.repulling !== undefined) {
      this.repulling.again = true;
      return;
    }
    const round = { again: false };
    this.repulling = round;
    try {
      do {
        round.again = false;
        for (const [path, doc] of this.deps.docs()) {
          if (this.client.state !== 'ready' || doc.pull === undefined || !doc.pull.dirty) continue;
          await this.pull(path, doc, doc.sentVersion, performance.now() + this.deps.refreshWaitMs);
          this.deps.onUpdate(path);
        }
      } while (round.again);
    } catch (error) {
      // a crash or stop mid-refresh: the next diagnostics call reports it
      this.deps.log(`re-pull after refresh stopped: ${(error as Error).message}`);
    } finally {
      this.repulling = undefined;
    }
  }
}
