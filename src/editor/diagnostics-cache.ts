/**
 * The editor backend's bounded diagnostics cache: the last fresh snapshot announced per file,
 * stamped with the source version it describes. Its only reader is `quickfix.apply` without a
 * range (targeting the first cached error): `diagnostics.get` always asks the engine, because a
 * file's diagnostics depend on other files the cache cannot watch. Even for targeting, a snapshot
 * counts only while its own file is still that version **and** no change to any file has been
 * noticed since it was taken (a change epoch, bumped by every invalidation).
 */
import type { Range } from '../lsp/engine-types.ts';

/** The part of a wire diagnostic the cache reads (severity: `'error'` or LSP `1`). */
export interface CachedDiagnostic {
  severity: unknown;
  range: Range;
}

/** Which source a snapshot describes. */
export interface SourceStamp {
  /** The engine's document version the servers analysed; undefined when unknown or not the file's content (an unsaved buffer). */
  engineVersion?: number;
  /** Whether the servers answered for exactly that version (`fresh`), or not (`pending`, `stale`). */
  state?: 'fresh' | 'pending' | 'stale';
  /** The filesystem version (`ctx.fs.stat`) when the snapshot was taken; filters `fs/observed` of the same version. */
  fsVersion?: string;
}

/** One cached snapshot. */
export interface CachedDiagnostics {
  /** Absolute path (the cache key). */
  path: string;
  /** Workspace root the snapshot was taken for (as the client sent it, or the engine's root). */
  root: string;
  /** The file as the client names it (relative or absolute, as it sent it), for events. */
  clientPath: string;
  diagnostics: CachedDiagnostic[];
  stamp: SourceStamp;
}

/** The file's current source, as far as the caller can tell. */
export interface SourceProbe {
  /** The engine's current document version (`engine.documentText(path)?.version`). */
  engineVersion?: number;
  /** Whether the file's content equals the engine's document text; undefined when not checked. */
  sourceMatches?: boolean;
}

const ERROR_SEVERITIES: ReadonlySet<unknown> = new Set(['error', 1, 'Error']);

/**
 * A Map-backed LRU of diagnostics snapshots, capped at `maxFiles` entries. Reading an entry
 * refreshes its recency; inserting beyond the cap evicts the least recently used file.
 */
export class DiagnosticsCache {
  readonly #max: number;
  readonly #entries = new Map<string, CachedDiagnostics>();
  /** Change epoch each entry was stored at. */
  readonly #epochs = new WeakMap<CachedDiagnostics, number>();
  #epoch = 0;

  /** @param maxFiles files kept at most (`editor.diagnosticsCacheMaxFiles`, ≥ 1) */
  constructor(maxFiles: number) {
    if (!Number.isInteger(maxFiles) || maxFiles < 1) throw new RangeError(`diagnosticsCacheMaxFiles must be a positive integer, got ${maxFiles}`);
    this.#max = maxFiles;
  }

  /** @returns the number of cached files */
  get size(): number {
    return this.#entries.size;
  }

  /** @returns cached paths, least recently used first */
  keys(): string[] {
    return [...this.#entries.keys()];
  }

  /**
   * Stores (or replaces) the snapshot of a file and makes it the most recently used.
   * @param entry the snapshot
   * @returns paths evicted to stay within the bound
   */
  set(entry: CachedDiagnostics): string[] {
    this.#entries.delete(entry.path);
    this.#entries.set(entry.path, entry);
    this.#epochs.set(entry, this.#epoch);
    const evicted: string[] = [];
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
      evicted.push(oldest);
    }
    return evicted;
  }

  /**
   * @param path absolute path
   * @returns the snapshot (now most recently used), or undefined
   */
  get(path: string): CachedDiagnostics | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    this.#entries.delete(path);
    this.#entries.set(path, entry);
    return entry;
  }

  /**
   * @param path absolute path
   * @returns the snapshot without touching recency
   */
  peek(path: string): CachedDiagnostics | undefined {
    return this.#entries.get(path);
  }

  /**
   * Drops a file's snapshot, and — since other files' diagnostics may depend on it — makes every
   * other snapshot non-current for targeting ({@link noteChange}).
   * @param path absolute path of a file that changed (or may be re-analysed)
   * @returns whether there was a snapshot
   */
  invalidate(path: string): boolean {
    this.noteChange();
    return this.#entries.delete(path);
  }

  /**
   * Some file changed (or may have): every snapshot taken before now may describe an outdated
   * dependency, so none is current for targeting until it is replaced by a newer one.
   */
  noteChange(): void {
    this.#epoch++;
  }

  /**
   * @param path absolute path
   * @returns whether the file's snapshot was taken after the last noticed change
   */
  isUpToDate(path: string): boolean {
    const entry = this.#entries.get(path);
    return entry !== undefined && this.#epochs.get(entry) === this.#epoch;
  }

  /** Drops everything (dispose). */
  clear(): void {
    this.#entries.clear();
  }

  /**
   * The first error of a file's snapshot, when the snapshot describes the file's current source:
   * it was fresh, no change to any file was noticed since it was taken, its engine version equals
   * the document's current one, and the file's content is still the document text the engine
   * holds for that version (when the caller checked).
   * @param path absolute path
   * @param probe the file's current versions
   * @returns the error's range, or undefined
   */
  firstCurrentError(path: string, probe: SourceProbe): Range | undefined {
    const entry = this.get(path);
    if (!entry || !this.isUpToDate(path) || !isCurrent(entry.stamp, probe)) return undefined;
    return entry.diagnostics.find((d) => ERROR_SEVERITIES.has(d.severity))?.range;
  }
}

/**
 * @param stamp what a snapshot recorded
 * @param probe what the file is now
 * @returns whether the snapshot still describes the file
 */
export function isCurrent(stamp: SourceStamp, probe: SourceProbe): boolean {
  if (stamp.state !== undefined && stamp.state !== 'fresh') return false;
  if (stamp.engineVersion === undefined || stamp.engineVersion !== probe.engineVersion) return false;
  return probe.sourceMatches !== false;
}
