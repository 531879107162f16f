/**
 * `check --watch`: the first full check, then a re-check on every file change, on the language
 * servers the first check started (they stay warm: the project is loaded once), printed the way
 * `tsc --watch` users know:
 *
 * ```
 * [14:02:11] Starting compilation in watch mode...
 * src/app.ts:5:6 error …
 * 1 error, 0 warnings in 1 file (53 files checked)
 * [14:02:13] Found 1 error. Watching for file changes.
 * [14:02:20] File change detected. Starting incremental compilation...
 * ```
 *
 * A re-check runs on the warm servers and asks them only about the files the change can reach
 * (watch-affected.ts: the changed files and their importers, as tsserver resolves them; the
 * whole file set, re-planned if a file was created or deleted, whenever that could be wrong).
 * A re-check starts after 100 ms without a change, and a change during a check starts one more
 * check after it.
 * Ctrl-C (SIGINT) or SIGTERM ends the watch: the watcher stops, the composition is disposed by
 * the caller (every language server stopped), exit status 128 + signal (130 for Ctrl-C — what a
 * shell reports for `tsc --watch` stopped the same way).
 */
import { extname } from 'node:path';
import type { WorkspaceWatch } from '../lsp/engine-types.ts';

/** A file change as the watcher reports it. */
export type FileChange = { path: string; kind: 'created' | 'changed' | 'deleted' };
import type { CheckSummary } from './check-report.ts';
import { type CliIo, SetupError, signalExitCode, stopSignalOf, writeAll } from './cli-io.ts';
import { plural } from './format-text.ts';

/**
 * How long the workspace must be quiet before a re-check starts. Nothing here is needed for a
 * true verdict (a change during a check makes its answers `pending` and starts one more check);
 * it only makes a burst of writes (an editor's temp-file save, `git checkout`, "save all") one
 * re-check. `tsc --watch` waits 250 ms; the writes of such a burst come milliseconds apart.
 */
export const WATCH_DEBOUNCE_MS = 100;
/** Files whose change never changes a verdict (editor swap and backup files, logs). */
const IGNORED_EXTENSIONS = new Set(['.swp', '.swo', '.swx', '.tmp', '.log', '.orig', '.bak']);

/** What a watch needs. */
export interface WatchDeps {
  /**
   * One check; writes its report to stdout and calls `onSummary` with its counts. `changes`:
   * what changed since the previous check started (empty for the first).
   */
  checkOnce: (onSummary: (summary: CheckSummary) => void, changes: readonly FileChange[]) => Promise<number>;
  /** The workspace watcher (the engine's own kind: `nodeWorkspaceWatch()`). */
  watch: WorkspaceWatch;
  workspace: string;
  io: CliIo;
  /** Aborted by SIGINT/SIGTERM: ends the watch. */
  signal: AbortSignal | undefined;
  /** Clock for the `[hh:mm:ss]` stamps (tests). */
  now?: () => Date;
  /** Clear the screen before each re-check (stdout a terminal, pretty output). */
  clearScreen?: boolean;
  /** Told of every relevant change as the watcher reports it. */
  onChanges?: (changes: readonly FileChange[]) => void;
  /** The watcher can no longer see every change (a re-check must then not keep earlier reports). */
  onWatchDegraded?: (reason: string) => void;
}

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * @param date a time
 * @returns `[hh:mm:ss]` in local time, as `tsc --watch` prints it
 */
export function stamp(date: Date): string {
  return `[${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}]`;
}

/**
 * @param summary a check's counts, or undefined when the check could not run
 * @returns the line after a check, `Found N errors. Watching for file changes.`
 */
export function foundLine(summary: CheckSummary | undefined): string {
  if (summary === undefined) return 'Check failed. Watching for file changes.';
  const incomplete = summary.notFresh.total > 0 ? ` ${plural(summary.notFresh.total, 'file')} without a fresh result.` : '';
  return `Found ${plural(summary.errors, 'error')}.${incomplete} Watching for file changes.`;
}

/**
 * @param path a changed path
 * @returns whether a change there can change a verdict (editor temp files cannot)
 */
export function relevantChange(path: string): boolean {
  const name = path.split(/[\\/]/).pop() ?? path;
  if (name.endsWith('~') || name.startsWith('.#') || /^\d+$/.test(name)) return false;
  return !IGNORED_EXTENSIONS.has(extname(name).toLowerCase());
}

/**
 * Runs the watch until the signal aborts it.
 * @param deps the check, the watcher, streams, signal
 * @returns the exit code: 128 + signal (130 for Ctrl-C)
 */
