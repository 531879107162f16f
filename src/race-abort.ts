import { abortError } from './errors.ts';

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts (a callee that ignores its
 * signal cannot hold its caller back). The rejection is {@link abortError} of the signal: the
 * abort's own `ActionError` reason when it has one, else a timeout or cancellation.
 * @param promise the work
 * @param signal optional abort signal
 * @returns the work's outcome, or the abort
 */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
