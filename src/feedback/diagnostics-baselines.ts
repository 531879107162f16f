/**
 * What a change is compared with: the last fresh, complete diagnostics of a file — whoever
 * changed the file since (the agent, a shell command, the user) — tagged with the ledger tick at
 * which the check began ({@link ChangeLedger}) and, when known, the filesystem version of the
 * content they describe. A verdict uses an entry only when it began before the change it judges
 * was noted ({@link usableBefore}), so a baseline can never already contain the change. Entries
 * come from background checks (files agents read, the project warm-up) and from every verdict;
 * bounded, least recently used first out.
 */
import type { FsVersion } from '@deepseek-ai/dsh-fs';
import type { WireDiagnostic } from '../actions/action-results.ts';
import type { RememberedDiagnostic } from '../tools/diagnostics-memory.ts';

/** One file's baseline. */
export interface Baseline {
  /** The filesystem version of the content the list describes; undefined when not known. */
  version?: FsVersion;
  /** The ledger tick at which the check that produced the list began. */
  tick: number;
  diagnostics: readonly RememberedDiagnostic[];
}

/** Baselines by absolute path, with the background checks still running. */
export class DiagnosticsBaselines {
  readonly #max: number;
  readonly #entries = new Map<string, Baseline>();
  readonly #inflight = new Map<string, Promise<void>>();

  /** @param maxFiles files kept at most */
  constructor(maxFiles: number) {
    this.#max = Math.max(1, maxFiles);
  }

  /**
   * @param path absolute path
   * @returns the file's baseline, if any
   */
  get(path: string): Baseline | undefined {
    return this.#entries.get(path);
  }

  /**
   * @param path absolute path
   * @param version the version it must describe
   * @returns the baseline when it describes exactly that version
   */
  forVersion(path: string, version: FsVersion): Baseline | undefined {
    const entry = this.#entries.get(path);
    return entry !== undefined && entry.version !== undefined && entry.version === version ? entry : undefined;
  }

  /**
   * @param path absolute path
   * @param tick the ledger tick at which the change being judged was noted
   * @returns the last fresh list when its check began before that tick, else undefined
   */
  usableBefore(path: string, tick: number): Baseline | undefined {
    const entry = this.#entries.get(path);
    return entry !== undefined && entry.tick < tick ? entry : undefined;
  }

  /**
   * @param accept which paths qualify
   * @param limit how many at most
   * @returns qualifying paths with a baseline, most recently set or used first
   */
  mostRecent(accept: (path: string) => boolean, limit: number): string[] {
    const out: string[] = [];
    for (const path of [...this.#entries.keys()].toReversed()) {
      if (out.length >= limit) break;
      if (accept(path)) out.push(path);
    }
    return out;
  }

  /**
   * Remembers a fresh, complete list (callers must not pass truncated or non-fresh lists).
   * @param path absolute path
   * @param version the content's filesystem version, when known
   * @param diagnostics the full list
   * @param tick the ledger tick at which the check began
   */
  set(path: string, version: FsVersion | undefined, diagnostics: readonly WireDiagnostic[] | readonly RememberedDiagnostic[], tick: number): void {
    this.#entries.delete(path);
    this.#entries.set(path, { ...(version !== undefined ? { version } : {}), tick, diagnostics: diagnostics.map(strip) });
    while (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  /**
   * @param path absolute path
   * @param version a version
   * @returns the running background check of that version, if any
   */
  inflight(path: string, version: FsVersion): Promise<void> | undefined {
    return this.#inflight.get(`${path}\0${version}`);
  }

  /**
   * Tracks a background check until it settles.
   * @param path absolute path
   * @param version the version it checks
   * @param job the check (never rejects)
   */
  track(path: string, version: FsVersion, job: Promise<void>): void {
    const key = `${path}\0${version}`;
    this.#inflight.set(key, job);
    void job.finally(() => {
      if (this.#inflight.get(key) === job) this.#inflight.delete(key);
    });
  }

  /**
   * @param accept which paths count
   * @returns the running background checks of those paths
   */
  running(accept: (path: string) => boolean): Array<Promise<void>> {
    return [...this.#inflight.entries()].filter(([key]) => accept(key.slice(0, key.indexOf('\0')))).map(([, job]) => job);
  }

  /** @returns how many background checks are running */
  get runningCount(): number {
    return this.#inflight.size;
  }

  /** Drops everything (plugin disposal). */
  clear(): void {
    this.#entries.clear();
    this.#inflight.clear();
  }
}

/** @returns the fields a baseline keeps */
function strip(d: RememberedDiagnostic): RememberedDiagnostic {
  const kept: RememberedDiagnostic = { severity: d.severity, range: d.range, message: d.message };
  if (d.source !== undefined) kept.source = d.source;
  if (d.code !== undefined) kept.code = d.code;
  return kept;
}
