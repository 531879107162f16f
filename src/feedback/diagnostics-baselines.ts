/**
 * What a write is compared with: the last fresh, complete diagnostics of a file, tagged with the
 * filesystem version of the content they describe. A write's delta uses the entry only when its
 * version is the one the writing session last saw (the content the write replaced), so a
 * baseline never describes other text. Entries come from background checks of files agents read
 * and from earlier verdicts; bounded, least recently used first out.
 */
import type { FsVersion } from '@deepseek-ai/dsh-fs';
import type { WireDiagnostic } from '../actions/action-results.ts';
import type { RememberedDiagnostic } from '../tools/diagnostics-memory.ts';

/** One file's baseline. */
export interface Baseline {
  /** The filesystem version of the content the list describes; undefined when not known. */
  version?: FsVersion;
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
   */
  set(path: string, version: FsVersion | undefined, diagnostics: readonly WireDiagnostic[] | readonly RememberedDiagnostic[]): void {
    this.#entries.delete(path);
    this.#entries.set(path, { ...(version !== undefined ? { version } : {}), diagnostics: diagnostics.map(strip) });
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
