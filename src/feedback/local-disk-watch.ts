/**
 * The workspace watcher edit feedback turns on by itself (`editFeedback.watchChanges`): the
 * `node:fs` watcher, started for a root only when the harness fs shows that root as the local
 * disk — the same device and inode under the same path, so a sandbox or remote fs rooted
 * elsewhere is never watched on the host instead. Loaded (with `node:fs`) only when enabled.
 */
import { statSync } from 'node:fs';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { nodeWorkspaceWatch } from '../documents/node-workspace-watcher.ts';
import type { WorkspaceWatch } from '../lsp/engine-types.ts';

/**
 * @param fs the harness fs
 * @param log told when a root is not watched
 * @param onStarted told when the watcher started for a root
 * @returns a watch that starts the local watcher for roots the fs shows as the local disk
 */
export function localDiskWatch(fs: Pick<FileSystem, 'resolve' | 'stat'>, log: (message: string) => void, onStarted: () => void): WorkspaceWatch {
  const watch = nodeWorkspaceWatch();
  return (root, onChange, hooks) => {
    let stop: (() => void) | undefined;
    let stopped = false;
    // a root left unwatched must not pass for a watched one: the engine then stats its open
    // documents before every answer, as it does with no watcher (the sweep adds nothing more)
    const unwatched = (why: string): void => hooks?.onDegraded(`${root} is not watched: ${why}`, async () => undefined);
    void isLocalDisk(fs, root).then(
      (local) => {
        if (stopped) return;
        if (local) {
          stop = watch(root, onChange, hooks);
          onStarted();
        }
        else {
          log(`edit feedback: ${root} is not on this machine's disk as the harness fs sees it; changes made by other tools there are not watched`);
          unwatched('not on this machine\'s disk as the harness fs sees it');
        }
      },
      (error: unknown) => {
        log(`edit feedback: cannot tell whether ${root} is local: ${String(error)}`);
        unwatched(`cannot tell whether it is local: ${String(error)}`);
      },
    );
    return () => {
      stopped = true;
      stop?.();
    };
  };
}

/** @returns whether the fs's `root` is this machine's directory of that path (device and inode in its version) */
async function isLocalDisk(fs: Pick<FileSystem, 'resolve' | 'stat'>, root: string): Promise<boolean> {
  const seen = await fs.stat(await fs.resolve(root));
  if (seen === undefined) return false;
  let local;
  try {
    local = statSync(root, { bigint: true });
  } catch {
    return false; // swallowed: no such directory here, so it is not this machine's
  }
  return String(seen.version).startsWith(`${local.dev}:${local.ino}:`);
}
