/**
 * The watcher edit feedback starts by itself: a root it does not watch (not this machine's disk as
 * the harness fs sees it) is reported to the engine as unwatched, so the engine keeps stat-ing its
 * open documents before every answer instead of trusting a watcher that is not there.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localDiskWatch } from '../../src/feedback/local-disk-watch.ts';

/** Resolves when `check` holds, polling (the locality test is asynchronous). */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('localDiskWatch', () => {
  it('a root the harness fs does not show as this machine\'s disk is reported unwatched, with a sweep (never silently watched)', async () => {
    const fs = { resolve: async (path: string) => ({ targetKey: path, displayPath: path }) as never, stat: async () => undefined };
    const logs: string[] = [];
    let started = 0;
    const degraded: Array<{ reason: string; sweep: boolean }> = [];
    const watch = localDiskWatch(fs, (message) => logs.push(message), () => started++);
    const stop = watch('/remote/root', () => undefined, { onDegraded: (reason, sweep) => degraded.push({ reason, sweep: sweep !== undefined }) });
    await eventually(() => degraded.length > 0);
    stop();
    assert.deepEqual(degraded, [{ reason: "/remote/root is not watched: not on this machine's disk as the harness fs sees it", sweep: true }]);
    assert.equal(started, 0);
    assert.match(logs.join('\n'), /not on this machine's disk/);
  });

  it('a root whose locality cannot be told is reported unwatched too', async () => {
    const fs = { resolve: async () => Promise.reject(new Error('EACCES')), stat: async () => undefined };
    const degraded: string[] = [];
    const stop = localDiskWatch(fs, () => undefined, () => undefined)('/x', () => undefined, { onDegraded: (reason) => degraded.push(reason) });
    await eventually(() => degraded.length > 0);
    stop();
    assert.match(degraded[0] ?? '', /^\/x is not watched: cannot tell whether it is local: Error: EACCES/);
  });
});
