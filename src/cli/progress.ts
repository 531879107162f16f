/**
 * A one-line progress indicator for long `check` runs, on stderr, only when stderr is a
 * terminal (never in CI logs or when piped). It appears after a short delay, so quick runs
 * print nothing, redraws at most every `intervalMs`, and erases itself when done.
 */

/** The indicator's interface. */
export interface Progress {
  /** One more file finished. */
  tick(label: string): void;
  /** Erase the line; further ticks are ignored. */
  done(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Number of files. */
  total: number;
  /** `false` turns it off (`--no-progress`). */
  enabled: boolean;
  /** Before this, nothing is drawn. */
  delayMs?: number;
  /** Minimum time between redraws. */
  intervalMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const NOOP: Progress = { tick() {}, done() {} };

/**
 * @param stream where to draw (stderr)
 * @param options total, switch, timing
 * @returns the indicator (a no-op unless `stream.isTTY` and enabled, with more than one file)
 */
export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }, options: ProgressOptions): Progress {
  if (!options.enabled || stream.isTTY !== true || options.total < 2) return NOOP;
  const now = options.now ?? Date.now;
  const started = now();
  const delayMs = options.delayMs ?? 400;
  const intervalMs = options.intervalMs ?? 100;
  let finished = 0;
  let drawnAt = -Infinity;
  let drawn = false;
  let closed = false;
  return {
    tick(label: string) {
      if (closed) return;
      finished += 1;
      const t = now();
      if (t - started < delayMs || t - drawnAt < intervalMs) return;
      drawnAt = t;
      drawn = true;
      // A pty may report 0 (or no) columns; that is "unknown", not "zero wide".
      const columns = stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80;
      const width = Math.max(20, columns - 1);
      const line = `checking ${finished}/${options.total} files: ${label}`;
      stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    },
    done() {
      if (closed) return;
      closed = true;
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
