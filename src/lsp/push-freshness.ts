/**
 * Deciding whether pushed diagnostics (`textDocument/publishDiagnostics`) describe a given
 * document version — pure, clock passed in. See docs/decisions/0001-diagnostics-freshness.md.
 *
 * - A publish carrying `version` is attributed to that version.
 * - Without `version`, it is attributed to the version last sent before it arrived — except
 *   a publish arriving within `inFlightGuardMs` of a didChange while the previous version's
 *   result had not settled: that one was most likely computed for the previous version.
 * - A result is settled once no further publish came for `settleMs` (twice that for an empty
 *   list: typescript-language-server publishes its syntax-only list — often `[]` — first and
 *   the semantic list 50–160 ms later) and the server reports no work-done progress.
 * - Ordering barrier (docs/decisions/0020-push-ordering-barrier.md): when the server answers a
 *   request on its analysis thread (`textDocument/foldingRange` or `documentSymbol`), a result
 *   is final only once such a request, sent after the result arrived, has been answered and
 *   `settleMs` more passed without a publish. A server that publishes an interim list (an empty
 *   syntax-only list) and then analyses for seconds answers that request only after the
 *   analysis, and publishes the rest before — so no amount of machine load turns the interim
 *   list into a verdict. Quiet timing alone is the rule only for servers without such a request.
 * - A server that stays silent after a change (typescript-language-server skips publishing
 *   when every list stays empty) is nudged once after `silenceMs` by reopening the document;
 *   unversioned publishes are ignored until a request sent after the reopen is answered (a
 *   server handles messages in order, so anything before that answer is about the closed copy).
 */

/** The last publish for one document. */
export interface PushRecord<T> {
  /** Version the publish is attributed to. */
  version: number;
  /** Whether the server said the version itself. */
  explicit: boolean;
  receivedAt: number;
  items: T[];
}

/** What {@link PushDocState.evaluate} concluded. */
export type PushVerdict<T> =
  | { kind: 'fresh'; record: PushRecord<T> }
  /**
   * A publish for this version exists but may still be followed by another; re-check at `at`.
   * `barrier`: `send` — send an ordering barrier now; `await` — one is in flight (`at` is
   * then `Infinity`: re-check when it is answered).
   */
  | { kind: 'settling'; record: PushRecord<T>; at: number; barrier?: 'send' | 'await' }
  /** Nothing for this version yet; `older` is the latest result for an earlier version. */
  | { kind: 'waiting'; older?: PushRecord<T>; silentSince: number };

/** Timing parameters (ms). */
export interface PushTiming {
  settleMs: number;
  inFlightGuardMs: number;
}

/** Push bookkeeping for one (server, document). */
export class PushDocState<T> {
  /** Version last sent to the server (didOpen/didChange). */
  sentVersion = 0;
  /** When it was sent. */
  sentAt = 0;
  /** Latest publish. */
  last: PushRecord<T> | undefined;
  private previousUnsettledAtSend = false;
  private firstAfterSend: number | undefined;
  private sends = 0;
  /** Set by a nudge until the server answered a request sent after the reopen. */
  private muted = false;
  /** The latest ordering barrier: when it was sent and, once answered, when. */
  private barrier: { id: number; sentAt: number; answeredAt?: number } | undefined;
  private barrierIds = 0;

  /**
   * @param version the version just sent
   * @param at when (ms)
   * @param timing settle parameters, to know whether the previous result had settled
   * @param busy whether the server reports progress
   */
  noteSent(version: number, at: number, timing: PushTiming, busy: boolean): void {
    const before = this.evaluate(this.sentVersion, at, timing, busy);
    this.previousUnsettledAtSend = this.sentVersion > 0 && before.kind !== 'fresh';
    this.sentVersion = version;
    this.sentAt = at;
    this.firstAfterSend = undefined;
    this.sends++;
    this.barrier = undefined;
  }

  /**
   * An ordering barrier was sent (after the verdict said `barrier: 'send'`).
   * @param at when (ms)
   * @returns its id, for {@link noteBarrierAnswered}
   */
  noteBarrierSent(at: number): number {
    this.barrier = { id: ++this.barrierIds, sentAt: at };
    return this.barrier.id;
  }

  /**
   * The server answered a barrier (a result or an error: either way, in order). An answer to
   * a superseded barrier is ignored.
   * @param id from {@link noteBarrierSent}
   * @param at when (ms)
   */
  noteBarrierAnswered(id: number, at: number): void {
    if (this.barrier?.id === id && this.barrier.answeredAt === undefined) this.barrier.answeredAt = at;
  }

