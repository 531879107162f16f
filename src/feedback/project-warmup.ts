/**
 * Loads a workspace's project when a session first touches it (its agent is created, or its
 * first read), so that the first edits of a session are judged rather than waiting for a cold
 * server: one file is checked the normal way (the server starts and loads the program), then
 * every file of the program is checked in the background, in small batches that give way to a
 * verdict in progress, and each fresh answer becomes that file's baseline — so a change that
 * breaks a file nobody read is reported as new, not as "no earlier check". A file with a change
 * not yet judged is skipped (its baseline must predate the change).
 */
import { sep } from 'node:path';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import { toWireDiagnostic } from '../actions/wire-format.ts';
import type { ChangeLedger } from './change-ledger.ts';
import type { DiagnosticsBaselines } from './diagnostics-baselines.ts';

/** Files of a program checked in the background at most. */
const MAX_FILES = 4_000;
/** Files asked per batch (a verdict waits at most for one batch). */
const BATCH = 32;
/** How long loading the project may take. */
const LOAD_WAIT_MS = 300_000;
/** First files tried (a file gone). */
const SEED_ATTEMPTS = 4;
/** Workspace files listed to find a first file. */
const SEED_CANDIDATES = 16;

/** Where a root's project is. */
export type WarmupState = 'loading' | 'ready' | 'failed' | 'none';

/** What the warm-up needs. */
export interface ProjectWarmupDeps {
  engine: Pick<LspEngineApi, 'diagnosticsMany' | 'projectFiles'>;
  baselines: DiagnosticsBaselines;
  ledger: ChangeLedger;
  handles: (path: string, root: string) => boolean;
  /** Lowest severity verdicts report (1 error … 4 hint): nothing below it is asked. */
  minSeverity: 1 | 2 | 3 | 4;
  /** The first few workspace files servers handle, shallow first. */
  listFiles: (root: string, max: number, signal: AbortSignal) => Promise<string[]>;
  log: (message: string) => void;
}

interface RootWarmup {
  state: WarmupState;
  /** Settles when the background pass is over (done, failed or aborted). */
  done?: Promise<void>;
  seed?: string;
  busy: number;
  idle: Array<() => void>;
}

/** Per-root project warm-up; dispose to abort. */
export class ProjectWarmup {
  readonly #deps: ProjectWarmupDeps;
  readonly #roots = new Map<string, RootWarmup>();
  readonly #abort = new AbortController();

  /** @param deps engine, baselines, ledger, routing, lister, log */
  constructor(deps: ProjectWarmupDeps) {
    this.#deps = deps;
  }

