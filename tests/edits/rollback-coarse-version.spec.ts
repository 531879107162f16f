/**
 * Rolling back must not trust the version alone: on Linux a file's timestamps move in kernel
 * ticks (several ms), so a save of the same size right after our write can leave every field of
 * the seam's version as our write left it. A fake fs whose version never moves stands for that
 * collision, deterministically; the real-server race is `write-integrity.e2e.ts`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileSystem, FsTarget, FsVersion, FsWriteIntent } from '@deepseek-ai/dsh-fs';
import type { PreparedFile } from '../../src/edits/preflight.ts';
import { restoreWritten } from '../../src/edits/rollback.ts';

const VERSION = 'v-same' as FsVersion;

/** One file; every write keeps the same version, as a same-size save inside one tick does. */
function coarseFs(initial: string, onWrite?: (content: string) => void) {
  const file = { text: initial };
  const fs: Pick<FileSystem, 'writeText' | 'stat' | 'readText' | 'readBytes'> = {
    stat: () => Promise.resolve({ version: VERSION, type: 'file', size: Buffer.byteLength(file.text) }),
    readText: () => Promise.resolve(file.text),
    readBytes: () => Promise.resolve(new Uint8Array(Buffer.from(file.text))),
    writeText: (_target: FsTarget, content: string, expected?: FsWriteIntent) => {
      if (expected?.kind === 'replaceIfVersion' && expected.version !== VERSION) return Promise.reject(Object.assign(new Error('stale'), { code: 'FS_STALE_VERSION' }));
      onWrite?.(content);
      const before = file.text;
      file.text = content;
      return Promise.resolve({ operation: 'update' as const, version: VERSION, before });
    },
  } as unknown as Pick<FileSystem, 'writeText' | 'stat' | 'readText' | 'readBytes'>;
  return { fs, file };
}

const target = { displayPath: '/ws/a.ts', targetKey: '/ws/a.ts' } as unknown as FsTarget;
const prepared = (before: string, after: string): PreparedFile =>
  ({ target, path: '/ws/a.ts', snapshot: { exists: false }, before, after, bom: false, operation: 'update', editCount: 1, changed: true }) as PreparedFile;

describe('rollback under a version stamp that did not move', () => {
  it('a file that no longer holds our write keeps its new text, even though its version is ours', async () => {
    const { fs, file } = coarseFs('saved by the user\n');
    const report = await restoreWritten(fs, [{ file: prepared('original\n', 'ours\n'), version: VERSION }], undefined);
    assert.deepEqual(report.restored, []);
    assert.match(report.unrestored[0]?.reason ?? '', /changed by someone else/);
    assert.equal(file.text, 'saved by the user\n');
  });

  it('a save that lands between the look and the restore is put back, and wins', async () => {
    let raced = false;
    const state = coarseFs('ours\n', () => {
      // the user's save lands just before the seam reads for the restore
      if (!raced) {
        raced = true;
        state.file.text = 'saved by the user\n';
      }
    });
    const report = await restoreWritten(state.fs, [{ file: prepared('original\n', 'ours\n'), version: VERSION }], undefined);
    assert.deepEqual(report.restored, []);
    assert.match(report.unrestored[0]?.reason ?? '', /changed by someone else/);
    assert.equal(state.file.text, 'saved by the user\n');
  });

  it('a file that still holds our write is restored', async () => {
    const { fs, file } = coarseFs('ours\n');
    const report = await restoreWritten(fs, [{ file: prepared('original\n', 'ours\n'), version: VERSION }], undefined);
    assert.deepEqual(report.restored.map((r) => r.path), ['/ws/a.ts']);
    assert.equal(file.text, 'original\n');
  });
});
