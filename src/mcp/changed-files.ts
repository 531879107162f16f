/**
 * Files changed on disk in the served folders since they were last taken: the MCP face's record
 * of an agent's own edits, which it makes with its own tools and we never see. Fed by a
 * workspace watcher (the CLI's node:fs watcher); merged per path, so a file created and then
 * edited is still new, and one created and deleted again never happened.
 *
 * A watcher that degrades (ENOSPC, EMFILE, an error event) hands over a sweep of the tree,
 * run before every {@link ChangedFiles.take}; a folder with neither a watcher nor a working
 * sweep is {@link ChangedFiles.blindSpot}: its changes cannot be known, which is said, never
 * passed off as "no change".
 */
import { sep } from 'node:path';
import type { WorkspaceWatch } from '../lsp/engine-types.ts';

/** What happened to a file since it was last taken. */
export type ChangeKind = 'created' | 'changed' | 'deleted';

/** Changes under the served folders, taken per folder. */
export class ChangedFiles {
  readonly #pending = new Map<string, ChangeKind>();
  readonly #stops: Array<() => void> = [];
  /** Folders whose watcher degraded: why, and the sweep that replaces it (none: blind). */
  readonly #degraded = new Map<string, { reason: string; sweep: (() => Promise<void>) | undefined }>();

  /**
   * @param folders absolute folders watched
   * @param watch the workspace watcher
   */
  constructor(folders: readonly string[], watch: WorkspaceWatch) {
    for (const folder of folders) {
      const onDegraded = (reason: string, sweep: () => Promise<void>): void => {
        if (!this.#degraded.has(folder)) this.#degraded.set(folder, { reason, sweep });
      };
      try {
        this.#stops.push(watch(folder, (changes) => this.add(changes), { onDegraded }));
      } catch (error) {
        this.#degraded.set(folder, { reason: `the watcher could not be set up: ${(error as Error).message}`, sweep: undefined });
      }
    }
  }

  /**
   * @param root absolute folder
   * @returns why changes under `root` cannot be known (its watcher failed and no sweep works), if so
   */
  blindSpot(root: string): string | undefined {
    for (const [folder, { reason, sweep }] of this.#degraded) {
      if (sweep === undefined && (root === folder || root.startsWith(folder + sep) || folder.startsWith(root + sep))) return reason;
    }
    return undefined;
  }

  /** @param changes changes a watcher reported */
  add(changes: ReadonlyArray<{ path: string; kind: ChangeKind }>): void {
    for (const { path, kind } of changes) {
      const merged = merge(this.#pending.get(path), kind);
      if (merged === undefined) this.#pending.delete(path);
      else this.#pending.set(path, merged);
    }
  }

  /**
   * Waits for the watcher to deliver what the OS already queued (it reports on a later turn of
   * the event loop), then takes the changes under `root`.
   * @param root absolute folder
   * @returns the changes under it, forgotten here
   */
  async take(root: string): Promise<Map<string, ChangeKind>> {
    for (let turn = 0; turn < 3; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    // a degraded watcher's sweep reports (through add) what it missed
    for (const [folder, degraded] of this.#degraded) {
      if (degraded.sweep === undefined) continue;
      try {
        await degraded.sweep();
      } catch (error) {
        this.#degraded.set(folder, { reason: `${degraded.reason}; its sweep failed too: ${(error as Error).message}`, sweep: undefined });
      }
    }
    const out = new Map<string, ChangeKind>();
    for (const [path, kind] of this.#pending) {
      if (!path.startsWith(root + sep)) continue;
      out.set(path, kind);
      this.#pending.delete(path);
    }
    return out;
  }

  /**
   * Puts back changes taken by a call that failed, as older than anything recorded since.
   * @param changes what was taken
   */
  restore(changes: ReadonlyMap<string, ChangeKind>): void {
    for (const [path, kind] of changes) {
      const later = this.#pending.get(path);
      const merged = later === undefined ? kind : merge(kind, later);
      if (merged === undefined) this.#pending.delete(path);
      else this.#pending.set(path, merged);
    }
  }

  /** Stops watching. */
  dispose(): void {
    for (const stop of this.#stops.splice(0)) stop();
    this.#pending.clear();
  }
}

/**
 * @param before what was recorded
 * @param now what happened next
 * @returns the net change, or undefined when there is none
 */
export function merge(before: ChangeKind | undefined, now: ChangeKind): ChangeKind | undefined {
  if (before === undefined) return now;
  if (before === 'created') return now === 'deleted' ? undefined : 'created';
  if (before === 'deleted') return now === 'deleted' ? 'deleted' : 'changed';
  return now;
}