  /**
   * A nudge closed and reopened the document with the same version. Until a request sent
   * after the reopen is answered ({@link barrierPassed}), unversioned publishes may belong to
   * the closed copy (a clear-on-close `[]`, or a result computed before the close) and are
   * ignored; versioned ones still count for their version.
   */
  noteReopened(): void {
    this.muted = true;
  }

  /** The server answered a request sent after the reopen: its publishes are for the new copy. */
  barrierPassed(): void {
    this.muted = false;
  }

  /**
   * @param items the normalised diagnostics
   * @param explicitVersion the publish's `version`, when present
   * @param at when it arrived (ms)
   * @param timing settle parameters
   * @returns the record (none when ignored after a reopen), and the latency since the
   *   didChange when this was the first, unambiguous publish for it
   */
  notePublish(items: T[], explicitVersion: number | undefined, at: number, timing: PushTiming): { record?: PushRecord<T>; latency?: number } {
    if (this.muted && explicitVersion === undefined) return {};
    let version = explicitVersion ?? this.sentVersion;
    if (explicitVersion === undefined && this.previousUnsettledAtSend && at - this.sentAt < timing.inFlightGuardMs && this.last !== undefined) {
      version = Math.min(this.last.version, this.sentVersion);
    }
    const record: PushRecord<T> = { version, explicit: explicitVersion !== undefined, receivedAt: at, items };
    let latency: number | undefined;
    if (version === this.sentVersion && this.firstAfterSend === undefined) {
      this.firstAfterSend = at;
      // only didChange latencies: a didOpen on a cold server measures its startup instead
      if (!this.previousUnsettledAtSend && this.sends > 1) latency = at - this.sentAt;
    }
    if (this.last === undefined || version >= this.last.version) this.last = record;
    return latency === undefined ? { record } : { record, latency };
  }

  /**
   * @param version the version asked about
   * @param now current time (ms)
   * @param timing settle parameters
   * @param busy whether the server reports work-done progress
   * @param ordered whether the server has a barrier request (then a result needs one answered after it)
   * @returns the verdict
   */
  evaluate(version: number, now: number, timing: PushTiming, busy: boolean, ordered = false): PushVerdict<T> {
    const last = this.last;
    if (last === undefined || last.version < version) {
      const older = last !== undefined && last.version < version ? last : undefined;
      const silentSince = Math.max(this.sentAt, last?.receivedAt ?? 0);
      return older === undefined ? { kind: 'waiting', silentSince } : { kind: 'waiting', older, silentSince };
    }
    if (last.version > version) return { kind: 'fresh', record: last };
    const quiet = last.items.length === 0 ? timing.settleMs * 2 : timing.settleMs;
    let at = last.receivedAt + quiet;
    if (ordered) {
      const barrier = this.barrier;
      if (barrier === undefined || barrier.sentAt < last.receivedAt) return { kind: 'settling', record: last, at: now, barrier: 'send' };
      if (barrier.answeredAt === undefined) return { kind: 'settling', record: last, at: Number.POSITIVE_INFINITY, barrier: 'await' };
      at = Math.max(at, barrier.answeredAt + timing.settleMs);
    }
    if (now >= at && !busy) return { kind: 'fresh', record: last };
    return { kind: 'settling', record: last, at: Math.max(at, now) };
  }

  /** Forgets everything (document closed or reopened). */
  reset(): void {
    this.last = undefined;
    this.previousUnsettledAtSend = false;
    this.firstAfterSend = undefined;
    this.muted = false;
    this.barrier = undefined;
  }
}

/**
 * Per-server timing learned from unambiguous publishes (first publish after a didChange sent
 * while nothing was in flight), so silence can be told apart from a slow server.
 */
export class PushLatency {
  private readonly samples: number[] = [];

  /** @param latency ms from didChange to the first publish for it */
  add(latency: number): void {
    this.samples.push(latency);
    if (this.samples.length > 8) this.samples.shift();
  }

  /** @returns the largest recent latency, or `undefined` before any sample */
  get max(): number | undefined {
    return this.samples.length === 0 ? undefined : Math.max(...this.samples);
  }

  /**
   * @param settleMs the configured settle time
   * @returns how long a server may stay silent after a change before we nudge it
   */
  silenceMs(settleMs: number): number {
    const learned = this.max;
    return Math.max(settleMs * 2, learned === undefined ? settleMs * 4 : learned * 2);
  }
}
