/**
 * Watchers a host starts before the engine exists, handed to the engine when it asks to watch the
 * same root: `check` on TypeScript 7 spawns its language server before the composition boots
 * (decision 0113), and the engine's freshness proof needs every change made after that spawn —
 * so the watch must already run then. Until the engine takes it, a prestarted watch keeps what it
 * reports (changes, a degraded state with its sweep); the engine gets all of it, in order, the
 * moment it takes the watch, then everything live.
 *
 * One registry per process (module state): the host and the plugin share it because the default
 * composition loads this package's own modules. A watch nobody took is stopped by its host.
 */
import type { WatchHooks, WorkspaceWatch } from '../lsp/engine-types.ts';
import type { FileChange } from '../lsp/watched-files.ts';

/** A watch started ahead of the engine. */
export interface PrestartedWatch {
  readonly root: string;
  /** Whether the engine took it (then it is the engine's to stop). */
  readonly taken: boolean;
  /** Withdraws it; stops it unless the engine took it. */
  stop(): void;
}

interface Entry {
  buffered: FileChange[];
  degraded?: { reason: string; sweep?: () => Promise<void> };
  sink?: { onChange: (changes: FileChange[]) => void; hooks: WatchHooks | undefined };
  stopWatch: () => void;
  taken: boolean;
}

const waiting = new Map<string, Entry>();

/**
 * @param watch the watcher to run (the engine's own kind: the node watcher for `check`)
 * @param root absolute directory
 * @returns the watch, registered for {@link takePrestartedWatch}
 * @throws what `watch` throws setting up
 */
export function prestartWatch(watch: WorkspaceWatch, root: string): PrestartedWatch {
  const entry: Entry = { buffered: [], taken: false, stopWatch: () => undefined };
  entry.stopWatch = watch(
    root,
    (changes) => (entry.sink === undefined ? entry.buffered.push(...changes) : entry.sink.onChange(changes)),
    {
      onDegraded: (reason, sweep) => {
        if (entry.sink === undefined) entry.degraded = sweep === undefined ? { reason } : { reason, sweep };
        else entry.sink.hooks?.onDegraded(reason, sweep);
      },
    },
  );
  waiting.get(root)?.stopWatch();
  waiting.set(root, entry);
  return {
    root,
    get taken() {
      return entry.taken;
    },
    stop() {
      if (waiting.get(root) === entry) waiting.delete(root);
      if (!entry.taken) entry.stopWatch();
    },
  };
}

/**
 * The engine's side: a watch of `root` started ahead, given what it saw so far and from now on
 * everything it sees.
 * @param root absolute directory the engine wants watched
 * @param onChange the engine's change sink (given the buffered changes at once, synchronously)
 * @param hooks the engine's hooks (told of a degraded state the watch reached before)
 * @returns the watch's stop function, or undefined when none was started ahead for this root
 */
export function takePrestartedWatch(root: string, onChange: (changes: FileChange[]) => void, hooks?: WatchHooks): (() => void) | undefined {
  const entry = waiting.get(root);
  if (entry === undefined) return undefined;
  waiting.delete(root);
  entry.taken = true;
  entry.sink = { onChange, hooks };
  const buffered = entry.buffered.splice(0);
  if (buffered.length > 0) onChange(buffered);
  if (entry.degraded !== undefined) hooks?.onDegraded(entry.degraded.reason, entry.degraded.sweep);
  return entry.stopWatch;
}