export async function watchChecks(deps: WatchDeps): Promise<number> {
  const { io, signal } = deps;
  const now = deps.now ?? (() => new Date());
  const say = (line: string): Promise<void> => writeAll(io.stdout, `${stamp(now())} ${line}\n`);
  // `dirty`: a relevant change since the last check started; `timer`: the debounce running.
  // `during`: paths changed while a check ran (a file that existed then may have been judged with)
  const state: { dirty: boolean; timer?: NodeJS.Timeout; wake?: () => void; changes: FileChange[]; running: boolean; during: Set<string> } = {
    dirty: false,
    changes: [],
    running: false,
    during: new Set(),
  };
  const stop = deps.watch(deps.workspace, (changes) => {
    const relevant = changes.filter((change) => relevantChange(change.path));
    if (relevant.length === 0) return;
    state.changes.push(...relevant);
    if (state.running) for (const change of relevant) state.during.add(change.path);
    deps.onChanges?.(relevant);
    state.dirty = true;
    if (state.timer !== undefined) clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.wake?.();
    }, WATCH_DEBOUNCE_MS);
  }, { onDegraded: (reason) => deps.onWatchDegraded?.(reason) });
  const ready = (): boolean => signal?.aborted === true || (state.dirty && state.timer === undefined);
  const nextChange = async (): Promise<void> => {
    while (!ready()) await new Promise<void>((resolve) => (state.wake = resolve));
    state.wake = undefined;
  };
  const onAbort = (): void => state.wake?.();
  signal?.addEventListener('abort', onAbort);
  try {
    await say('Starting compilation in watch mode...');
    for (;;) {
      let summary: CheckSummary | undefined;
      try {
        const changes = withoutTransient(state.changes, state.during);
        state.changes = [];
        state.during = new Set();
        state.running = true;
        await deps.checkOnce((s) => (summary = s), changes);
      } catch (error) {
        // A setup problem after an edit (every file deleted, a config that no longer parses…)
        // is reported, and the watch goes on: the next edit may fix it.
        if (!(error instanceof SetupError)) throw error;
        io.stderr.write(`error: ${error.message}\n`);
      } finally {
        state.running = false;
      }
      const stopped = stopSignalOf(signal);
      if (stopped !== undefined) return signalExitCode(stopped);
      await say(foundLine(summary));
      await nextChange();
      if (signal?.aborted === true) return signalExitCode(stopSignalOf(signal) ?? 'SIGINT');
      state.dirty = false;
      if (deps.clearScreen === true) io.stdout.write('\x1b[2J\x1b[3J\x1b[H');
      await say('File change detected. Starting incremental compilation...');
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (state.timer !== undefined) clearTimeout(state.timer);
    stop();
  }
}

/**
 * @param changes the changes collected for a check, in order
 * @param during paths with a change seen while the previous check ran
 * @returns the changes without files that were created and deleted again while no check ran
 *   (an editor's or `sed -i`'s temporary file): absent before and after, they changed nothing
 */
export function withoutTransient(changes: readonly FileChange[], during: ReadonlySet<string>): FileChange[] {
  const first = new Map<string, FileChange['kind']>();
  const last = new Map<string, FileChange['kind']>();
  for (const change of changes) {
    if (!first.has(change.path)) first.set(change.path, change.kind);
    last.set(change.path, change.kind);
  }
  return changes.filter((change) => during.has(change.path) || first.get(change.path) !== 'created' || last.get(change.path) !== 'deleted');
}

/** Source files whose content does not decide a file set (tsconfig `include` globs and pyright's config do). */
const CONTENT_ONLY = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.py', '.pyi']);

/**
 * @param changes what changed since a plan was made
 * @returns whether that plan still holds: only existing source files' contents changed (no
 *   file created or deleted, no config, `.gitignore` or `package.json` touched). What a source
 *   file imports from outside the plan is asked of the server again in every run.
 */
export function planStillHolds(changes: readonly FileChange[]): boolean {
  return changes.every((change) => change.kind === 'changed' && CONTENT_ONLY.has(extname(change.path).toLowerCase()));
}

/**
 * The file set of the previous run of a watch, kept while only file contents change; a copy is
 * handed out each time (a run adjusts its file set as it goes).
 */
export class PlanCache<T> {
  private kept: T | undefined;
  /** A run of the watch finished (later runs do not repeat the once-per-watch notes). */
  ran = false;

  /** @param changes what changed since the previous run; anything but contents drops the plan */
  changed(changes: readonly FileChange[]): void {
    if (!planStillHolds(changes)) this.kept = undefined;
  }

  /** @returns a copy of the kept plan, if one still holds */
  reuse(): T | undefined {
    return this.kept === undefined ? undefined : structuredClone(this.kept);
  }

  /** @param plan a freshly made plan (copied: the run goes on to adjust its own) */
  keep(plan: T): void {
    this.kept = structuredClone(plan);
  }
}
