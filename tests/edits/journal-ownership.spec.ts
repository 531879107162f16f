/**
 * Issue 18, item 1 (the journal itself): it is never followed through a link, a stale journal
 * (dead writer, a live pid that is not its writer) or garbage never blocks writes, a running
 * writer's journal is a clear `journal-busy` error naming the file, a second crash during
 * recovery leaves no staging folder, and a journal that cannot be written is a coded failure
 * with nothing written.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recoverWrites } from '../../src/edits/journal-recovery.ts';
import { JournalStore } from '../../src/edits/journal-store.ts';
import { findInterruptedEdit, recoverAtStart } from '../../src/edits/startup-recovery.ts';
import { mountHarness } from '../support/harness-mount.ts';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { fileEdits, replace, workspaceEdit } from './workspace-fixture.ts';
import { DEAD_PID, folderOf, journalOf, plantJournal, plantText } from './journal-fixture.ts';
import { failure, useWriterBed } from './writer-bed.ts';

const A = 'const a = 1;\r\nexport { a };\r\n';
const A_AFTER = 'const value = 1;\r\nexport { value };\r\n';
const B_AFTER = 'import { value } from "./a";\nconsole.log(value);\n';
const hasProc = existsSync('/proc/self/stat');

/** @returns the start time (clock ticks since boot) of a running process */
function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

