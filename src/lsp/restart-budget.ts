/**
 * Crash accounting for one (server, root): restart with exponential backoff, and give up when
 * there were more than `maxRestarts` crashes within `restartWindowMs`.
 */

/** Sliding-window crash budget. Clock injectable for tests. */
export class RestartBudget {
  private readonly maxRestarts: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private crashes: number[] = [];

  /**
   * @param maxRestarts crashes tolerated within the window
   * @param windowMs the window (ms)
   * @param now clock (ms)
   */
  constructor(maxRestarts: number, windowMs: number, now: () => number = () => performance.now()) {
    this.maxRestarts = maxRestarts;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** Records one crash (or failed start). */
  recordCrash(): void {
    this.crashes.push(this.now());
  }

  /** @returns crashes within the window */
  get recent(): number {
    const cutoff = this.now() - this.windowMs;
    this.crashes = this.crashes.filter((t) => t > cutoff);
    return this.crashes.length;
  }

  /** @returns whether the server should not be restarted now */
  get gaveUp(): boolean {
    return this.recent > this.maxRestarts;
  }

  /** @returns ms until the oldest crash leaves the window (0 when not given up) */
  get retryAfterMs(): number {
    if (!this.gaveUp) return 0;
    const first = this.crashes[0] ?? this.now();
    return Math.max(0, Math.ceil(first + this.windowMs - this.now()));
  }

  /** @returns how long to wait before the next start: 0 without recent crashes, then 250 ms doubling, at most a quarter of the window */
  get backoffMs(): number {
    const n = this.recent;
    if (n === 0) return 0;
    return Math.min(250 * 2 ** (n - 1), this.windowMs / 4);
  }
}
