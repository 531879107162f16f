/**
 * Changes on disk the workspace watcher saw, noted in the ledger under every touched workspace
 * root that holds them — except the echo of a write edit feedback already knows of (the
 * harness's `write`/`edit`, our own write path): a watched change of a file just written is
 * dropped when the file still has the version that write left (or, for our own write path,
 * which reports no version, when it arrives within a short window).
 */
import { sep } from 'node:path';
import type { FileSystem, FsVersion } from '@deepseek-ai/dsh-fs';
import type { ChangeLedger } from './change-ledger.ts';

/** One change the watcher saw. */
export interface WatchedChange {
  path: string;
  kind: 'created' | 'changed' | 'deleted';
}

/** How long a write without a version is taken to explain a watched change of its file. */
const ECHO_WINDOW_MS = 2_000;
/** How long a finished tool call waits for the watcher's report of what it changed. */
const SETTLE_MS = 50;
/** Known writes remembered at most. */
const MAX_WRITES = 1_024;

/** What the tracker needs. */
export interface ExternalChangesDeps {
  fs: Pick<FileSystem, 'resolve' | 'stat'>;
  ledger: ChangeLedger;
  /** The workspace roots sessions touched. */
  roots: () => Iterable<string>;
  log: (message: string) => void;
}

/** Notes watched changes; tells the tick of the latest per root. */
export class ExternalChanges {
  readonly #deps: ExternalChangesDeps;
  readonly #writes = new Map<string, { version: FsVersion | undefined; at: number }>();
  readonly #latest = new Map<string, number>();
  #inflight: Promise<void> = Promise.resolve();
  #watching = false;

  /** @param deps fs, ledger, roots, log */
  constructor(deps: ExternalChangesDeps) {
    this.#deps = deps;
  }

  /**
   * A write edit feedback knows of (its watched echo is not an outside change).
   * @param path absolute path
   * @param version the version the write left, when known
   */
  wrote(path: string, version: FsVersion | undefined): void {
    this.#writes.delete(path);
    this.#writes.set(path, { version, at: performance.now() });
    while (this.#writes.size > MAX_WRITES) this.#writes.delete(this.#writes.keys().next().value as string);
  }

  /** @param changes what the watcher saw (synchronous; never throws) */
  watched(changes: readonly WatchedChange[]): void {
    const run = async (): Promise<void> => {
      const outside: WatchedChange[] = [];
      for (const change of changes) if (!(await this.#isEcho(change))) outside.push(change);
      for (const root of this.#deps.roots()) {
        const mine = outside.filter((c) => c.path.startsWith(root + sep));
        if (mine.length > 0) this.#latest.set(root, this.#deps.ledger.note(root, mine));
      }
    };
    this.#inflight = this.#inflight.then(run).catch((error: unknown) => this.#deps.log(`edit feedback: watched changes: ${String(error)}`));
  }

  async #isEcho(change: WatchedChange): Promise<boolean> {
    const write = this.#writes.get(change.path);
    if (write === undefined || change.kind === 'deleted') return false;
    if (write.version === undefined) return performance.now() - write.at < ECHO_WINDOW_MS;
    try {
      const info = await this.#deps.fs.stat(await this.#deps.fs.resolve(change.path));
      return info?.version === write.version;
    } catch {
      return false; // swallowed: a file that cannot be looked at is taken as changed (judged, never assumed unchanged)
    }
  }

  /**
   * Lets changes a just-finished command made reach the watcher and be noted: the OS queues them
   * before the command exits, but on a busy machine they were measured arriving up to ~10 ms after
   * the tool returned; so this waits {@link SETTLE_MS}, then for the watcher's own next-turn
   * report. A change later than that is judged with the next call instead.
   */
  async settle(): Promise<void> {
    await new Promise<void>((resolve) => setTimeout(resolve, SETTLE_MS));
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.#inflight;
  }

  /** A watcher started: calls of other tools wait for its report ({@link settle}). */
  started(): void {
    this.#watching = true;
  }

  /** @returns whether a watcher runs (without one, nothing outside the known writes is seen) */
  watching(): boolean {
    return this.#watching;
  }

  /** @returns the tick of the latest outside change noted under `root` (0: none) */
  latest(root: string): number {
    return this.#latest.get(root) ?? 0;
  }
}
