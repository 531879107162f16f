/**
 * Which writes are in flight, process-wide, so a stopping process can wait for them: a write
 * that has begun (its journal entry is on disk) either commits or rolls back before
 * {@link drainWrites} resolves. `serve` awaits it after aborting its runs and before exiting;
 * without it, EOF/SIGTERM/SIGINT in the middle of a multi-file edit left part of it applied.
 *
 * It also serialises the write phase per workspace root: one journal slot per workspace means
 * one commit at a time there (the engine requests before it still run concurrently).
 */
import { raceAbort } from '../race-abort.ts';

/** Settles of the commits in flight. */
const inFlight = new Set<Promise<unknown>>();
/** Per workspace root, the settling of the last commit queued there. */
const rootTails = new Map<string, Promise<void>>();

/**
 * Runs a commit under the root's lock and counts it as in flight until it settles (committed or
 * rolled back). Waiting for the lock is not "in flight": nothing of it is on disk yet.
 * @param root the workspace root (the lock's key)
 * @param commit the write phase
 * @param signal aborts the wait for the lock (not the commit once it runs)
 * @returns what `commit` returns
 */
export async function runExclusiveWrite<T>(root: string, commit: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const previous = rootTails.get(root) ?? Promise.resolve();
  const gate = openGate();
  const mine = gate.closed;
  const release = gate.open;
  const tail = previous.then(() => mine);
  rootTails.set(root, tail);
  try {
    await raceAbort(previous.then(() => undefined, () => undefined), signal);
    const running = commit();
    inFlight.add(running);
    try {
      return await running;
    } finally {
      inFlight.delete(running);
    }
  } finally {
    release();
    if (rootTails.get(root) === tail) rootTails.delete(root);
  }
}

/**
 * Resolves once no write is in flight (every write that had started committed or rolled back,
 * including writes that started while waiting). Never rejects.
 * @returns how many writes it waited for
 */
export async function drainWrites(): Promise<number> {
  let waited = 0;
  while (inFlight.size > 0) {
    const batch = [...inFlight];
    waited += batch.length;
    await Promise.allSettled(batch);
  }
  return waited;
}

/** @returns how many writes are in flight now */
export function writesInFlight(): number {
  return inFlight.size;
}

/** @returns a promise (`closed`) that resolves when `open` is called */
function openGate(): { closed: Promise<void>; open: () => void } {
  const gate: { closed?: Promise<void>; open: () => void } = { open: () => undefined };
  gate.closed = new Promise<void>((resolve) => {
    gate.open = resolve;
  });
  return gate as { closed: Promise<void>; open: () => void };
}
