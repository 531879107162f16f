/**
 * nodeWorkspaceWatch when watching fails (issue 18): an `fs.watch` that throws ENOSPC/EMFILE or
 * a watcher that reports an error makes watching degraded — said once, with a sweep that finds
 * every change since; a directory that merely vanished is no failure.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { watch as realWatch, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { nodeWorkspaceWatch, type NodeWatchOptions } from '../../src/documents/node-workspace-watcher.ts';
import type { FileChange } from '../../src/lsp/watched-files.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'lsp-watch-'));
  dirs.push(root);
  mkdirSync(join(root, 'src', 'lib'), { recursive: true });
  writeFileSync(join(root, 'src', 'main.ts'), 'main\n');
  writeFileSync(join(root, 'src', 'lib', 'dep.ts'), 'dep\n');
  return root;
}

const errno = (code: string): Error => Object.assign(new Error(`${code}: watch failed`), { code });

interface Started {
  changes: FileChange[];
  degraded: Array<{ reason: string; sweep: (() => Promise<void>) | undefined }>;
  stop: () => void;
}

function start(root: string, options: NodeWatchOptions): Started {
  const changes: FileChange[] = [];
  const degraded: Started['degraded'] = [];
  const stop = nodeWorkspaceWatch(options)(root, (c) => changes.push(...c), { onDegraded: (reason, sweep) => degraded.push({ reason, sweep }) });
  return { changes, degraded, stop };
}

describe('nodeWorkspaceWatch when watching fails', () => {
  it('ENOSPC past the first watch: degraded once, and the sweep finds every change', async () => {
    const root = tree();
    let used = 0;
    const w = start(root, {
      watch: (dir, listener) => {
        if (used++ >= 1) throw errno('ENOSPC');
        return realWatch(dir, listener);
      },
    });
    try {
      assert.equal(w.degraded.length, 1, 'said once, though two directories failed');
      assert.match(w.degraded[0]?.reason ?? '', /cannot watch \S+: ENOSPC \(the inotify watch limit/);
      const sweep = w.degraded[0]?.sweep;
      assert.ok(sweep);
      await sweep();
      assert.equal(w.changes.length, 0, 'nothing changed yet');
      writeFileSync(join(root, 'src', 'lib', 'dep.ts'), 'dep changed, longer\n');
      writeFileSync(join(root, 'src', 'lib', 'new.ts'), 'new\n');
      unlinkSync(join(root, 'src', 'main.ts'));
      await sweep();
      const seen = w.changes.map((c) => `${c.kind} ${c.path.slice(root.length)}`).sort();
      assert.deepEqual(seen, ['changed /src/lib/dep.ts', 'created /src/lib/new.ts', 'deleted /src/main.ts']);
    } finally {
      w.stop();
    }
  });

  it('EMFILE for the root itself: degraded', () => {
    const root = tree();
    const w = start(root, {
      watch: () => {
        throw errno('EMFILE');
      },
    });
    w.stop();
    assert.equal(w.degraded.length, 1);
    assert.match(w.degraded[0]?.reason ?? '', /EMFILE/);
  });

  it('a watcher reporting an error while its directory exists: degraded', () => {
    const root = tree();
    const fakes: EventEmitter[] = [];
    const w = start(root, {
      watch: () => {
        const fake = Object.assign(new EventEmitter(), { close: () => undefined });
        fakes.push(fake);
        return fake as unknown as FSWatcher;
      },
    });
    assert.equal(w.degraded.length, 0);
    fakes[0]?.emit('error', errno('ENOSPC'));
    w.stop();
    assert.equal(w.degraded.length, 1);
    assert.match(w.degraded[0]?.reason ?? '', /the watcher of \S+ failed: ENOSPC/);
  });

  it('a directory that vanished while being watched is no failure', () => {
    const root = tree();
    const w = start(root, {
      watch: (dir, listener) => {
        if (dir.endsWith('lib')) throw errno('ENOENT');
        return realWatch(dir, listener);
      },
    });
    w.stop();
    assert.deepEqual(w.degraded, []);
  });
});
