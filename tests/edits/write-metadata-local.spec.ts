/**
 * The write path's metadata rules on the REAL local disk: the real writer with its default probe
 * (`node:fs` `stat`), over the real dsh-fs-sandbox / dsh-fs-local. A chmod 444 file and a
 * hard-linked file are refused with their bytes, mode and links untouched; a file owned by
 * another user keeps its owner and mode through an edit (needs root to give the file away).
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, linkSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recoverAtStart } from '../../src/edits/startup-recovery.ts';
import { describe, it } from 'node:test';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { mountHarness } from '../support/harness-mount.ts';
import { fileEdits, replace, workspaceEdit } from './workspace-fixture.ts';
import { journalOf, plantJournal } from './journal-fixture.ts';
import { failure, useWriterBed } from './writer-bed.ts';

const bed = useWriterBed();
const A = 'const a = 1;\r\nexport { a };\r\n';
const B = 'import { a } from "./a";\nconsole.log(a);\n';
const isRoot = process.getuid?.() === 0;

describe('write metadata on the local disk', () => {
  it('refuses a chmod 444 file: no byte of either file written, mode unchanged', async () => {
    chmodSync(bed.ws.path('b.ts'), 0o444);
    const error = await failure(bed.writer.apply(bed.request(bed.renameA())));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(error.details['reason'], 'read-only-file');
    assert.deepEqual(error.details.paths, [bed.ws.path('b.ts')]);
    assert.equal(bed.ws.read('a.ts'), A);
    assert.equal(bed.ws.read('b.ts'), B);
    assert.equal(statSync(bed.ws.path('b.ts')).mode & 0o7777, 0o444);
  });

  it('refuses a hard-linked file: both names keep the old text and stay one inode', async () => {
    linkSync(bed.ws.path('a.ts'), bed.ws.path('a-link.ts'));
    const error = await failure(bed.writer.apply(bed.request(bed.renameA())));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(error.details['reason'], 'hard-link');
    assert.deepEqual(error.details.paths, [bed.ws.path('a.ts')]);
    assert.equal(bed.ws.read('a.ts'), A);
    assert.equal(bed.ws.read('a-link.ts'), A);
    assert.equal(bed.ws.read('b.ts'), B);
    assert.equal(statSync(bed.ws.path('a.ts')).ino, statSync(bed.ws.path('a-link.ts')).ino);
    assert.equal(statSync(bed.ws.path('a.ts')).nlink, 2);
  });

  it('keeps the owner (1000:1000) and the mode of a file owned by another user through an edit', { skip: !isRoot && 'needs root to chown' }, async () => {
    for (const name of ['a.ts', 'b.ts']) {
      chownSync(bed.ws.path(name), 1000, 1000);
      chmodSync(bed.ws.path(name), 0o640);
    }
    const result = await bed.writer.apply(bed.request(bed.renameA()));
    assert.equal(result.files.length, 2);
    for (const name of ['a.ts', 'b.ts']) {
      const info = statSync(bed.ws.path(name));
      assert.deepEqual([info.uid, info.gid, info.mode & 0o7777], [1000, 1000, 0o640], `${name}: owner and mode`);
    }
    assert.equal(bed.ws.read('a.ts'), 'const value = 1;\r\nexport { value };\r\n');
    // the version after the chown is the one the writer knows: a second edit on top is not a conflict
    await bed.writer.apply(bed.request(workspaceEdit(fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 5, 'let')))));
    assert.equal(bed.ws.read('a.ts'), 'let value = 1;\r\nexport { value };\r\n');
    assert.equal(statSync(bed.ws.path('a.ts')).uid, 1000);
  });

  it('keeps the owner through a rollback restore', { skip: !isRoot && 'needs root to chown' }, async () => {
    chownSync(bed.ws.path('a.ts'), 1000, 1000);
    bed.saveBeforeWrite('b.ts', 'changed by the user\n');
    const error = await failure(bed.writer.apply(bed.request(bed.renameA())));
    assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
    assert.deepEqual(error.details['restored'], [bed.ws.path('a.ts')]);
    assert.equal(bed.ws.read('a.ts'), A);
    assert.deepEqual([statSync(bed.ws.path('a.ts')).uid, statSync(bed.ws.path('a.ts')).gid], [1000, 1000]);
  });

  it('the journal records the owner; replaying it after a crash puts the original text AND owner back', { skip: !isRoot && 'needs root to chown' }, async () => {
    chownSync(bed.ws.path('a.ts'), 1000, 1000);
    chmodSync(bed.ws.path('a.ts'), 0o640);
    // a real edit records the owner in the journal while it writes
    const seen: unknown[] = [];
    const fs = bed.h.ctx.fs;
    const spying = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          if (String(args[0].targetKey).endsWith('a.ts')) seen.push(await journalOf(bed.store, bed.ws.root));
          return fs.writeText(...args);
        },
      },
    }) as typeof fs;
    await new FsWorkspaceWriter(bed.h.ctx, spying).apply(bed.request(bed.renameA()));
    const recorded = (seen[0] as { files: Array<{ path: string; owner?: unknown }> }).files.find((f) => f.path === 'a.ts');
    assert.deepEqual(recorded?.owner, { uid: 1000, gid: 1000, mode: statSync(bed.ws.path('a.ts')).mode });

    // a crash: our text is on disk, replaced by rename (so owned by root now), the journal says "writing"
    const after = 'const value = 1;\r\nexport { value };\r\n';
    writeFileSync(join(bed.ws.root, 'staged'), after);
    renameSync(join(bed.ws.root, 'staged'), bed.ws.path('a.ts'));
    assert.equal(statSync(bed.ws.path('a.ts')).uid, 0);
    await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after, owner: { uid: 1000, gid: 1000, mode: 0o100640 } }]);
    const lines: string[] = [];
    const reports = await recoverAtStart(bed.h.ctx.fs, [bed.ws.root], { report: (line) => lines.push(line) });
    assert.deepEqual(reports[0]?.restored, [bed.ws.path('a.ts')], lines.join('\n'));
    assert.equal(bed.ws.read('a.ts'), A);
    const info = statSync(bed.ws.path('a.ts'));
    assert.deepEqual([info.uid, info.gid, info.mode & 0o7777], [1000, 1000, 0o640]);
  });

  it('keeps the owner through the plain local backend too (dsh-fs-local, no sandbox)', { skip: !isRoot && 'needs root to chown' }, async () => {
    const local = await mountHarness({ mode: 'workspace-write', workspace: bed.ws.root, fs: 'local' });
    try {
      chownSync(bed.ws.path('b.ts'), 1000, 1000);
      const writer = new FsWorkspaceWriter(local.ctx, local.ctx.fs);
      await writer.apply({ root: bed.ws.root, edit: workspaceEdit(fileEdits(bed.ws.path('b.ts'), replace(1, 0, 1, 0, '// x\n'))) });
      assert.equal(readFileSync(bed.ws.path('b.ts'), 'utf8'), 'import { a } from "./a";\n// x\nconsole.log(a);\n');
      assert.deepEqual([statSync(bed.ws.path('b.ts')).uid, statSync(bed.ws.path('b.ts')).gid], [1000, 1000]);
    } finally {
      await local.dispose();
    }
  });
});
