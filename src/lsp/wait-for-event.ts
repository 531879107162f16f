/**
 * Waiting for "something changed" without polling: resolves on the first of several events,
 * a deadline, or an abort.
 */
import type { Disposable, Event } from 'vscode-languageserver-protocol';

/**
 * @param events events any of which ends the wait
 * @param until `performance.now()` time at which the wait ends anyway
 * @param signal ends the wait when aborted (the caller checks it afterwards)
 * @returns a promise that resolves (never rejects) on the first of these
 */
export function waitForEvent(events: ReadonlyArray<Event<unknown>>, until: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const subscriptions: Disposable[] = [];
    const done = (): void => {
      clearTimeout(timer);
      for (const s of subscriptions) s.dispose();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, until - performance.now()));
    for (const event of events) subscriptions.push(event(done));
    signal?.addEventListener('abort', done, { once: true });
  });
}