  /**
   * A session touched `root`: starts loading its project (once per root). Never throws.
   * @param root the session's workspace
   * @param seed a file of it the session touched, when known (preferred as the first file)
   */
  touch(root: string, seed?: string): void {
    if (this.#roots.has(root) || this.#abort.signal.aborted) return;
    const record: RootWarmup = { state: 'loading', busy: 0, idle: [], ...(seed !== undefined && this.#deps.handles(seed, root) ? { seed } : {}) };
    this.#roots.set(root, record);
    record.done = this.#run(root, record).catch((error: unknown) => {
      if (record.state === 'loading') record.state = 'failed';
      if (!this.#abort.signal.aborted) this.#deps.log(`edit feedback: loading the project of ${root} failed: ${(error as Error).message}`);
    });
  }

  /** @returns the state of `root`'s project (`none` when never touched or no server handles it) */
  state(root: string): WarmupState {
    return this.#roots.get(root)?.state ?? 'none';
  }

  /** @returns settles when `root`'s background pass is over (at once for a root never touched) */
  settled(root: string): Promise<void> {
    return this.#roots.get(root)?.done ?? Promise.resolve();
  }

  /** @returns a file of `root`'s program, when the warm-up found one */
  anchor(root: string): string | undefined {
    return this.#roots.get(root)?.seed;
  }

  /**
   * A verdict runs for `root`: background batches wait until it is done.
   * @returns call when the verdict is done
   */
  busy(root: string): () => void {
    const record = this.#roots.get(root);
    if (record === undefined) return () => undefined;
    record.busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      record.busy--;
      if (record.busy === 0) for (const wake of record.idle.splice(0)) wake();
    };
  }

  async #run(root: string, record: RootWarmup): Promise<void> {
    const signal = this.#abort.signal;
    const deps = this.#deps;
    // the first file that loads the program: the one the session touched, else the first listed
    // (a file gone is replaced). Any answer means the program is loaded; one superseded by a change
    // noticed meanwhile (an agent editing while it loads) is just not kept as a baseline.
    const tried = new Set<string>();
    let first: Awaited<ReturnType<ProjectWarmupDeps['engine']['diagnosticsMany']>>[number] | undefined;
    let tick = 0;
    for (let attempt = 0; attempt < SEED_ATTEMPTS; attempt++) {
      if (record.seed === undefined || (first !== undefined && 'error' in first)) {
        const files = (await deps.listFiles(root, SEED_CANDIDATES, signal)).filter((f) => !tried.has(f));
        const seed = files.find((f) => /\.[cm]?tsx?$/.test(f)) ?? files[0];
        if (seed === undefined) break;
        record.seed = seed;
      }
      tried.add(record.seed);
      tick = deps.ledger.tick();
      [first] = await deps.engine.diagnosticsMany(root, [record.seed], { signal, waitMs: LOAD_WAIT_MS, minSeverity: deps.minSeverity });
      if (first !== undefined && !('error' in first)) break;
    }
    const seed = record.seed;
    if (seed === undefined || first === undefined || 'error' in first) {
      record.state = tried.size === 0 ? 'none' : 'failed';
      if (tried.size > 0) deps.log(`edit feedback: the project of ${root} did not load (${first && 'error' in first ? first.error.message : 'no file to load it by'})`);
      return;
    }
    record.state = 'ready';
    if (first.state === 'fresh') this.#keep(root, seed, first.diagnostics.map(toWireDiagnostic), tick);
    // a server that cannot list its program (pyright): the workspace's files it handles, bounded
    const program = (await deps.engine.projectFiles(seed, root, { signal })) ?? (await deps.listFiles(root, MAX_FILES, signal));
    const files = program.filter((p) => p !== seed && p.startsWith(root + sep) && !p.includes(`${sep}node_modules${sep}`) && deps.handles(p, root)).slice(0, MAX_FILES);
    // files whose answer a change superseded are asked once more at the end
    const again = await this.#pass(root, record, files);
    await this.#pass(root, record, again);
  }

  /** @returns the files of `files` that got no fresh answer */
  async #pass(root: string, record: RootWarmup, files: readonly string[]): Promise<string[]> {
    const deps = this.#deps;
    const signal = this.#abort.signal;
    const missed: string[] = [];
    for (let at = 0; at < files.length && !signal.aborted; at += BATCH) {
      await this.#idle(record);
      const batch = files.slice(at, at + BATCH).filter((p) => deps.baselines.get(p) === undefined && deps.ledger.dirtySince(root, p) === undefined);
      if (batch.length === 0) continue;
      const batchTick = deps.ledger.tick();
      const entries = await deps.engine.diagnosticsMany(root, batch, { signal, waitMs: LOAD_WAIT_MS, minSeverity: deps.minSeverity });
      for (const entry of entries) {
        if ('error' in entry) continue;
        if (entry.state === 'fresh') this.#keep(root, entry.path, entry.diagnostics.map(toWireDiagnostic), batchTick);
        else missed.push(entry.path);
      }
    }
    return missed;
  }

  /** Keeps a fresh answer as the file's baseline unless a change of it is waiting to be judged, or a newer one exists. */
  #keep(root: string, path: string, diagnostics: Parameters<DiagnosticsBaselines['set']>[2], tick: number): void {
    if (this.#deps.ledger.dirtySince(root, path) !== undefined || !this.#deps.ledger.quietSince(root, tick)) return;
    const existing = this.#deps.baselines.get(path);
    if (existing !== undefined && existing.tick > tick) return;
    this.#deps.baselines.set(path, undefined, diagnostics, tick);
  }

  #idle(record: RootWarmup): Promise<void> {
    if (record.busy === 0) return Promise.resolve();
    return new Promise((resolve) => record.idle.push(resolve));
  }

  /** Aborts every warm-up. */
  dispose(): void {
    this.#abort.abort();
    for (const record of this.#roots.values()) for (const wake of record.idle.splice(0)) wake();
    this.#roots.clear();
  }
}
