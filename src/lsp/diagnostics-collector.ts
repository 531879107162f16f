/**
 * Diagnostics of one server process, with freshness, by the strategy
 * {@link chooseDiagnosticsStrategy} picks: pull (`textDocument/diagnostic`, result ids,
 * `unchanged` reports, re-pull on refresh) whenever the server offers it — statically or
 * through a registration that may arrive after `initialized` —, tsserver request passthrough
 * when the server forwards requests to tsserver, and push otherwise, judged by
 * {@link PushDocState}. A cold or busy server never yields a false "no problems"; a change to
 * another file the server sees ({@link DiagnosticsCollector.noteDependencyChange}) makes every
 * held result ask again, and a change noticed while a request is in flight makes its answer
 * `pending`.
 */
import { Emitter } from 'vscode-jsonrpc';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { createPositionMapper } from '../documents/position-mapping.ts';
import { TextLines } from '../documents/position-encoding.ts';
import { tsserverEndOfText } from '../documents/tsserver-end-of-text.ts';
import { abortError, isActionError, type ActionError } from '../errors.ts';
import { chooseDiagnosticsStrategy, deliveryMode, type DiagnosticsStrategy } from './diagnostics-strategy.ts';
import type { EngineDiagnostic, Freshness, Range, ServerDiagnostics } from './engine-types.ts';
import type { EngineLog } from './json-rpc-connection.ts';
import type { LanguageClient } from './language-client.ts';
import { uriToPath } from './normalize-common.ts';
import { normalizeDiagnostics, overlappingDiagnostics, serverDiagnostics } from './normalize-diagnostics.ts';
import { PullCoordinator, type PullDoc } from './pull-diagnostics.ts';
import { peerCode } from './request-errors.ts';
import { PushDocState, PushLatency, type PushRecord, type PushTiming, type PushVerdict } from './push-freshness.ts';
import { offersTsserverRequest, requestTsserverDiagnostics } from './tsserver-diagnostics.ts';
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
  /** Latest passthrough answer, for the version and dependency epoch it was asked at. */
  passthrough?: { version: number; epoch: number; items: EngineDiagnostic[] };
  /** When another file the server sees last changed (silence before a nudge counts from it). */
  dependencyChangedAt?: number;
}