describe('the journal is owned: no links, never stuck, one writer (issue 18)', () => {
  const bed = useWriterBed();
  const quiet = (): FsWorkspaceWriter => new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs, { onRecovered: () => undefined });

  it('a journal that is a symbolic link is never read or written through; writes go on', async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-outside-')));
    try {
      const victim = join(outside, 'victim.json');
      writeFileSync(victim, 'precious\n');
      const path = bed.store.pathOf(await folderOf(bed.store, bed.ws.root));
      mkdirSync(bed.store.directory, { recursive: true, mode: 0o700 });
      symlinkSync(victim, path);
      const notes: string[] = [];
      const writer = new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs, { onRecovered: (report) => notes.push(...report.notes) });
      await writer.apply(bed.request(bed.renameA()));
      assert.equal(readFileSync(victim, 'utf8'), 'precious\n', 'the journal was written through the link');
      assert.equal(bed.ws.read('a.ts'), A_AFTER);
      assert.match(notes.join('\n'), /is a symbolic link.*set aside/);
      const aside = readdirSync(bed.store.directory).filter((name) => name.includes('set-aside'));
      assert.equal(aside.length, 1);
      assert.ok(lstatSync(join(bed.store.directory, aside[0] ?? '')).isSymbolicLink(), 'the link itself was renamed aside');
      assert.equal(existsSync(path), false, 'the journal is gone after the edit');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('garbage (not JSON, an old format, a directory) never blocks writes: set aside with a note', async () => {
    const folder = await folderOf(bed.store, bed.ws.root);
    for (const plant of [
      () => plantText(bed.store, folder, 'garbage{'),
      () => plantText(bed.store, folder, JSON.stringify({ format: 'dsh-lsp-actions/write-journal@1', state: 'writing', pid: 1, root: '/', files: [] })),
      () => mkdirSync(bed.store.pathOf(folder)),
    ]) {
      bed.ws.write('a.ts', A);
      plant();
      const notes: string[] = [];
      await new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs, { onRecovered: (report) => notes.push(...report.notes) }).apply(bed.request(bed.renameA()));
      assert.equal(bed.ws.read('a.ts'), A_AFTER);
      assert.match(notes.join('\n'), /was not replayed .*set aside as/);
      bed.ws.write('b.ts', 'import { a } from "./a";\nconsole.log(a);\n');
    }
  });

  it('a live pid that is not the journal\'s writer (reused pid, pid 1) is stale: the crash is recovered, writes go on', { skip: !hasProc && 'needs /proc' }, async () => {
    const sleeper = spawn('sleep', ['60']);
    try {
      assert.ok(sleeper.pid);
      for (const writer of [{ pid: sleeper.pid, startTicks: '1' }, { pid: 1, startTicks: '1' }]) {
        bed.ws.write('a.ts', A_AFTER);
        const entry = await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
        plantText(bed.store, entry.folder, JSON.stringify({ ...entry, writer: { ...entry.writer, ...writer } }));
        await quiet().apply(bed.request({ steps: [] }));
        assert.equal(bed.ws.read('a.ts'), A, `pid ${writer.pid}: the crash was not recovered`);
        assert.equal(await journalOf(bed.store, bed.ws.root), undefined);
      }
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a running writer\'s journal is a clear journal-busy error naming the file; once it is gone, the crash is recovered', { skip: !hasProc && 'needs /proc' }, async () => {
    const sleeper = spawn('sleep', ['60']);
    const exited = new Promise((resolve) => sleeper.once('exit', resolve));
    try {
      assert.ok(sleeper.pid);
      bed.ws.write('a.ts', A_AFTER);
      const entry = await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
      plantText(bed.store, entry.folder, JSON.stringify({ ...entry, writer: { ...entry.writer, pid: sleeper.pid, startTicks: startTicks(sleeper.pid) } }));
      const error = await failure(quiet().apply(bed.request(bed.renameA())));
      assert.equal(error.code, 'LSP_ACTION_CONFLICT');
      assert.equal(error.details['reason'], 'journal-busy');
      assert.match(error.message, new RegExp(`pid ${sleeper.pid}.*delete its journal ${bed.store.pathOf(entry.folder).replaceAll('.', '\\.')}`));
      assert.equal(bed.ws.read('a.ts'), A_AFTER, 'a running edit was not touched');
      sleeper.kill('SIGKILL');
      await exited;
      await quiet().apply(bed.request({ steps: [] }));
      assert.equal(bed.ws.read('a.ts'), A);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a second crash during recovery leaves no staging folder behind (the recovering process is remembered)', async () => {
    bed.ws.write('a.ts', A_AFTER);
    await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
    // the recovery dies inside the seam's replace: its staging folder exists, empty, named with its
    // pid, and the journal is as it was at that moment (a SIGKILL runs no cleanup)
    const fs = bed.h.ctx.fs;
    const staging = join(bed.ws.root, `.a.ts.${process.pid}.0f0e0d0c-0b0a-4908-8706-050403020100.tmpdir`);
    let atDeath: { writer: { pid: number }; earlierPids: number[] } | undefined;
    const dying = Object.create(fs, {
      writeText: {
        value: async () => {
          mkdirSync(staging);
          atDeath = (await journalOf(bed.store, bed.ws.root)) as typeof atDeath;
          throw Object.assign(new Error('killed'), { code: 'FS_IO_ERROR' });
        },
      },
    }) as typeof fs;
    await recoverWrites(dying, bed.ws.root, { store: bed.store });
    assert.equal(atDeath?.writer.pid, process.pid, 'the recovery claimed the journal before touching files');
    assert.deepEqual(atDeath?.earlierPids, [DEAD_PID]);
    // what the crash left: that journal, its writer no longer running (same pid, another start)
    const folder = await folderOf(bed.store, bed.ws.root);
    plantText(bed.store, folder, JSON.stringify({ ...atDeath, writer: { ...atDeath?.writer, startTicks: '1' } }));
    const lines: string[] = [];
    await recoverAtStart(fs, [bed.ws.root], { store: bed.store, removeStaging: async (path) => rmSync(path, { recursive: true }), report: (line) => lines.push(line) });
    assert.equal(existsSync(staging), false, `staging left: ${lines.join('\n')}`);
    assert.equal(bed.ws.read('a.ts'), A);
    assert.equal(await journalOf(bed.store, bed.ws.root), undefined);
  });

  it('a journal that cannot be written is LSP_ACTION_WRITE_FAILED (journal-unwritable), nothing written', async () => {
    const blocker = join(mkdtempSync(join(tmpdir(), 'lsp-actions-state-file-')), 'not-a-dir');
    writeFileSync(blocker, '');
    const previous = process.env['DSH_LSP_ACTIONS_STATE_DIR'];
    process.env['DSH_LSP_ACTIONS_STATE_DIR'] = blocker;
    try {
      const error = await failure(new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs).apply(bed.request(bed.renameA())));
      assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
      assert.equal(error.details['reason'], 'journal-unwritable');
      assert.match(error.message, /DSH_LSP_ACTIONS_STATE_DIR/);
      assert.equal(bed.ws.read('a.ts'), A);
      assert.notEqual(bed.ws.read('b.ts'), B_AFTER);
    } finally {
      if (previous === undefined) delete process.env['DSH_LSP_ACTIONS_STATE_DIR'];
      else process.env['DSH_LSP_ACTIONS_STATE_DIR'] = previous;
      rmSync(join(blocker, '..'), { recursive: true, force: true });
    }
  });

  it('a root that is not a folder on this disk (a remote fs world): written without a journal, and said once', async () => {
    const fs = bed.h.ctx.fs;
    // what a remote world looks like from here: the root has no local identity
    class RemoteWorld extends JournalStore {
      override async identify(): Promise<undefined> {
        return undefined;
      }
    }
    const store = new RemoteWorld(bed.store.directory.replace(/\/journals$/, ''));
    const lines: string[] = [];
    let writes = 0;
    const counting = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          writes += 1;
          return fs.writeText(...args);
        },
      },
    }) as typeof fs;
    const writer = new FsWorkspaceWriter(bed.h.ctx, counting, { journal: store, onNoJournal: (line) => lines.push(line) });
    await writer.apply(bed.request(bed.renameA()));
    await writer.apply(bed.request(workspaceEdit(fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 5, 'let')))));
    assert.equal(bed.ws.read('b.ts'), B_AFTER);
    assert.equal(writes, 3);
    assert.deepEqual(await bed.store.list(), [], 'no journal was written');
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /not a folder on this machine's disk.*without a crash journal/);
  });

  it('an edit of this process still being written (the same folder named through a link, another root lock) is busy, not a leftover', async () => {
    const fs = bed.h.ctx.fs;
    const gate: { open?: () => void } = {};
    const opened = new Promise<void>((resolve) => (gate.open = resolve));
    const arrived: { reached?: () => void } = {};
    const writing = new Promise<void>((resolve) => (arrived.reached = resolve));
    const slow = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          arrived.reached?.();
          await opened;
          return fs.writeText(...args);
        },
      },
    }) as typeof fs;
    const link = join(realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-link-'))), 'ws');
    symlinkSync(bed.ws.root, link);
    try {
      const first = new FsWorkspaceWriter(bed.h.ctx, slow).apply(bed.request(bed.renameA()));
      await writing;
      const second = quiet();
      const error = await failure(second.apply({ ...bed.request({ steps: [] }), root: link }));
      assert.equal(error.code, 'LSP_ACTION_CONFLICT');
      assert.equal(error.details['reason'], 'journal-busy');
      gate.open?.();
      await first;
      assert.equal(bed.ws.read('a.ts'), A_AFTER);
      assert.equal(bed.ws.read('b.ts'), B_AFTER);
    } finally {
      gate.open?.();
      rmSync(join(link, '..'), { recursive: true, force: true });
    }
  });

  it('a recovery that cannot restore (a read-only serve) lets go of the journal: nobody waits on it, the next writable start finishes it', async () => {
    bed.ws.write('a.ts', A_AFTER);
    await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
    const readOnly = await mountHarness({ mode: 'read-only', workspace: bed.ws.root });
    try {
      const lines: string[] = [];
      await recoverAtStart(readOnly.ctx.fs, [bed.ws.root], { store: bed.store, report: (line) => lines.push(line) });
      assert.match(lines.join('\n'), /NOT restored .*a\.ts \(restoring it failed: .*read-only.*the journal is kept/);
      const kept = (await journalOf(bed.store, bed.ws.root)) as { state: string; earlierPids: number[] };
      assert.equal(kept.state, 'interrupted', 'a live process that cannot finish it must not hold it');
      assert.ok(kept.earlierPids.includes(process.pid));
      const { edit } = await findInterruptedEdit(bed.h.ctx.fs, bed.ws.root, bed.store);
      assert.equal(edit?.running, false, 'check would wait for a process that is not writing');
      await quiet().apply(bed.request({ steps: [] }));
      assert.equal(bed.ws.read('a.ts'), A);
      assert.equal(await journalOf(bed.store, bed.ws.root), undefined);
    } finally {
      await readOnly.dispose();
    }
  });
});
