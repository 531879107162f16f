/**
 * Filesystem observations (`fs/observed`) invalidate cached diagnostics: a file seen at a
 * version other than the one its snapshot was taken at (or seen absent) loses its snapshot and
 * is announced as `file.changed`. Any other file seen at a version other than the one last
 * observed (or seen absent after being present) may be a dependency of cached files, so it makes
 * every snapshot non-current for targeting, silently.
 */
import type { FsObservation, FsTarget } from '@deepseek-ai/dsh-fs';
import type { DiagnosticsCache } from './diagnostics-cache.ts';
import type { EventStream } from './event-stream.ts';

/** What the watcher runs against. */
export interface FsChangeWatcherDeps {
  cache: DiagnosticsCache;
  events: EventStream;
  /** The absolute path of a target (`ctx.fs.processPath`); undefined when it cannot be told. */
  pathOf: (target: FsTarget) => string | undefined;
  /** Told about every path announced here (in-flight writes then skip their own announcement). */
  announced: (path: string) => void;
  /** Versions of files without a snapshot remembered at most (oldest forgotten first); default 4096. */
  maxTracked?: number;
}

/**
 * Handles `fs/observed`. Only files with a cached snapshot are considered: for any other file
 * the backend cannot tell a new version from a mere read, and has nothing to invalidate.
 */
export class FsChangeWatcher {
  readonly #deps: FsChangeWatcherDeps;
  /** Last observed version of files without a snapshot (`null`: seen absent). */
  readonly #seen = new Map<string, string | null>();

  /** @param deps cache, events, path resolution, announcement hook */
  constructor(deps: FsChangeWatcherDeps) {
    this.#deps = deps;
  }

  /**
   * The `fs/observed` listener: synchronous, never throws (a throwing recorder would fail the
   * observing tool call).
   * @param target the observed target
   * @param observation present with its version, or absent
   * @returns whether the file's snapshot was invalidated
   */
  observe(target: FsTarget, observation: FsObservation): boolean {
    let path: string | undefined;
    try {
      path = this.#deps.pathOf(target);
    } catch {
      // swallowed: a target this fs cannot map to a path has no cache entry we could find
      return false;
    }
    if (path === undefined) return false;
    const entry = this.#deps.cache.peek(path);
    if (!entry) {
      this.#track(path, observation);
      return false;
    }
    if (observation.kind === 'present' && entry.stamp.fsVersion !== undefined && observation.version === entry.stamp.fsVersion) {
      return false;
    }
    this.#seen.delete(path);
    this.#deps.cache.invalidate(path);
    this.#deps.announced(path);
    this.#deps.events.emit('file.changed', { filePath: entry.clientPath, workspaceRoot: entry.root });
    return true;
  }

  #track(path: string, observation: FsObservation): void {
    const version = observation.kind === 'present' ? observation.version : null;
    const before = this.#seen.get(path);
    if (before !== undefined && before !== version) this.#deps.cache.noteChange();
    this.#seen.delete(path);
    this.#seen.set(path, version);
    if (this.#seen.size > (this.#deps.maxTracked ?? 4096)) this.#seen.delete(this.#seen.keys().next().value as string);
  }
}
