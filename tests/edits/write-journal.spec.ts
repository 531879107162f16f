/**
 * Issue 10 on the real harness fs: the write journal (originals on disk before the first file,
 * idle after the last), recovery of an interrupted edit (crash simulated by a journal of a dead
 * process and a staging leftover), a rollback that cannot finish keeping the originals for the
 * next write, the editor's pin, a save landing between the seam's check and its replace, and the
 * drain of in-flight writes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recoverWrites, type RecoveryReport } from '../../src/edits/journal-recovery.ts';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { drainWrites, writesInFlight } from '../../src/edits/write-drain.ts';
import { journalPath, sha256Hex } from '../../src/edits/write-journal.ts';
import { failure, useWriterBed } from './writer-bed.ts';

const A = 'const a = 1;\r\nexport { a };\r\n';
const B = 'import { a } from "./a";\nconsole.log(a);\n';
const A_AFTER = 'const value = 1;\r\nexport { value };\r\n';
const B_AFTER = 'import { value } from "./a";\nconsole.log(value);\n';
/** A pid no process has (above Linux's pid_max limit of 2^22). */
const DEAD_PID = 4_194_305;

function journalOf(root: string): Record<string, unknown> {
  return JSON.parse(readFileSync(journalPath(root), 'utf8')) as Record<string, unknown>;
}

/** Writes a journal as a process that died mid-edit would have left it. */
function crashedJournal(root: string, files: Array<{ path: string; before: string | null; bom?: boolean; after: string }>): void {
  mkdirSync(join(root, '.dsh-lsp-actions'), { recursive: true });
  const entry = {
    format: 'dsh-lsp-actions/write-journal@1',
    state: 'writing',
    pid: DEAD_PID,
    startedAt: new Date().toISOString(),
    root,
    files: files.map((file) => ({ path: file.path, before: file.before, bom: file.bom ?? false, afterSha256: sha256Hex(file.after) })),
  };
  writeFileSync(journalPath(root), JSON.stringify(entry));
}

describe('write journal and recovery (issue 10)', () => {
  const bed = useWriterBed();

  it('holds every original while the edit is written and is idle afterwards', async () => {
    const fs = bed.h.ctx.fs;
    const seen: Array<Record<string, unknown>> = [];
    const spying = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          seen.push(journalOf(bed.ws.root));
          return fs.writeText(...args);
        },
      },
    }) as typeof fs;
    await new FsWorkspaceWriter(bed.h.ctx, spying).apply(bed.request(bed.renameA()));
    assert.equal(seen.length, 2);
    for (const journal of seen) {
      assert.equal(journal['state'], 'writing');
      assert.equal(journal['pid'], process.pid);
      const files = journal['files'] as Array<{ path: string; before: string; afterSha256: string }>;
      assert.deepEqual(files.map((f) => [f.path, f.before]), [[bed.ws.path('a.ts'), A], [bed.ws.path('b.ts'), B]]);
      assert.equal(files[0]?.afterSha256, sha256Hex(A_AFTER));
    }
    assert.equal(journalOf(bed.ws.root)['state'], 'idle');
    assert.equal(bed.ws.read('a.ts'), A_AFTER);
    assert.equal(bed.ws.read('b.ts'), B_AFTER);
  });

  it('recovers a crash: files holding our write get their original back, staging leftovers go, the journal is reset', async () => {
    bed.ws.write('a.ts', A_AFTER);
    bed.ws.write('b.ts', B);
    bed.ws.write('c.ts', 'theirs\n');
    crashedJournal(bed.ws.root, [
      { path: bed.ws.path('a.ts'), before: A, after: A_AFTER },
      { path: bed.ws.path('b.ts'), before: B, after: B_AFTER },
      { path: bed.ws.path('c.ts'), before: 'c original\n', after: 'c ours\n' },
    ]);
    const staging = join(bed.ws.root, `.b.ts.${DEAD_PID}.0f0e0d0c-0b0a-4908-8706-050403020100.tmpdir`);
    mkdirSync(staging);
    writeFileSync(join(staging, 'b.ts.tmp'), B_AFTER);
    const removed: string[] = [];
    const report = await recoverWrites(bed.h.ctx.fs, bed.ws.root, {
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
    assert.equal(journalOf(bed.ws.root)['state'], 'idle');
    assert.deepEqual(readdirSync(bed.ws.root).filter((name) => name.endsWith('.tmpdir')), []);
  });

  it('the writer recovers before its first write in a root and says so', async () => {
    bed.ws.write('a.ts', A_AFTER);
    crashedJournal(bed.ws.root, [{ path: bed.ws.path('a.ts'), before: A, after: A_AFTER }]);
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
    assert.equal(journalOf(bed.ws.root)['state'], 'writing', 'the original is still held');
    broken = false;
    const reports: RecoveryReport[] = [];
    const next = new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs, { onRecovered: (report) => reports.push(report) });
    await next.apply(bed.request({ steps: [] }));
    assert.deepEqual(reports.map((r) => r.restored), [[bed.ws.path('a.ts')]]);
    assert.equal(bed.ws.read('a.ts'), A);
    assert.equal(journalOf(bed.ws.root)['state'], 'idle');
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
    assert.equal(journalOf(bed.ws.root)['state'], 'idle');
  });
});
