/**
 * Diagnostics of one server process, with freshness: pull (`textDocument/diagnostic`, result
 * ids, `unchanged` reports, re-pull on refresh) whenever the server offers it — statically or
 * through a registration that may arrive after `initialized` — and push otherwise, judged by
 * {@link PushDocState}. A cold or busy server never yields a false "no problems".
 */
import { Emitter, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { createPositionMapper } from '../documents/position-mapping.ts';
import { abortError, isActionError, type ActionError } from '../errors.ts';
import type { EngineDiagnostic, Freshness, Range, ServerDiagnostics } from './engine-types.ts';
import type { EngineLog } from './json-rpc-connection.ts';
import type { LanguageClient } from './language-client.ts';
import { uriToPath } from './normalize-common.ts';
import { normalizeDiagnostics, overlappingDiagnostics, serverDiagnostics } from './normalize-diagnostics.ts';
import { PullCoordinator, type PullDoc } from './pull-diagnostics.ts';
import { peerCode } from './request-errors.ts';
import { PushDocState, PushLatency, type PushRecord, type PushTiming } from './push-freshness.ts';
import { waitForEvent } from './wait-for-event.ts';

/** What the collector needs from the document store. */
export interface CollectorDocuments {
  /** Text the server currently has for `path` (positions refer to it). */
  serverText(client: LanguageClient, path: string): string | undefined;
  /** Close and reopen `path` on the server with the same text and version (a nudge). */
  reopen(client: LanguageClient, path: string): boolean;
}

interface DocDiagnostics extends PullDoc {
  push: PushDocState<EngineDiagnostic>;
  nudged?: number;
}

const now = (): number => performance.now();
/** Request used as an ordering barrier after a reopen. */
const REOPEN_BARRIER = '$/dshLspActions/barrier';

/** Diagnostics bookkeeping for one {@link LanguageClient}. */
export class DiagnosticsCollector {
  private readonly client: LanguageClient;
  private readonly documents: CollectorDocuments;
  private readonly baseSettleMs: number;
  private readonly log: EngineLog;
  private readonly docs = new Map<string, DocDiagnostics>();
  private readonly changed = new Emitter<void>();
  private readonly latency = new PushLatency();
  private readonly onUpdate: (path: string) => void;
  private burstGap = 0;
  private readonly puller: PullCoordinator;

  /**
   * @param client the server
   * @param deps document access, configured settle time, log, and a hook for unsolicited updates
   * @param deps.documents document store access
   * @param deps.settleMs `diagnosticsSettleMs` of the server entry
   * @param deps.waitMs budget for background re-pulls after a refresh (`diagnosticsWaitMs`)
   * @param deps.log log sink
   * @param deps.onUpdate called with a path whose diagnostics changed without being asked
   */
  constructor(
    client: LanguageClient,
    deps: { documents: CollectorDocuments; settleMs: number; waitMs: number; log: EngineLog; onUpdate: (path: string) => void },
  ) {
    this.client = client;
    this.documents = deps.documents;
    this.baseSettleMs = deps.settleMs;
    this.log = deps.log;
    this.onUpdate = deps.onUpdate;
    client.onPublishDiagnostics((params) => this.onPublish(params));
    this.puller = new PullCoordinator(client, {
      docs: () => this.docs,
      get: (path) => this.docs.get(path),
      normalize: (path, items) => {
        try {
          return normalizeDiagnostics(this.normalizeContext(path), items, path, 'diagnostic report items');
        } catch (error) {
          if (!isActionError(error)) throw error;
          this.log('warn', error.message);
          return [];
        }
      },
      settleMs: () => this.timing.settleMs,
      baseSettleMs: deps.settleMs,
      refreshWaitMs: deps.waitMs,
      onUpdate: deps.onUpdate,
      onRefresh: () => this.changed.fire(),
      log: (m) => this.log('debug', `${client.serverId}: ${m}`),
    });
    client.registry.onDidChange(() => this.changed.fire());
    client.progress.onDidChange(() => this.changed.fire());
  }

  /** @returns current settle parameters (configured, stretched by observed publish bursts) */
  get timing(): PushTiming {
    const settleMs = Math.max(this.baseSettleMs, Math.min(this.burstGap * 2, this.baseSettleMs * 4));
    return { settleMs, inFlightGuardMs: this.baseSettleMs / 2 };
  }

  /** @returns whether diagnostics come by pull right now */
  get mode(): 'pull' | 'push' {
    return this.client.registry.pullDiagnostics && !this.puller.unsupported ? 'pull' : 'push';
  }

  /**
   * @param path absolute path
   * @param uri its URI as sent
   * @param version the version just sent (didOpen/didChange)
   */
  noteSent(path: string, uri: string, version: number): void {
    let doc = this.docs.get(path);
    if (doc === undefined) {
      const push = new PushDocState<EngineDiagnostic>();
      doc = {
        uri,
        raw: [],
        push,
        get sentVersion() {
          return push.sentVersion;
        },
      };
      this.docs.set(path, doc);
    }
    doc.push.noteSent(version, now(), this.timing, this.client.progress.busy);
    this.changed.fire();
  }

  /** @param path a document the store closed on this server */
  noteClosed(path: string): void {
    this.docs.delete(path);
  }

  /**
   * @param path a document
   * @param range a range in the server's encoding
   * @returns the server's own latest Diagnostic objects overlapping `range` (code action context)
   */
  contextDiagnostics(path: string, range: Range): unknown[] {
    return overlappingDiagnostics(this.docs.get(path)?.raw ?? [], range);
  }

  /**
   * Waits (up to `waitMs`) for diagnostics of `version` and says how fresh they are.
   * @param path absolute path (synced to `version` already)
   * @param version the version asked about
   * @param waitMs budget; 0 answers from what is known now, without asking
   * @param signal cancels the wait
   * @returns this server's diagnostics with freshness
   */
  async collect(path: string, version: number, waitMs: number, signal?: AbortSignal): Promise<ServerDiagnostics> {
    const deadline = now() + waitMs;
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      if (this.client.failure !== undefined) throw this.client.failure;
      const doc = this.docs.get(path);
      if (doc === undefined) return this.build(version, 'pending', []);
      const t = now();
      let wakeAt = deadline;
      if (this.mode === 'pull') {
        const pull = doc.pull;
        const usable = pull !== undefined && pull.version === version && !pull.dirty;
        if (usable && !pull.provisional) return this.build(version, 'fresh', pull.items, pull.version);
        let pullNow = t < deadline;
        if (usable && pull.provisional) {
          // an empty answer from a loading or just-started server: wait for its progress to
          // end (or a refresh), or for a quiet spell, then ask again
          if (this.client.progress.busy) pullNow = false;
          else if (t < pull.recheckAt) {
            pullNow = false;
            wakeAt = Math.min(pull.recheckAt, deadline);
          }
        }
        if (pullNow) {
          if (doc.retryAt !== undefined && t < doc.retryAt) {
            wakeAt = Math.min(doc.retryAt, deadline);
          } else {
            const error = await this.puller.pull(path, doc, version, deadline, signal);
            if (error !== undefined) return this.build(version, doc.pull?.version === version ? 'stale' : 'pending', [], undefined, error);
            continue;
          }
        }
      } else {
        const verdict = doc.push.evaluate(version, t, this.timing, this.client.progress.busy, this.barrierMethod !== undefined);
        if (verdict.kind === 'fresh') return this.fromRecord(version, 'fresh', verdict.record);
        if (verdict.kind === 'settling' && verdict.barrier === 'send') {
          this.sendBarrier(doc);
          continue;
        }
        if (verdict.kind === 'settling') wakeAt = Math.min(verdict.at, deadline);
        else if (!this.client.progress.busy && waitMs > 0) {
          // silence counts from the later of the change and the end of the server's last
          // progress: a server that just finished loading is only now getting to the document
          const silentSince = Math.max(verdict.silentSince, this.client.progress.lastEndedAt ?? 0);
          const nudgeAt = silentSince + this.latency.silenceMs(this.timing.settleMs);
          if (t >= nudgeAt && doc.nudged !== version) {
            doc.nudged = version;
            this.log('debug', `${this.client.serverId}: no diagnostics pushed for ${path} v${version}; reopening it to ask again`);
            if (this.documents.reopen(this.client, path)) this.afterReopen(doc);
            continue;
          }
          wakeAt = Math.min(nudgeAt, deadline);
        }
      }
      if (t >= deadline) return this.timedOut(doc, version);
      await this.waitForChange(wakeAt, signal);
    }
  }

  /**
   * The request used as an ordering barrier through the server's analysis thread (see
   * {@link PushDocState}): folding ranges (cheap, never cached per version by
   * typescript-language-server), else document symbols; none when the server offers neither.
   */
  private get barrierMethod(): string | undefined {
    if (this.client.registry.has('textDocument/foldingRange')) return 'textDocument/foldingRange';
    if (this.client.registry.has('textDocument/documentSymbol')) return 'textDocument/documentSymbol';
    return undefined;
  }

  /**
   * Sends an ordering barrier for a document's latest publish. Any answer — a result or an
   * error response — counts (the server handled it in order); a transport failure or the
   * document going away does not (the result then stays unsettled, never fresh by default).
   */
  private sendBarrier(doc: DocDiagnostics): void {
    const method = this.barrierMethod;
    if (method === undefined) return;
    const id = doc.push.noteBarrierSent(now());
    const answered = (): void => {
      doc.push.noteBarrierAnswered(id, now());
      this.changed.fire();
    };
    this.client.request(method, { textDocument: { uri: doc.uri } }).then(answered, (error: unknown) => {
      if (peerCode(error) !== undefined) answered();
      else this.log('debug', `${this.client.serverId}: ordering barrier for ${doc.uri} failed: ${String(error)}`);
    });
  }

  /**
   * Mutes unversioned publishes of a reopened document until the server answered a request
   * sent after the reopen — a `$/` request, which LSP says must be answered MethodNotFound.
   */
  private afterReopen(doc: DocDiagnostics): void {
    doc.push.noteReopened();
    const bound = AbortSignal.timeout(Math.max(100, Math.ceil(this.timing.settleMs * 2)));
    this.client.request(REOPEN_BARRIER, {}, bound).then(
      () => undefined,
      () => undefined, // MethodNotFound is the expected answer; a timeout or crash ends the mute too
    ).finally(() => {
      doc.push.barrierPassed();
      this.changed.fire();
    });
  }

  private timedOut(doc: DocDiagnostics, version: number): ServerDiagnostics {
    if (this.mode === 'pull') {
      const pull = doc.pull;
      if (pull === undefined) return this.build(version, 'pending', []);
      if (pull.version === version) return this.build(version, pull.provisional || pull.dirty ? 'pending' : 'fresh', pull.items, pull.version);
      return this.build(version, 'stale', pull.items, pull.version);
    }
    const verdict = doc.push.evaluate(version, now(), this.timing, this.client.progress.busy, this.barrierMethod !== undefined);
    if (verdict.kind === 'fresh') return this.fromRecord(version, 'fresh', verdict.record);
    if (verdict.kind === 'settling') return this.fromRecord(version, 'pending', verdict.record);
    return verdict.older === undefined ? this.build(version, 'pending', []) : this.fromRecord(version, 'stale', verdict.older);
  }

  private fromRecord(version: number, state: Freshness, record: PushRecord<EngineDiagnostic>): ServerDiagnostics {
    return this.build(version, state, record.items, record.version);
  }

  private build(version: number, state: Freshness, items: EngineDiagnostic[], analysedVersion?: number, error?: ActionError): ServerDiagnostics {
    return serverDiagnostics({ serverId: this.client.serverId, mode: this.mode, state, version, items, analysedVersion, error });
  }

  private normalizeContext(path: string): { serverId: string; mapper: ReturnType<typeof createPositionMapper> } {
    return {
      serverId: this.client.serverId,
      mapper: createPositionMapper(this.client.encoding, (p) => (p === path ? this.documents.serverText(this.client, p) : undefined)),
    };
  }

  private onPublish(params: PublishDiagnosticsParams): void {
    const path = uriToPath(params?.uri);
    const doc = path === undefined ? undefined : this.docs.get(path);
    if (path === undefined || doc === undefined) return;
    let items: EngineDiagnostic[];
    try {
      items = normalizeDiagnostics(this.normalizeContext(path), params.diagnostics, path, 'publishDiagnostics');
    } catch (error) {
      this.log('warn', `${this.client.serverId}: ignoring publishDiagnostics for ${path}: ${(error as Error).message}`);
      return;
    }
    const before = doc.push.last;
    const explicit = typeof params.version === 'number' ? params.version : undefined;
    const { record, latency } = doc.push.notePublish(items, explicit, now(), this.timing);
    if (record === undefined) return;
    doc.raw = Array.isArray(params.diagnostics) ? params.diagnostics : [];
    if (latency !== undefined) this.latency.add(latency);
    if (before !== undefined && before.version === record.version && before.items.length !== items.length) {
      this.burstGap = Math.max(this.burstGap, record.receivedAt - before.receivedAt);
    }
    this.changed.fire();
    this.onUpdate(path);
  }

  private waitForChange(until: number, signal?: AbortSignal): Promise<void> {
    return waitForEvent([this.changed.event, this.client.onDidFail], until, signal);
  }
}
