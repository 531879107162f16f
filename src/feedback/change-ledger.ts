/**
 * What is not yet judged, per workspace root: the changes whose dependents have not been found
 * yet (sources) and the files due a fresh check since their last fresh verdict (dirty), each
 * with the tick at which it was first noted. Every way a file changes lands here — a followed
 * tool's write, our own write path, the workspace watcher (a shell command, the user) — so a
 * verdict that could not judge everything leaves the rest for the next one instead of losing it.
 * Not bounded by count: a root's entries are files of its programs, and dropping one would turn
 * "not known" into a silent clean. Ticks order notes and baselines: a baseline whose check began after a change was noted may
 * already contain it and is never its "before".
 */

/** How a file changed. */
export type ChangeKind = 'created' | 'changed' | 'deleted';

/** A noted change whose dependents are not yet found. */
export interface PendingSource {
  path: string;
  kind: ChangeKind;
  /** Tick of its first note. */
  since: number;
}

/** Per-root records. */
interface RootRecord {
  sources: Map<string, PendingSource>;
  /** path → tick since which it is due a check */
  dirty: Map<string, number>;
  /** path → the change it is due a check for (its own, or the one it depends on), when one */
  cause: Map<string, string>;
  /** Tick of the latest note. */
  lastNote: number;
  /** path → tick of its latest note */
  noted: Map<string, number>;
}

/** Unjudged changes and files, by root; one tick counter for the plugin. */
export class ChangeLedger {
  readonly #roots = new Map<string, RootRecord>();
  #tick = 0;

  /** @returns a new tick (strictly greater than every earlier one) */
  tick(): number {
    return ++this.#tick;
  }

  #record(root: string): RootRecord {
    let record = this.#roots.get(root);
    if (record === undefined) {
      record = { sources: new Map(), dirty: new Map(), cause: new Map(), lastNote: 0, noted: new Map() };
      this.#roots.set(root, record);
    }
    return record;
  }

  /**
   * Notes changed files: each is a source (its dependents to find) and dirty (due a check).
   * @param root workspace root
   * @param changes what changed
   * @returns the tick of this note
   */
  note(root: string, changes: ReadonlyArray<{ path: string; kind: ChangeKind }>): number {
    const tick = this.tick();
    const record = this.#record(root);
    record.lastNote = tick;
    for (const { path, kind } of changes) {
      record.noted.set(path, tick);
      const earlier = record.sources.get(path);
      record.sources.set(path, { path, kind, since: earlier?.since ?? tick });
      if (kind === 'deleted') {
        record.dirty.delete(path);
      } else if (!record.dirty.has(path)) {
        record.dirty.set(path, tick);
        record.cause.set(path, path);
      }
    }
    return tick;
  }

  /**
   * @param root workspace root
   * @param paths files whose problems may have changed
   * @param since the tick of the change that may have changed them
   * @param cause that change's path, when it is one file
   */
  markDirty(root: string, paths: Iterable<string>, since: number, cause?: string): void {
    const record = this.#record(root);
    for (const path of paths) {
      const earlier = record.dirty.get(path);
      record.dirty.set(path, earlier === undefined ? since : Math.min(earlier, since));
      if (earlier === undefined && cause !== undefined) record.cause.set(path, cause);
      else if (earlier !== undefined && record.cause.get(path) !== cause) record.cause.delete(path);
    }
  }

  /** @returns the sources of `root` whose dependents are not yet found, oldest first */
  sources(root: string): PendingSource[] {
    return [...(this.#roots.get(root)?.sources.values() ?? [])];
  }

  /** @returns the files of `root` due a check, with the tick since which they are */
  dirty(root: string): Array<{ path: string; since: number }> {
    return [...(this.#roots.get(root)?.dirty ?? [])].map(([path, since]) => ({ path, since }));
  }

  /** @returns the one change `path` is due a check for, when there is one */
  causeOf(root: string, path: string): string | undefined {
    return this.#roots.get(root)?.cause.get(path);
  }

  /** @returns the tick since which `path` is due a check, if it is */
  dirtySince(root: string, path: string): number | undefined {
    return this.#roots.get(root)?.dirty.get(path);
  }

  /**
   * A source's dependents were found (and marked dirty): it is done unless noted again after `upTo`.
   * @param root workspace root
   * @param path the source
   * @param upTo the tick at which its dependents were looked up
   */
  sourceDone(root: string, path: string, upTo: number): void {
    const record = this.#roots.get(root);
    const source = record?.sources.get(path);
    if (source !== undefined && source.since <= upTo) record?.sources.delete(path);
  }

  /**
   * A fresh check of `path` began at `checkTick`: it is judged unless dirtied again after that.
   * @param root workspace root
   * @param path the file
   * @param checkTick the tick at which the check began
   */
  judged(root: string, path: string, checkTick: number): void {
    const record = this.#roots.get(root);
    const since = record?.dirty.get(path);
    if (since !== undefined && since <= checkTick) {
      record?.dirty.delete(path);
      record?.cause.delete(path);
    }
  }

  /**
   * @param root workspace root
   * @param tick a check's starting tick
   * @returns whether no change of `root` was noted since: an answer obtained meanwhile can then
   *   not already contain a change a later verdict judges, and may become a baseline
   */
  quietSince(root: string, tick: number): boolean {
    return (this.#roots.get(root)?.lastNote ?? 0) < tick;
  }

  /**
   * @param root workspace root
   * @param tick a check's starting tick
   * @param path a file checked as a fixed text (an overlay): its own changes do not matter
   * @returns whether no other file of `root` was noted changed since
   */
  quietExceptSince(root: string, tick: number, path: string): boolean {
    const record = this.#roots.get(root);
    if (record === undefined || record.lastNote < tick) return true;
    for (const [other, at] of record.noted) if (at >= tick && other !== path) return false;
    return true;
  }

  /** @returns whether `root` has anything unjudged */
  hasWork(root: string): boolean {
    const record = this.#roots.get(root);
    return record !== undefined && (record.sources.size > 0 || record.dirty.size > 0);
  }

  /** Drops everything (plugin disposal). */
  clear(): void {
    this.#roots.clear();
  }
}
