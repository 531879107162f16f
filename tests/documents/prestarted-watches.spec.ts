/**
 * Watches started before the engine (prestarted-watches.ts; check on TypeScript 7, decision 0113):
 * what they see before the engine takes them reaches the engine when it does — every change, in
 * order, and a degraded state with its sweep — and only the engine's own watcher takes them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { nodeWorkspaceWatch } from '../../src/documents/node-workspace-watcher.ts';
import { prestartWatch, takePrestartedWatch } from '../../src/documents/prestarted-watches.ts';
import type { WatchHooks, WorkspaceWatch } from '../../src/lsp/engine-types.ts';
import type { FileChange } from '../../src/lsp/watched-files.ts';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A watch driven by the test: `emit` reports changes, `degrade` a failure; `stopped` counts stops. */
function scripted(): { watch: WorkspaceWatch; emit(changes: FileChange[]): void; degrade(reason: string, sweep?: () => Promise<void>): void; stopped: number } {
  let sink: ((changes: FileChange[]) => void) | undefined;
  let hooks: WatchHooks | undefined;
  const state = {
    stopped: 0,
    watch: ((_root, onChange, h) => {
      sink = onChange;
      hooks = h;
      return () => void state.stopped++;
    }) as WorkspaceWatch,
    emit: (changes: FileChange[]) => sink?.(changes),
    degrade: (reason: string, sweep?: () => Promise<void>) => hooks?.onDegraded(reason, sweep),
  };
  return state;
}

describe('prestarted watches', () => {
  it('hands every change seen before the take to the engine, in order, then the live ones', () => {
    const w = scripted();
    const watch = prestartWatch(w.watch, '/ws/a');
    w.emit([{ path: '/ws/a/x.ts', kind: 'changed' }]);
    w.emit([{ path: '/ws/a/y.ts', kind: 'created' }]);
    const got: FileChange[][] = [];
    const stop = takePrestartedWatch('/ws/a', (changes) => got.push(changes));
    assert.ok(stop !== undefined);
    assert.deepEqual(got, [[{ path: '/ws/a/x.ts', kind: 'changed' }, { path: '/ws/a/y.ts', kind: 'created' }]]);
    w.emit([{ path: '/ws/a/x.ts', kind: 'deleted' }]);
    assert.deepEqual(got.at(-1), [{ path: '/ws/a/x.ts', kind: 'deleted' }]);
    assert.equal(watch.taken, true);
    watch.stop();
    assert.equal(w.stopped, 0, "the host's stop leaves a taken watch running: it is the engine's");
    stop();
    assert.equal(w.stopped, 1);
  });

  it('tells the engine of a degraded state reached before the take, with its sweep', async () => {
    const w = scripted();
    prestartWatch(w.watch, '/ws/b');
    let swept = 0;
    w.degrade('ENOSPC', async () => void swept++);
    const told: string[] = [];
    takePrestartedWatch('/ws/b', () => undefined, {
      onDegraded: (reason, sweep) => {
        told.push(reason);
        void sweep?.();
      },
    });
    assert.deepEqual(told, ['ENOSPC']);
    await new Promise((r) => setImmediate(r));
    assert.equal(swept, 1);
  });

  it('a watch nobody took is stopped by its host, and can no longer be taken', () => {
    const w = scripted();
    const watch = prestartWatch(w.watch, '/ws/c');
    watch.stop();
    assert.equal(w.stopped, 1);
    assert.equal(takePrestartedWatch('/ws/c', () => undefined), undefined);
  });

  it("on the real disk: a file written before the take reaches the engine's node watcher; another node watcher does not take it", async () => {
    const root = mkdtempSync(join(tmpdir(), 'prestarted-watch-'));
    roots.push(root);
    writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
    const watch = prestartWatch(nodeWorkspaceWatch(), root);
    writeFileSync(join(root, 'a.ts'), 'export const a = 2;\n');
    // the watcher classifies and delivers on later turns of the event loop (inotify, then a stat)
    await new Promise((r) => setTimeout(r, 300));
    const other: FileChange[] = [];
    const stopOther = nodeWorkspaceWatch()(root, (changes) => other.push(...changes));
    const got: FileChange[] = [];
    const stop = nodeWorkspaceWatch({ takePrestarted: true })(root, (changes) => got.push(...changes));
    try {
      assert.equal(watch.taken, true);
      assert.ok(
        got.some((c) => c.path === join(root, 'a.ts')),
        `the write before the take was handed over: ${JSON.stringify(got)}`,
      );
      assert.deepEqual(other, [], 'a watcher of another consumer started after the write saw nothing of it');
    } finally {
      stop();
      stopOther();
    }
  });
});
