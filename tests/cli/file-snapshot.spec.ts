/**
 * {@link takeFileSnapshot} on the real disk: a write after the snapshot, even one that keeps the
 * size and the mtime, gives another version; a file replaced by another gives another version;
 * non-script files are not taken; a missing file has none.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { takeFileSnapshot } from '../../src/cli/file-snapshot.ts';

const dir = mkdtempSync(join(tmpdir(), 'dsh-file-snapshot-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('takeFileSnapshot', () => {
  it('a rewrite with the same size and mtime still changes the version (ctime); an unchanged file keeps it', async () => {
    const a = join(dir, 'a.ts');
    const b = join(dir, 'b.ts');
    writeFileSync(a, 'export const a = 1;\n');
    writeFileSync(b, 'export const b = 1;\n');
    const snapshot = takeFileSnapshot([a, b, join(dir, 'notes.md'), join(dir, 'gone.ts')]);
    assert.deepEqual([...snapshot.versions.keys()].sort(), [a, b, join(dir, 'gone.ts')].sort(), 'script files only');
    assert.equal(snapshot.versions.get(join(dir, 'gone.ts')), undefined);
    const { atime, mtime } = statSync(a);
    // the coarse file-system clock may not tick within one write: wait past a tick
    await delay(20);
    writeFileSync(a, 'export const a = 2;\n');
    utimesSync(a, atime, mtime);
    const now = await snapshot.now([a, b]);
    assert.notEqual(now.get(a), snapshot.versions.get(a));
    assert.equal(now.get(b), snapshot.versions.get(b));
  });

  it('a file replaced by another (rename over it) changes the version', async () => {
    const c = join(dir, 'c.ts');
    writeFileSync(c, 'export const c = 1;\n');
    const snapshot = takeFileSnapshot([c]);
    writeFileSync(join(dir, 'c.tmp'), 'export const c = 1;\n');
    renameSync(join(dir, 'c.tmp'), c);
    assert.notEqual((await snapshot.now([c])).get(c), snapshot.versions.get(c));
  });
});
