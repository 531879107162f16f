/**
 * Background checks of files agents read, so that a later write of the file has a baseline: the
 * diagnostics of exactly the version the agent saw. The file is read through the fs seam between
 * two `stat`s of that version and checked as that text (an overlay), so a write landing during
 * the check cannot end up described as the "before"; the result is stamped with the ledger tick
 * taken first, and kept only if no other file of the workspace was noted changed meanwhile (the
 * answer might already contain that change). A few checks run at once; beyond a short queue the
 * oldest waiting read is dropped (its write then reports without a comparison).
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { ActionRunner } from '../actions/action-runner.ts';
import type { DiagnosticsGetResult } from '../actions/action-results.ts';
import type { DiagnosticsBaselines } from './diagnostics-baselines.ts';
import type { ObservedRead } from './write-tracker.ts';

/** Background checks running at once. */
const CONCURRENCY = 2;
/** Reads waiting for a check, at most. */
const QUEUE = 16;
/** Items fetched: a baseline must be the complete list. */
const FETCH_ITEMS = 1_000;

/** What the prefetcher needs. */
export interface BaselinePrefetchDeps {
  runner: Pick<ActionRunner, 'run'>;
  fs: Pick<FileSystem, 'stat' | 'readText'>;
  baselines: DiagnosticsBaselines;
  /** Whether a server handles the file in this workspace. */
  handles: (path: string, root: string) => boolean;
  /** Whether the agent's session may not write (nothing to prepare for then). */
  readOnly: (agent: ObservedRead['agent']) => boolean;
  /** How long one background check may wait for a fresh result. */
  waitMs: number;
  /** A new ledger tick (a baseline is stamped with the tick its check began at). */
  tick: () => number;
  /** Whether no file of `root` but `path` was noted changed since `tick` (`ChangeLedger.quietExceptSince`). */
  quietExceptSince: (root: string, tick: number, path: string) => boolean;
  log: (message: string) => void;
}

interface Job {
  read: ObservedRead;
  root: string;
  resolve: () => void;
}

/** Runs the background checks; dispose to abort them. */
export class BaselinePrefetch {
  readonly #deps: BaselinePrefetchDeps;
  readonly #queue: Job[] = [];
  readonly #abort = new AbortController();
  #active = 0;

  /** @param deps runner, fs, baselines, routing and session checks */
  constructor(deps: BaselinePrefetchDeps) {
    this.#deps = deps;
  }

  /**
   * The read hook: synchronous, never throws.
   * @param read a file an agent read
   */
  onRead(read: ObservedRead): void {
    try {
      const root = read.agent.session.header.cwd;
      if (this.#abort.signal.aborted || typeof root !== 'string') return;
      const { baselines } = this.#deps;
      if (baselines.forVersion(read.path, read.version) || baselines.inflight(read.path, read.version)) return;
      if (!this.#deps.handles(read.path, root) || this.#deps.readOnly(read.agent)) return;
      let resolve!: () => void;
      const done = new Promise<void>((settle) => {
        resolve = settle;
      });
      baselines.track(read.path, read.version, done);
      this.#queue.push({ read, root, resolve });
      // the oldest waiting read goes first; settling it lets its writes stop waiting for it
      while (this.#queue.length > QUEUE) this.#queue.shift()?.resolve();
      this.#pump();
    } catch (error) {
      this.#deps.log(`edit feedback: no baseline for a read: ${(error as Error).message}`);
    }
  }

  #pump(): void {
    while (this.#active < CONCURRENCY && this.#queue.length > 0) {
      const job = this.#queue.shift() as Job;
      this.#active++;
      void this.#run(job).finally(() => {
        this.#active--;
        job.resolve();
        this.#pump();
      });
    }
  }

  async #run(job: Job): Promise<void> {
    const { read, root } = job;
    const signal = this.#abort.signal;
    try {
      const tick = this.#deps.tick();
      const text = await this.#readVersion(read, signal);
      if (text === undefined) return;
      const result = (await this.#deps.runner.run({
        action: 'diagnostics.get',
        params: { workspaceRoot: root, filePath: read.path, text, maxItems: FETCH_ITEMS, waitMs: this.#deps.waitMs },
        signal,
        toolName: 'edit feedback',
      })) as DiagnosticsGetResult;
      if (result.state !== 'fresh' || result.truncated || !this.#deps.quietExceptSince(root, tick, read.path)) return;
      this.#deps.baselines.set(read.path, read.version, result.diagnostics, tick);
    } catch (error) {
      if (!signal.aborted) this.#deps.log(`edit feedback: background check of ${read.path} failed: ${(error as Error).message}`);
    }
  }

  /** @returns the file's text when it still is the version that was read, else undefined */
  async #readVersion(read: ObservedRead, signal: AbortSignal): Promise<string | undefined> {
    const same = async (): Promise<boolean> => (await this.#deps.fs.stat(read.target, signal))?.version === read.version;
    if (!(await same())) return undefined;
    const text = await this.#deps.fs.readText(read.target, signal);
    return (await same()) ? text : undefined;
  }

  /** Aborts every check and drops the queue. */
  dispose(): void {
    this.#abort.abort();
    for (const job of this.#queue.splice(0)) job.resolve();
  }
}
