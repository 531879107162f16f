/**
 * The engine when its workspace watcher fails (issue 18): a watcher that cannot be set up leaves
 * no way to see others' changes, so answers there are `stale`, never `fresh`; a degraded watcher
 * with a sweep has it run before every answer; either is said once in the log and to
 * `onWatchDegraded` listeners.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WatchDegradedEvent, WorkspaceWatch } from '../../src/lsp/engine-types.ts';
import { fakeEntry, makeConfig, makeWorkspace, startEngine, type Workspace } from './engine-fixture.ts';

let ws: Workspace;

const failing: WorkspaceWatch = () => {
  throw Object.assign(new Error('EMFILE: too many open files, watch'), { code: 'EMFILE' });
};
/** A watcher that degrades at once, to a sweep that cannot read the tree. */
const unreadableSweep: WorkspaceWatch = (_root, _onChange, hooks) => {
  hooks?.onDegraded('cannot watch x: ENOSPC', async () => {
    throw new Error('EACCES: the tree cannot be read');
  });
  return () => undefined;
};
before(async () => {
  ws = await makeWorkspace('lsp-watch-degraded-');
});
after(async () => {
  await ws.remove();
});

describe('engine with a failing workspace watcher', () => {
  it('a watcher that cannot be set up: answers are stale, not fresh, and it is said once', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({}) }), { watch: failing });
    try {
      const events: WatchDegradedEvent[] = [];
      f.engine.onWatchDegraded((e) => events.push(e));
      const t = { root: ws.root, path: await ws.write('a.txt', 'clean\n') };
      const d = await f.engine.diagnostics(t);
      assert.equal(d.state, 'stale', 'no fresh answer while others\' changes cannot be seen');
      const late: WatchDegradedEvent[] = [];
      f.engine.onWatchDegraded((e) => late.push(e));
      assert.equal(events.length, 1);
      assert.equal(events[0]?.fallback, 'none');
      assert.match(events[0]?.reason ?? '', /EMFILE/);
      assert.deepEqual(late, events, 'a listener that comes later is told too');
      await f.engine.diagnostics(t);
      assert.equal(f.logs.filter((l) => /is degraded/.test(l)).length, 1, f.logs.join('\n'));
    } finally {
      await f.close();
    }
  });

  it('a degraded watcher with a sweep: the sweep runs before every answer, and answers stay fresh', async () => {
    let sweeps = 0;
    const degrading: WorkspaceWatch = (_root, _onChange, hooks) => {
      hooks?.onDegraded('cannot watch x: ENOSPC', async () => {
        sweeps++;
      });
      return () => undefined;
    };
    const f = await startEngine(makeConfig({ fake: fakeEntry({}) }), { watch: degrading });
    try {
      const t = { root: ws.root, path: await ws.write('b.txt', 'clean\n') };
      await f.engine.diagnostics(t);
      const sweepsBefore = sweeps;
      const d = await f.engine.diagnostics(t);
      assert.equal(d.state, 'fresh');
      assert.ok(sweeps > sweepsBefore, 'swept before the answer');
    } finally {
      await f.close();
    }
  });

  it('a sweep that fails leaves no way of knowing: answers are stale from then on', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({}) }), { watch: unreadableSweep });
    try {
      const t = { root: ws.root, path: await ws.write('c.txt', 'clean\n') };
      await f.engine.diagnostics(t);
      const d = await f.engine.diagnostics(t);
      assert.equal(d.state, 'stale');
      assert.ok(f.logs.some((l) => /sweep that replaced the watcher failed/.test(l)), f.logs.join('\n'));
    } finally {
      await f.close();
    }
  });
});