/** What one passthrough attempt came to. */
type PassthroughOutcome = { kind: 'answer'; result: ServerDiagnostics } | { kind: 'failed' };

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
  private readonly forcePush: boolean;
  private readonly noticed: () => number;
  /** Bumped on every change to another file the server sees. */
  private epoch = 0;
  private versionedPush = false;
  private passthroughFailureLogged = false;

  /**
   * @param client the server
   * @param deps document access, configured settle time, log, and a hook for unsolicited updates
   * @param deps.documents document store access
   * @param deps.settleMs `diagnosticsSettleMs` of the server entry
   * @param deps.waitMs budget for background re-pulls after a refresh (`diagnosticsWaitMs`)
   * @param deps.log log sink
   * @param deps.onUpdate called with a path whose diagnostics changed without being asked
   * @param deps.forcePush use push even when the server offers something better (comparisons)
   * @param deps.noticed a counter the engine bumps whenever it notices a file change anywhere;
   *   a change noticed while a request is in flight makes its answer `pending`
   */
  constructor(
    client: LanguageClient,
    deps: {
      documents: CollectorDocuments;
      settleMs: number;
      waitMs: number;
      log: EngineLog;
      onUpdate: (path: string) => void;
      forcePush?: boolean;
      noticed?: () => number;
    },
  ) {
    this.client = client;
    this.forcePush = deps.forcePush ?? false;
    this.noticed = deps.noticed ?? (() => 0);
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

  /** @returns how diagnostics are obtained right now */
  get strategy(): DiagnosticsStrategy {
    return chooseDiagnosticsStrategy({
      pull: this.client.registry.pullDiagnostics,
      pullUnsupported: this.puller.unsupported,
      tsserver: offersTsserverRequest(this.client.registry),
      forcePush: this.forcePush,
      versionedPush: this.versionedPush,
    });
  }

  /** @returns whether diagnostics come by pull right now */
  get mode(): 'pull' | 'push' {
    return this.strategy === 'pull' ? 'pull' : 'push';
  }

  /**
   * Another file this server sees changed (and the server was told): every result held may
   * describe the old state of that file. Pulled results are asked again, passthrough answers
   * are not reused, and push results wait for a new publish (or a nudge after silence).
   */
  noteDependencyChange(): void {
    this.epoch++;
    this.puller.invalidate();
    const at = now();
    for (const doc of this.docs.values()) {
      doc.nudged = undefined;
      doc.dependencyChangedAt = at;
    }
    this.changed.fire();
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
    const raw = this.docs.get(path)?.raw ?? [];
    const text = offersTsserverRequest(this.client.registry) ? this.documents.serverText(this.client, path) : undefined;
    if (text === undefined) return overlappingDiagnostics(raw, range);
    // tsserver's end-of-text columns (tsserver-end-of-text.ts) compared where they point
    const lines = new TextLines(text);
    return overlappingDiagnostics(raw, range, (position) => tsserverEndOfText(lines, position));
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
    const noticedAtStart = this.noticed();
    let passthroughFailed = false;
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      if (this.client.failure !== undefined) throw this.client.failure;
      const doc = this.docs.get(path);
      if (doc === undefined) return this.build(version, 'pending', []);
      const t = now();
      let wakeAt = deadline;
      const strategy = passthroughFailed && this.strategy === 'tsserver' ? (this.versionedPush ? 'versioned-push' : 'push') : this.strategy;
      if (strategy === 'tsserver') {
        const held = doc.passthrough;
        if (held !== undefined && held.version === version && held.epoch === this.epoch) return this.build(version, 'fresh', held.items, version, undefined, strategy);
        if (waitMs > 0 && t < deadline) {
          const outcome = await this.passthrough(path, doc, version, deadline, noticedAtStart, signal);
          if (outcome.kind === 'answer') return outcome.result;
          passthroughFailed = true;
          continue;
        }
        // waitMs 0 (events) or no budget left: answer from what pushes told us
        const verdict = this.verdict(doc, version, t);
        if (verdict.kind === 'fresh') return this.fromRecord(version, 'fresh', verdict.record, 'push');
        return this.timedOut(doc, version, 'push');
      }
      if (strategy === 'pull') {
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
            if (this.noticed() !== noticedAtStart && doc.pull?.version === version && !doc.pull.dirty) {
              // a file changed while the pull was in flight: its answer may predate the change
              return this.build(version, 'pending', doc.pull.items, version);
            }
            continue;
          }
        }
      } else {
        const verdict = this.verdict(doc, version, t);
        if (verdict.kind === 'fresh') return this.fromRecord(version, 'fresh', verdict.record, strategy);
        if (verdict.kind === 'settling' && verdict.barrier === 'send') {
          this.sendBarrier(doc);
          continue;
        }
        if (verdict.kind === 'settling') wakeAt = Math.min(verdict.at, deadline);
        else if (!this.client.progress.busy && waitMs > 0) {
          // silence counts from the later of the change, the last change to another file the
          // server sees, and the end of the server's last progress: a server that just finished
          // loading is only now getting to the document
          const silentSince = Math.max(verdict.silentSince, this.client.progress.lastEndedAt ?? 0, doc.dependencyChangedAt ?? 0);
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
      if (t >= deadline) return this.timedOut(doc, version, strategy);
      await this.waitForChange(wakeAt, signal);
    }
  }

  /**
   * One passthrough: tsserver's three diagnostics kinds for the version just sent.
   * @returns the answer (`fresh`, or `pending` when the budget ran out or a change was noticed
   *   meanwhile), or `failed` (the caller falls back to push for this call)
   */
  private async passthrough(
    path: string,
    doc: DocDiagnostics,
    version: number,
    deadline: number,
    noticedAtStart: number,
    signal?: AbortSignal,
  ): Promise<PassthroughOutcome> {
    const epoch = this.epoch;
    const budget = AbortSignal.timeout(Math.max(1, Math.ceil(deadline - now())));
    let raw: unknown[];
    try {
      raw = await requestTsserverDiagnostics(this.client, path, { signal: signal === undefined ? budget : AbortSignal.any([signal, budget]) });
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (budget.aborted) return { kind: 'answer', result: this.build(version, 'pending', [], undefined, undefined, 'tsserver') };
      if (this.client.failure !== undefined) throw this.client.failure;
      if (!this.passthroughFailureLogged) {
        this.passthroughFailureLogged = true;
        this.log('warn', `${this.client.serverId}: tsserver diagnostics passthrough failed, using pushed diagnostics instead: ${(error as Error).message}`);
      }
      return { kind: 'failed' };
    }
    let items: EngineDiagnostic[];
    try {
      items = normalizeDiagnostics(this.normalizeContext(path), raw, path, 'tsserver diagnostics');
    } catch (error) {
      this.log('warn', `${this.client.serverId}: ${(error as Error).message}`);
      return { kind: 'failed' };
    }
    const current = this.docs.get(path) === doc && doc.sentVersion === version;
    if (!current || this.epoch !== epoch || this.noticed() !== noticedAtStart) {
      // the document or another file changed while tsserver was answering
      return { kind: 'answer', result: this.build(version, 'pending', items, version, undefined, 'tsserver') };
    }
    doc.raw = raw;
    doc.passthrough = { version, epoch, items };
    return { kind: 'answer', result: this.build(version, 'fresh', items, version, undefined, 'tsserver') };
  }

  /**
   * Waits (bounded, no nudge) until the server's own pushed view of `path` caught up with
   * `version`, for a server on the `tsserver` strategy: typescript-language-server answers a
   * code action request while its own diagnostics for the document are pending by waiting
   * 500 ms and then using ITS pushed list instead of the context we send — so asking for quick
   * fixes right after a passthrough answer would get fixes for the previous text. Returns at
   * once for other strategies, when a publish for `version` settled, or after the silence a
   * push would be nudged after (a clean file stays silent).
   * @param path the document (synced to `version`)
   * @param version the version the server has
   * @param signal cancels the wait
   */
  async serverViewSettled(path: string, version: number, signal?: AbortSignal): Promise<void> {
    if (this.strategy !== 'tsserver') return;
    const silenceMs = this.latency.silenceMs(this.timing.settleMs);
    const deadline = now() + Math.min(silenceMs * 2, this.baseSettleMs * 10);
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      const doc = this.docs.get(path);
      if (doc === undefined || this.client.failure !== undefined) return;
      const t = now();
      const verdict = this.verdict(doc, version, t);
      if (verdict.kind === 'fresh' || t >= deadline) return;
      if (verdict.kind === 'settling' && verdict.barrier === 'send') {
        // A publish came after the last ordering barrier (typescript-language-server re-publishes
        // after a code action request, too): without a barrier answered after it, the verdict
        // can only run into the deadline — ~2.4 s on every quick-fix listing and apply.
        this.sendBarrier(doc);
        continue;
      }
      let wakeAt = deadline;
      if (verdict.kind === 'settling') wakeAt = Math.min(verdict.at, deadline);
      else {
        const quietUntil = Math.max(verdict.silentSince, doc.dependencyChangedAt ?? 0) + silenceMs;
        if (t >= quietUntil) return;
        wakeAt = Math.min(quietUntil, deadline);
      }
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
    const bound = AbortSignal.timeout(Math.ceil(Math.max(100, this.timing.settleMs * 2)));
    this.client.request(REOPEN_BARRIER, {}, bound).then(
      () => undefined,
      () => undefined, // MethodNotFound is the expected answer; a timeout or crash ends the mute too
    ).finally(() => {
      doc.push.barrierPassed();
      this.changed.fire();
    });
  }

  private timedOut(doc: DocDiagnostics, version: number, strategy: DiagnosticsStrategy): ServerDiagnostics {
    if (strategy === 'pull') {
      const pull = doc.pull;
      if (pull === undefined) return this.build(version, 'pending', [], undefined, undefined, strategy);
      if (pull.version === version) return this.build(version, pull.provisional || pull.dirty ? 'pending' : 'fresh', pull.items, pull.version, undefined, strategy);
      return this.build(version, 'stale', pull.items, pull.version, undefined, strategy);
    }
    const verdict = this.verdict(doc, version, now());
    if (verdict.kind === 'fresh') return this.fromRecord(version, 'fresh', verdict.record, strategy);
    if (verdict.kind === 'settling') return this.fromRecord(version, 'pending', verdict.record, strategy);
    return verdict.older === undefined ? this.build(version, 'pending', [], undefined, undefined, strategy) : this.fromRecord(version, 'stale', verdict.older, strategy);
  }

  /**
   * The push verdict, with publishes received before the last change to another file the
   * server sees counted as an older answer (they describe the old state of that file).
   */
  private verdict(doc: DocDiagnostics, version: number, t: number): PushVerdict<EngineDiagnostic> {
    const verdict = doc.push.evaluate(version, t, this.timing, this.client.progress.busy, this.barrierMethod !== undefined);
    const changedAt = doc.dependencyChangedAt;
    if (changedAt === undefined || verdict.kind === 'waiting' || verdict.record.receivedAt >= changedAt) return verdict;
    return { kind: 'waiting', older: verdict.record, silentSince: Math.max(changedAt, doc.push.sentAt) };
  }

  private fromRecord(version: number, state: Freshness, record: PushRecord<EngineDiagnostic>, strategy: DiagnosticsStrategy): ServerDiagnostics {
    return this.build(version, state, record.items, record.version, undefined, strategy);
  }

  private build(
    version: number,
    state: Freshness,
    items: EngineDiagnostic[],
    analysedVersion?: number,
    error?: ActionError,
    strategy: DiagnosticsStrategy = this.strategy,
  ): ServerDiagnostics {
    return serverDiagnostics({ serverId: this.client.serverId, mode: deliveryMode(strategy), strategy, state, version, items, analysedVersion, error });
  }

  private normalizeContext(path: string): { serverId: string; mapper: ReturnType<typeof createPositionMapper> } {
    return {
      serverId: this.client.serverId,
      mapper: createPositionMapper(this.client.encoding, (p) => (p === path ? this.documents.serverText(this.client, p) : undefined), {
        tsserver: offersTsserverRequest(this.client.registry),
      }),
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
    if (explicit !== undefined) this.versionedPush = true;
    const { record, latency } = doc.push.notePublish(items, explicit, now(), this.timing);
    if (record === undefined) return;
    // a passthrough answer for the version the server has is the better code-action context
    // (a late publish may still be about the previous version)
    const answered = doc.passthrough !== undefined && doc.passthrough.version === doc.sentVersion && doc.passthrough.epoch === this.epoch;
    if (!answered) doc.raw = Array.isArray(params.diagnostics) ? params.diagnostics : [];
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
