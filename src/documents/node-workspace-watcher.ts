/**
 * A workspace file watcher on `node:fs` for HOSTS that own the process (the CLI's `serve` and
 * `check`, tests, benchmarks) to inject as the engine's `watch` dependency. Plugin code never
 * imports it: inside the harness, files are reached only through `ctx.fs`, which has no watch.
 *
 * One non-recursive `fs.watch` per directory (Node's recursive mode on Linux walks and watches
 * dependency trees too), skipping {@link SKIPPED_DIRECTORIES} and hidden directories; new
 * directories are watched as they appear. Events are classified by a `stat`: gone → `deleted`,
 * a path first seen → `created`, otherwise `changed`. Delivered on the next turn of the event
 * loop (`setImmediate`), batched: a request that yields once after a change sees it.
 *
 * When a directory cannot be watched (ENOSPC: the inotify watch limit; EMFILE/ENFILE; any error
 * other than the directory being gone) or a watcher reports an error, watching is **degraded**:
 * the engine is told once (`hooks.onDegraded`) and given a sweep — a walk of the same tree with a
 * `stat` of every file, compared with what was last seen (size, mtime, ctime, inode) — which it
 * runs before every answer. So a dead watcher costs a sweep per answer, never a wrong `fresh`.
 * See docs/decisions/0010-cross-file-freshness.md ("When watching fails").
 */
import { readdirSync, statSync, watch as fsWatch, type FSWatcher, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { WatchHooks, WorkspaceWatch } from '../lsp/engine-types.ts';
import type { FileChange } from '../lsp/watched-files.ts';
import { takePrestartedWatch } from './prestarted-watches.ts';
import { SKIPPED_DIRECTORIES } from '../skipped-directories.ts';

const skipped = (name: string): boolean => SKIPPED_DIRECTORIES.has(name) || name.startsWith('.');

/** Errors that mean the directory is gone (its parent's event covers it), not that watching failed. */
const VANISHED = new Set(['ENOENT', 'ENOTDIR']);

/** Options of {@link nodeWorkspaceWatch}. */
export interface NodeWatchOptions {
  /** The `fs.watch` to use (tests inject one that fails like an exhausted inotify). */
  watch?: (dir: string, listener: (event: string, name: string | Buffer | null) => void) => FSWatcher;
  /**
   * Take over a watch of the same root the host started ahead ({@link takePrestartedWatch}): the
   * engine's watcher only (the plugin sets it) — never another consumer's, which would take the
   * engine's changes from it.
   */
  takePrestarted?: boolean;
}

/** What a file looked like when last seen. */
const signature = (info: Stats): string => `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;

const statOrUndefined = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

/**
 * @param options an injectable `fs.watch`
 * @returns a {@link WorkspaceWatch} on node:fs
 */
export function nodeWorkspaceWatch(options: NodeWatchOptions = {}): WorkspaceWatch {
  const watchDir = options.watch ?? ((dir, listener) => fsWatch(dir, listener));
  return (root, onChange, hooks?: WatchHooks) => {
    // a watch the host started ahead of the engine (check on TypeScript 7): the same kind, with
    // everything it saw since (prestarted-watches.ts)
    const ahead = options.takePrestarted === true ? takePrestartedWatch(root, onChange, hooks) : undefined;
    if (ahead !== undefined) return ahead;
    const watchers = new Map<string, FSWatcher>();
    /** Every file seen under the root → its signature. */
    const known = new Map<string, string>();
    const dirty = new Set<string>();
    let timer: NodeJS.Immediate | undefined;
    let stopped = false;
    let degraded = false;

    const degrade = (reason: string): void => {
      if (degraded || stopped) return;
      degraded = true;
      hooks?.onDegraded(reason, async () => {
        if (!stopped) sweep();
      });
    };
    /** Walks the tree, stats every file, reports what differs from {@link known}. */
    const sweep = (): void => {
      const seen = new Set<string>();
      const changes: FileChange[] = [];
      const walk = (dir: string): void => {
        let entries;
        try {
          entries = readdirSync(dir, { withFileTypes: true });
        } catch {
          return; // gone or unreadable: its files are reported deleted below
        }
        for (const entry of entries) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) {
            if (!skipped(entry.name)) walk(path);
            continue;
          }
          if (!entry.isFile()) continue;
          const info = statOrUndefined(path);
          if (info === undefined) continue;
          seen.add(path);
          const before = known.get(path);
          const now = signature(info);
          if (before === undefined) changes.push({ path, kind: 'created' });
          else if (before !== now) changes.push({ path, kind: 'changed' });
          known.set(path, now);
        }
      };
      walk(root);
      for (const path of known.keys()) {
        if (!seen.has(path)) {
          known.delete(path);
          changes.push({ path, kind: 'deleted' });
        }
      }
      if (changes.length > 0) onChange(changes);
    };

    const flush = (): void => {
      timer = undefined;
      const paths = [...dirty];
      dirty.clear();
      const changes: FileChange[] = [];
      for (const path of paths) {
        const info = statOrUndefined(path);
        if (info === undefined) {
          if (watchers.has(path)) unwatch(path);
          if (known.delete(path)) changes.push({ path, kind: 'deleted' });
        } else if (info.isDirectory()) {
          if (!watchers.has(path)) addTree(path, true, changes);
        } else if (info.isFile()) {
          const before = known.get(path);
          const now = signature(info);
          if (before !== now) changes.push({ path, kind: before === undefined ? 'created' : 'changed' });
          known.set(path, now);
        }
      }
      if (!stopped && changes.length > 0) onChange(changes);
    };
    const touch = (path: string): void => {
      dirty.add(path);
      if (timer === undefined) timer = setImmediate(flush);
    };
    const unwatch = (dir: string): void => {
      for (const [path, watcher] of watchers) {
        if (path === dir || path.startsWith(dir + '/')) {
          watcher.close();
          watchers.delete(path);
        }
      }
      for (const path of known.keys()) if (path.startsWith(dir + '/')) touch(path);
    };
    const addTree = (dir: string, report: boolean, changes: FileChange[]): void => {
      if (stopped || watchers.has(dir)) return;
      try {
        const watcher = watchDir(dir, (_event, name) => {
          if (name !== null && !skipped(String(name))) touch(join(dir, String(name)));
        });
        watcher.on('error', (error: NodeJS.ErrnoException) => {
          if (statOrUndefined(dir)?.isDirectory() === true) degrade(`the watcher of ${dir} failed: ${error.code ?? error.message}`);
          unwatch(dir);
        });
        watchers.set(dir, watcher);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== undefined && VANISHED.has(code)) return;
        degrade(`cannot watch ${dir}: ${code ?? (error as Error).message}${code === 'ENOSPC' ? ' (the inotify watch limit, fs.inotify.max_user_watches, is reached)' : ''}`);
        // keep walking: the files below are still recorded, so the sweep compares against them
      }
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // vanished or unreadable while walking: its parent's event covers it
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!skipped(entry.name)) addTree(path, report, changes);
        } else if (entry.isFile() && !known.has(path)) {
          const info = statOrUndefined(path);
          if (info === undefined) continue;
          known.set(path, signature(info));
          if (report) changes.push({ path, kind: 'created' });
        }
      }
    };
    addTree(root, false, []);
    return () => {
      stopped = true;
      if (timer !== undefined) clearImmediate(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    };
  };
}
