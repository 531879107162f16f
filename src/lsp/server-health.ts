/**
 * Health of one language server beyond "the process is alive": a server can stay up while it
 * no longer answers meaningfully — typescript-language-server outlives a killed tsserver and
 * then answers every request empty (hover `null`, no edits, no diagnostics ever again). The
 * client reports what it sees here; once a sign is conclusive the server counts as failed (the
 * pool then restarts it within its restart budget, and calls in between fail with a code).
 *
 * Conclusive signs:
 * - a log line the server itself writes when its backend died (`window/logMessage` /
 *   `window/showMessage`): typescript-language-server's `[tsserver] Exited. Code: … Signal: …`
 *   and `tsserver process has exited`;
 * - `maxConsecutiveTimeouts` requests in a row that ran out of their budget, with no answer in
 *   between (a wedged server);
 * - `maxConsecutiveNoProject` requests in a row answered with tsserver's `No Project` error
 *   (its project state is gone).
 */
import { ActionError } from '../errors.ts';

/** Log lines that mean the server's backend is gone. */
export const FATAL_LOG_PATTERNS: readonly RegExp[] = [
  /\[tsserver\] Exited\. Code: \S+\. Signal: \S+/,
  /tsserver process has exited/,
  /Exited with error\. Error message is:/,
];

/** Thresholds of {@link ServerHealth}. */
export interface HealthPolicy {
  fatalLogPatterns: readonly RegExp[];
  /** Requests in a row that timed out before the server counts as wedged. */
  maxConsecutiveTimeouts: number;
  /** Requests in a row answered `No Project` before the server counts as lost. */
  maxConsecutiveNoProject: number;
}

/** The default policy. */
export const DEFAULT_HEALTH_POLICY: HealthPolicy = {
  fatalLogPatterns: FATAL_LOG_PATTERNS,
  maxConsecutiveTimeouts: 3,
  maxConsecutiveNoProject: 3,
};

/** Watches one client; calls `onUnhealthy` once, with the reason, when a sign is conclusive. */
export class ServerHealth {
  readonly #policy: HealthPolicy;
  readonly #onUnhealthy: (reason: string) => void;
  #timeouts = 0;
  #noProject = 0;
  #reported = false;

  /**
   * @param onUnhealthy called once with a human-readable reason
   * @param policy thresholds and patterns
   */
  constructor(onUnhealthy: (reason: string) => void, policy: HealthPolicy = DEFAULT_HEALTH_POLICY) {
    this.#onUnhealthy = onUnhealthy;
    this.#policy = policy;
  }

  /** @returns whether a conclusive sign was seen */
  get unhealthy(): boolean {
    return this.#reported;
  }

  /** @param message a line the server logged or showed */
  observeLog(message: string): void {
    const fatal = this.#policy.fatalLogPatterns.find((pattern) => pattern.test(message));
    if (fatal) this.#report(`it reported its backend gone: "${message.trim().slice(0, 200)}"`);
  }

  /** A request was answered (any result, or an ordinary peer error). */
  answered(): void {
    this.#timeouts = 0;
    this.#noProject = 0;
  }

  /**
   * @param error how a request failed
   */
  failed(error: ActionError): void {
    if (error.code === 'LSP_ACTION_TIMEOUT') {
      this.#timeouts++;
      if (this.#timeouts >= this.#policy.maxConsecutiveTimeouts) {
        this.#report(`${this.#timeouts} requests in a row ran out of time without an answer`);
      }
      return;
    }
    if (isNoProject(error)) {
      this.#noProject++;
      this.#timeouts = 0;
      if (this.#noProject >= this.#policy.maxConsecutiveNoProject) {
        this.#report(`${this.#noProject} requests in a row were answered "No Project"`);
      }
      return;
    }
    if (error.code === 'LSP_ACTION_PEER_ERROR') this.answered();
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
