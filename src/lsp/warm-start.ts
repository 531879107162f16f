/**
 * A server started with its project loaded while the caller still plans (the CLI's `check` on
 * TypeScript 7: the server's load overlaps the compiler's own listing), with the proof that lets
 * later unopened pulls on it be `fresh` although the server read the files before those pulls'
 * "before" versions: the {@link ServerEpoch}. See docs/decisions/0110-warm-project-load.md.
 *
 * Order: the host took the snapshot before calling; the server's root and the workspace root are
 * watched (a change from here on is reported to the engine — the workspace's too: the project
 * may read files of other folders, say a sibling package, while its group waits); `everStarted` says no process of the key was ever started — a
 * start is never undone, so none existed when the snapshot was taken either; only then is the
 * process spawned — so every read it makes comes after the snapshot's versions.
 */
import { URI } from 'vscode-uri';
import type { FileSnapshot, ServerEpoch } from './engine-types.ts';
import type { ServerPool } from './server-pool.ts';
import { loadUnopened } from './unopened-pull.ts';

/** What a warm start needs from the engine. */
export interface WarmStartDeps {
  pool: Pick<ServerPool, 'lease' | 'everStarted'>;
  /** Starts watching a root (once per root; the engine's watcher). */
  watchRoot: (root: string) => void;
  /** How long the load may take. */
  waitMs: number;
}

/**
 * @param deps engine parts
 * @param serverId the server
 * @param serverRoot its root for `path`
 * @param path a file of the project to load
 * @param snapshot versions the host took before this call
 * @param workspaceRoot the workspace the server's root lies in (watched too); undefined: only the server's root
 * @param signal abandons the wait for the start
 * @returns the epoch (undefined when a process of the key existed before, or the server does
 *   not pull unopened files), and the load under way (settles, never rejects)
 */
export async function warmStart(
  deps: WarmStartDeps,
  serverId: string,
  serverRoot: string,
  path: string,
  snapshot: FileSnapshot,
  workspaceRoot?: string,
  signal?: AbortSignal,
): Promise<{ epoch: ServerEpoch | undefined; loaded: Promise<void> }> {
  deps.watchRoot(serverRoot);
  if (workspaceRoot !== undefined && workspaceRoot !== serverRoot) deps.watchRoot(workspaceRoot);
  const epoch: ServerEpoch | undefined = deps.pool.everStarted(serverId, serverRoot) ? undefined : { serverId, root: serverRoot, snapshot };
  // a process a host started ahead for this key is taken only here: the epoch below covers it
  // (its spawn came after the snapshot and the watches, decision 0113)
  const lease = await deps.pool.lease(serverId, serverRoot, signal, epoch !== undefined);
  try {
    const client = lease.client;
    if (client.config.pullsUnopenedFiles !== true) return { epoch: undefined, loaded: Promise.resolve() };
    return { epoch, loaded: loadUnopened(client, path, URI.file(path).toString(), deps.waitMs) };
  } finally {
    lease.release();
  }
}
