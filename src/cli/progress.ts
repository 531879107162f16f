/**
 * A one-line progress indicator for `check` runs, on stderr, only when stderr is a terminal
 * (never in CI logs or when piped). It appears within a short delay of the start (before any
 * file is done: the first language server may take seconds to load its project), redraws on
 * every finished file (at most every `intervalMs`) and once a second with the elapsed time, so
 * a run that waits on a server visibly does so, and erases itself when done.
 *
 * ```
 * checking 0/53 files (3s): waiting for the language servers
 * checking 31/53 files (5s): src/parser.ts
 * ```
 */

/** The indicator's interface. */
export interface Progress {
  /** One more file finished. */
  tick(label: string): void;
  /** `count` more files to do (found while checking: what a program imports from outside its `include`). */
  grow(count: number): void;
  /** Erase the line; further ticks are ignored. */
  done(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Number of files. */
  total: number;
  /** `false` turns it off (`--no-progress`). */
  enabled: boolean;
  /** Before this, nothing is drawn (then the line appears even if no file is done yet). */
  delayMs?: number;
  /** Minimum time between redraws on ticks. */
  intervalMs?: number;
  /** Redraw with the elapsed time this often while nothing finishes (0: never). */
  heartbeatMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const NOOP: Progress = { tick() {}, grow() {}, done() {} };
/** What the line says before the first file is done. */
export const WAITING_LABEL = 'waiting for the language servers';

/**
 * @param stream where to draw (stderr)
 * @param options total, switch, timing
 * @returns the indicator (a no-op unless `stream.isTTY` and enabled, with more than one file)
 */
export function createProgress(stream: Terminal, options: ProgressOptions): Progress {
  if (!options.enabled || stream.isTTY !== true || options.total < 2) return NOOP;
  const now = options.now ?? Date.now;
  const started = now();
  const delayMs = options.delayMs ?? 300;
  const intervalMs = options.intervalMs ?? 100;
  const heartbeatMs = options.heartbeatMs ?? 1000;
  let finished = 0;
  let total = options.total;
  let label = WAITING_LABEL;
  let drawnAt = -Infinity;
  let drawn = false;
  let closed = false;
  const draw = (t: number): void => {
    drawnAt = t;
    drawn = true;
    const seconds = Math.floor((t - started) / 1000);
    writeLine(stream, `checking ${finished}/${total} files${seconds >= 1 ? ` (${seconds}s)` : ''}: ${label}`);
  };
  let heartbeat: NodeJS.Timeout | undefined;
  // The timers never keep the process alive; a run that ends first simply never sees them.
  const first = setTimeout(() => {
    if (closed) return;
    if (!drawn) draw(now());
    if (heartbeatMs > 0) {
      heartbeat = setInterval(() => {
        if (!closed) draw(now());
      }, heartbeatMs);
      heartbeat.unref();
    }
  }, delayMs);
  first.unref();
  return {
    tick(next: string) {
      if (closed) return;
      finished += 1;
      label = next;
      const t = now();
      if (t - started < delayMs || t - drawnAt < intervalMs) return;
      draw(t);
    },
    grow(count: number) {
      total += count;
    },
    done() {
      if (closed) return;
      closed = true;
      clearTimeout(first);
      if (heartbeat !== undefined) clearInterval(heartbeat);
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}

/** Terminal streams the indicators draw on. */
type Terminal = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

function writeLine(stream: Terminal, line: string): void {
  // A pty may report 0 (or no) columns; that is "unknown", not "zero wide".
  const columns = stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80;
  const width = Math.max(20, columns - 1);
  stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
}

/**
 * A status line for a step before the files are known (finding files, reading the programs):
 * drawn after `delayMs` with the elapsed seconds, erased by `done`. Same terminal rules as
 * {@link createProgress}.
 * @param stream where to draw (stderr)
 * @param text what is happening
 * @param options switch and timing
 * @returns the line's handle
 */
export function createStatus(stream: Terminal, text: string, options: { enabled: boolean; delayMs?: number; now?: () => number }): { done(): void } {
  if (!options.enabled || stream.isTTY !== true) return { done() {} };
  const now = options.now ?? Date.now;
  const started = now();
  let drawn = false;
  let closed = false;
  const draw = (): void => {
    if (closed) return;
    drawn = true;
    const seconds = Math.floor((now() - started) / 1000);
    writeLine(stream, `${text}${seconds >= 1 ? ` (${seconds}s)` : ''}`);
  };
  let heartbeat: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    draw();
    heartbeat = setInterval(draw, 1000);
    heartbeat.unref();
  }, options.delayMs ?? 300);
  first.unref();
  return {
    done() {
      if (closed) return;
      closed = true;
      clearTimeout(first);
      if (heartbeat !== undefined) clearInterval(heartbeat);
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
