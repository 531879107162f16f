/**
 * Issue 10 on the real harness fs: the write journal (originals on disk before the first file,
 * idle after the last), recovery of an interrupted edit (crash simulated by a journal of a dead
 * process and a staging leftover), a rollback that cannot finish keeping the originals for the
 * next write, the editor's pin, a save landing between the seam's check and its replace, and the
 * drain of in-flight writes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recoverWrites, type RecoveryReport } from '../../src/edits/journal-recovery.ts';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { drainWrites, writesInFlight } from '../../src/edits/write-drain.ts';
import { sha256Hex } from '../../src/edits/write-journal.ts';
import { DEAD_PID, journalOf, plantJournal } from './journal-fixture.ts';
import { failure, useWriterBed } from './writer-bed.ts';

const A = 'const a = 1;\r\nexport { a };\r\n';
const B = 'import { a } from "./a";\nconsole.log(a);\n';
const A_AFTER = 'const value = 1;\r\nexport { value };\r\n';
const B_AFTER = 'import { value } from "./a";\nconsole.log(value);\n';
describe('write journal and recovery (issue 10)', () => {
  const bed = useWriterBed();

  it('holds every original while the edit is written, outside the tree, and is gone afterwards', async () => {
    const fs = bed.h.ctx.fs;
    const seen: Array<Record<string, unknown> | undefined> = [];
    const spying = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          seen.push(await journalOf(bed.store, bed.ws.root));
          return fs.writeText(...args);
        },
      },
    }) as typeof fs;
    await new FsWorkspaceWriter(bed.h.ctx, spying).apply(bed.request(bed.renameA()));
    assert.equal(seen.length, 2);
    for (const journal of seen) {
      assert.ok(journal !== undefined, 'a journal exists while the files are written');
      assert.equal(journal['state'], 'writing');
      assert.equal((journal['writer'] as { pid: number }).pid, process.pid);
      assert.equal((journal['folder'] as { realPath: string }).realPath, bed.ws.root);
      const files = journal['files'] as Array<{ path: string; before: string; afterSha256: string }>;
      assert.deepEqual(files.map((f) => [f.path, f.before]), [['a.ts', A], ['b.ts', B]]);
      assert.equal(files[0]?.afterSha256, sha256Hex(A_AFTER));
    }
    assert.equal(await journalOf(bed.store, bed.ws.root), undefined);
    assert.deepEqual(readdirSync(bed.ws.root).sort(), ['a.ts', 'b.ts'], 'nothing of ours in the tree');
    assert.equal(bed.ws.read('a.ts'), A_AFTER);
    assert.equal(bed.ws.read('b.ts'), B_AFTER);
  });

  it('recovers a crash: files holding our write get their original back, staging leftovers go, the journal is reset', async () => {
    bed.ws.write('a.ts', A_AFTER);
    bed.ws.write('b.ts', B);
    bed.ws.write('c.ts', 'theirs\n');
    await plantJournal(bed.store, bed.ws.root, [
      { path: 'a.ts', before: A, after: A_AFTER },
      { path: 'b.ts', before: B, after: B_AFTER },
      { path: 'c.ts', before: 'c original\n', after: 'c ours\n' },
    ]);
    const staging = join(bed.ws.root, `.b.ts.${DEAD_PID}.0f0e0d0c-0b0a-4908-8706-050403020100.tmpdir`);
    mkdirSync(staging);
    writeFileSync(join(staging, 'b.ts.tmp'), B_AFTER);
    const removed: string[] = [];
    const report = await recoverWrites(bed.h.ctx.fs, bed.ws.root, {
      store: bed.store,
      removeStaging: async (path) => {
        removed.push(path);
        rmSync(path, { recursive: true, force: true });
      },
    });
    assert.equal(report.found, true);
    assert.deepEqual(report.restored, [bed.ws.path('a.ts')]);
    assert.deepEqual(report.untouched, [bed.ws.path('b.ts')]);
    assert.deepEqual(report.unrestored.map((u) => u.path), [bed.ws.path('c.ts')]);
    assert.match(report.unrestored[0]?.reason ?? '', /changed by someone else/);
    assert.deepEqual(removed, [staging]);
    assert.equal(report.cleared, true);
    assert.equal(bed.ws.read('a.ts'), A, 'byte-exact, CRLF kept');
    assert.equal(bed.ws.read('b.ts'), B);
    assert.equal(bed.ws.read('c.ts'), 'theirs\n', 'a change of someone else is kept');
    assert.equal(await journalOf(bed.store, bed.ws.root), undefined);
    assert.deepEqual(readdirSync(bed.ws.root).filter((name) => name.endsWith('.tmpdir')), []);
  });

  it('the writer recovers before its first write in a root and says so', async () => {
    bed.ws.write('a.ts', A_AFTER);
    await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
    const reports: RecoveryReport[] = [];
    const writer = new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs, { onRecovered: (report) => reports.push(report) });
    await writer.apply(bed.request(bed.renameA()));
    assert.deepEqual(reports.map((r) => r.restored), [[bed.ws.path('a.ts')]]);
    assert.equal(bed.ws.read('a.ts'), A_AFTER, 'recovered to the original, then the new edit applied on it');
    assert.equal(bed.ws.read('b.ts'), B_AFTER);
  });

  it('a rollback that cannot write keeps the originals in the journal; the next write puts them back first', async () => {
    const fs = bed.h.ctx.fs;
    let calls = 0;
    let broken = true;
    const failing = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          calls += 1;
          // 1: a.ts written; 2: b.ts fails (disk full); 3+: the restores of a.ts fail too
          if (broken && calls >= 2) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'FS_IO_ERROR' });
          return fs.writeText(...args);
        },
      },
    }) as typeof fs;
    const writer = new FsWorkspaceWriter(bed.h.ctx, failing, { onRecovered: () => undefined });
    const error = await failure(writer.apply(bed.request(bed.renameA())));
    assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
    assert.deepEqual(error.details.restored, []);
    assert.deepEqual((error.details.unrestored as Array<{ path: string }>).map((u) => u.path), [bed.ws.path('a.ts')]);
    assert.match(error.message, /kept in the write journal/);
    assert.equal(bed.ws.read('a.ts'), A_AFTER, 'the failed restore left our write');
    assert.equal((await journalOf(bed.store, bed.ws.root))?.['state'], 'interrupted', 'the original is still held, let go of for whoever comes next');
    broken = false;
    const reports: RecoveryReport[] = [];
    const next = new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs, { onRecovered: (report) => reports.push(report) });
    await next.apply(bed.request({ steps: [] }));
    assert.deepEqual(reports.map((r) => r.restored), [[bed.ws.path('a.ts')]]);
    assert.equal(bed.ws.read('a.ts'), A);
    assert.equal(await journalOf(bed.store, bed.ws.root), undefined);
  });

  it('the editor pin: a basis that is not the text the editor saw is a conflict, nothing written', async () => {
    const pins = new Map([[bed.ws.path('a.ts'), sha256Hex('const a = 2;\r\nexport { a };\r\n')]]);
    const error = await failure(bed.writer.apply(bed.request(bed.renameA(), { pins })));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(error.details.reason, 'pin-mismatch');
    assert.equal(bed.ws.read('a.ts'), A);
    const good = new Map([[bed.ws.path('a.ts'), sha256Hex(A).toUpperCase()]]);
    await bed.writer.apply(bed.request(bed.renameA(), { pins: good }));
    assert.equal(bed.ws.read('a.ts'), A_AFTER);
  });

  it('a save the seam read after its version check (so our replace overwrote it) is put back and reported', async () => {
    const fs = bed.h.ctx.fs;
    let calls = 0;
    // The seam checks the version, then reads the file for its diff, then replaces it. A save in
    // between is what its `before` shows; reproduce that ordering exactly around the real write.
    const racing = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          calls += 1;
          const outcome = await fs.writeText(...args);
          return calls === 2 ? { ...outcome, before: 'user save of b\n' } : outcome;
        },
      },
    }) as typeof fs;
    const error = await failure(new FsWorkspaceWriter(bed.h.ctx, racing).apply(bed.request(bed.renameA())));
    assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
    assert.equal(error.details.causeCode, 'LSP_ACTION_CONFLICT');
    assert.deepEqual(error.details.restored, [bed.ws.path('b.ts'), bed.ws.path('a.ts')]);
    assert.equal(bed.ws.read('b.ts'), 'user save of b\n', 'the overwritten save is back');
    assert.equal(bed.ws.read('a.ts'), A);
  });

  it('drainWrites resolves only after a write in progress has committed', async () => {
    const fs = bed.h.ctx.fs;
    const opener: { open?: () => void } = {};
    const gate = new Promise<void>((resolve) => {
      opener.open = resolve;
    });
    const slow = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          await gate;
          return fs.writeText(...args);
        },
      },
    }) as typeof fs;
    const writing = new FsWorkspaceWriter(bed.h.ctx, slow).apply(bed.request(bed.renameA()));
    while (writesInFlight() === 0) await new Promise((resolve) => setImmediate(resolve));
    let drained = false;
    const drain = drainWrites().then(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(drained, false);
    opener.open?.();
    await drain;
    await writing;
    assert.equal(bed.ws.read('b.ts'), B_AFTER, 'committed before the drain resolved');
    assert.equal(await journalOf(bed.store, bed.ws.root), undefined);
  });
});
