/**
 * Health of one language server, judged by the server's own behaviour — never by a caller's
 * impatience. A server can stay up while it no longer answers meaningfully (typescript-language-
 * server outlives a killed tsserver and then answers every request empty); and a server can be
 * slow, busy or loaded while perfectly alive. The client reports what it sees here; once a sign
 * is conclusive the server counts as failed (the pool then restarts it within its restart
 * budget, and calls in between fail with a code).
 *
 * Conclusive signs:
 * - a log line the server itself writes when its backend died (`window/logMessage` /
 *   `window/showMessage`): typescript-language-server's `[tsserver] Exited. Code: … Signal: …`
 *   and `tsserver process has exited`;
 * - a **probe** left unanswered: when a caller gives up on a request (its deadline — an editor's
 *   `waitMs: 1`, edit feedback's budget — or a cancellation), the client sends one cheap request
 *   of its own ({@link HealthProbe}) with its own generous deadline (`probeTimeoutMs`). Only when
 *   that probe gets no answer in time, and no other request was answered meanwhile, does the
 *   server count as hanging. One probe at a time; any answer (a result or an error) clears it;
 * - `maxConsecutiveNoProject` requests in a row answered with tsserver's `No Project` error
 *   (its project state is gone).
 * The process's exit and a broken or garbled stream are handled by the client itself.
 * See docs/decisions/0054-health-by-the-servers-behaviour.md.
 */
import { ActionError, isActionError } from '../errors.ts';

/** Log lines that mean the server's backend is gone. */
export const FATAL_LOG_PATTERNS: readonly RegExp[] = [
  /\[tsserver\] Exited\. Code: \S+\. Signal: \S+/,
  /tsserver process has exited/,
  /Exited with error\. Error message is:/,
];

/** Sends the client's probe request; resolves on any result, rejects with the request's ActionError. */
export type HealthProbe = (signal: AbortSignal) => Promise<unknown>;

/** Thresholds of {@link ServerHealth}. */
export interface HealthPolicy {
  fatalLogPatterns: readonly RegExp[];
  /** Requests in a row answered `No Project` before the server counts as lost. */
  maxConsecutiveNoProject: number;
  /** How long a probe may wait for its answer. */
  probeTimeoutMs: number;
}

/** The default policy. */
export const DEFAULT_HEALTH_POLICY: HealthPolicy = {
  fatalLogPatterns: FATAL_LOG_PATTERNS,
  maxConsecutiveNoProject: 3,
  probeTimeoutMs: 60_000,
};

/** Watches one client; calls `onUnhealthy` once, with the reason, when a sign is conclusive. */
export class ServerHealth {
  readonly #policy: HealthPolicy;
  readonly #onUnhealthy: (reason: string) => void;
  readonly #probe: HealthProbe | undefined;
  #noProject = 0;
  /** Answers seen so far (any request); a probe that times out with this unchanged is conclusive. */
  #answers = 0;
  #probing = false;
  #probes = 0;
  #reported = false;

  /**
   * @param onUnhealthy called once with a human-readable reason
   * @param probe sends the client's probe request (without one, a caller's give-up is no sign at all)
   * @param policy thresholds and patterns
   */
  constructor(onUnhealthy: (reason: string) => void, probe?: HealthProbe, policy: HealthPolicy = DEFAULT_HEALTH_POLICY) {
    this.#onUnhealthy = onUnhealthy;
    this.#probe = probe;
    this.#policy = policy;
  }

  /** @returns whether a conclusive sign was seen */
  get unhealthy(): boolean {
    return this.#reported;
  }

  /** @returns probes sent so far (for tests and status) */
  get probesSent(): number {
    return this.#probes;
  }

  /** @param message a line the server logged or showed */
  observeLog(message: string): void {
    const fatal = this.#policy.fatalLogPatterns.find((pattern) => pattern.test(message));
    if (fatal) this.#report(`it reported its backend gone: "${message.trim().slice(0, 200)}"`);
  }

  /** A request was answered (any result, or an ordinary peer error). */
  answered(): void {
    this.#noProject = 0;
    this.#answers++;
  }

  /**
   * @param error how a request failed
   */
  failed(error: ActionError): void {
    if (error.code === 'LSP_ACTION_TIMEOUT' || error.code === 'LSP_ACTION_CANCELLED') {
      // the caller gave up: that says nothing about the server; ask the server itself
      this.#doubt();
      return;
    }
    if (isNoProject(error)) {
      this.#noProject++;
      this.#answers++;
      if (this.#noProject >= this.#policy.maxConsecutiveNoProject) {
        this.#report(`${this.#noProject} requests in a row were answered "No Project"`);
      }
      return;
    }
    if (error.code === 'LSP_ACTION_PEER_ERROR') this.answered();
  }

  /** Sends one probe unless one is out; its silence for `probeTimeoutMs` is conclusive. */
  #doubt(): void {
    const probe = this.#probe;
    if (probe === undefined || this.#probing || this.#reported) return;
    this.#probing = true;
    this.#probes++;
    const answersBefore = this.#answers;
    const timeoutMs = this.#policy.probeTimeoutMs;
    probe(AbortSignal.timeout(timeoutMs)).then(
      () => {
        this.#probing = false;
        this.answered();
      },
      (error: unknown) => {
        this.#probing = false;
        if (!isActionError(error)) return;
        if (error.code === 'LSP_ACTION_PEER_ERROR') {
          this.answered();
          return;
        }
        if (error.code === 'LSP_ACTION_TIMEOUT' && this.#answers === answersBefore) {
          this.#report(`it answered neither a probe request within ${timeoutMs} ms (probeTimeoutMs) nor any other request meanwhile`);
        }
        // a crash, a broken stream or a stop: the client has already failed or stopped
      },
    );
  }

  #report(reason: string): void {
    if (this.#reported) return;
    this.#reported = true;
    this.#onUnhealthy(reason);
  }
}

/**
 * @param serverId the server
 * @param reason what {@link ServerHealth} saw
 * @param stderrTail the server's last stderr bytes
 * @returns the failure the client fails with (its pending calls get it; the pool restarts it)
 */
export function unhealthyError(serverId: string, reason: string, stderrTail: string): ActionError {
  return new ActionError(
    'LSP_ACTION_SERVER_CRASHED',
    `language server ${serverId} stopped answering meaningfully (${reason}); it was stopped and the next call restarts it`,
    { serverId, stderrTail, health: reason },
  );
}

/**
 * @param error a failed request's error
 * @returns whether it is tsserver's `No Project` answer (passed through as a peer error)
 */
export function isNoProject(error: unknown): boolean {
  const e = error as Partial<ActionError> | undefined;
  return e?.code === 'LSP_ACTION_PEER_ERROR' && typeof e.message === 'string' && /\bNo Project\b/i.test(e.message);
}
