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
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceWatch } from '../lsp/engine-types.ts';
import type { FileChange } from '../lsp/watched-files.ts';
import { SKIPPED_DIRECTORIES } from '../skipped-directories.ts';


const skipped = (name: string): boolean => SKIPPED_DIRECTORIES.has(name) || name.startsWith('.');

/**
 * @returns a {@link WorkspaceWatch} on node:fs
 */
export function nodeWorkspaceWatch(): WorkspaceWatch {
  return (root, onChange) => {
    const watchers = new Map<string, FSWatcher>();
    const known = new Set<string>();
    const dirty = new Set<string>();
    let timer: NodeJS.Immediate | undefined;
    let stopped = false;

    const flush = async (): Promise<void> => {
      timer = undefined;
      const paths = [...dirty];
      dirty.clear();
      const changes: FileChange[] = [];
      for (const path of paths) {
        let info: ReturnType<typeof statSync> | undefined;
        try {
          info = statSync(path);
        } catch {
          info = undefined;
        }
        if (info === undefined) {
          if (watchers.has(path)) unwatch(path);
          if (known.delete(path)) changes.push({ path, kind: 'deleted' });
        } else if (info.isDirectory()) {
          if (!watchers.has(path)) await addTree(path, true, changes);
        } else if (info.isFile()) {
          changes.push({ path, kind: known.has(path) ? 'changed' : 'created' });
          known.add(path);
        }
      }
      if (!stopped && changes.length > 0) onChange(changes);
    };
    const touch = (path: string): void => {
      dirty.add(path);
      if (timer === undefined) timer = setImmediate(() => void flush());
    };
    const unwatch = (dir: string): void => {
      for (const [path, watcher] of watchers) {
        if (path === dir || path.startsWith(dir + '/')) {
          watcher.close();
          watchers.delete(path);
        }
      }
      for (const path of known) if (path.startsWith(dir + '/')) touch(path);
    };
    const addTree = async (dir: string, report: boolean, changes: FileChange[]): Promise<void> => {
      if (stopped || watchers.has(dir)) return;
      try {
        const watcher = watch(dir, (_event, name) => {
          if (name !== null && !skipped(String(name))) touch(join(dir, String(name)));
        });
        watcher.on('error', () => unwatch(dir));
        watchers.set(dir, watcher);
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) {
            if (!skipped(entry.name)) await addTree(path, report, changes);
          } else if (entry.isFile() && !known.has(path)) {
            known.add(path);
            if (report) changes.push({ path, kind: 'created' });
          }
        }
      } catch {
        // vanished or unreadable while walking: its parent's event covers it
      }
    };
    void addTree(root, false, []);
    return () => {
      stopped = true;
      if (timer !== undefined) clearImmediate(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    };
  };
}
