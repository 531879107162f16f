/**
 * Issue 18, item 1 on the real harness fs: a journal replay finishes only our own interrupted
 * write, inside the folder it was written in. Each attack of the adversarial run is a crafted
 * journal; the judgement is the same every time — nothing outside the folder touched, nothing a
 * user changed reverted, no set-user-ID — and writes go on afterwards.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { recoverAtStart } from '../../src/edits/startup-recovery.ts';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { sha256Hex } from '../../src/edits/write-journal.ts';
import { mountHarness } from '../support/harness-mount.ts';
import { folderOf, journalOf, plantJournal, plantText } from './journal-fixture.ts';
import { useWriterBed } from './writer-bed.ts';

const A = 'const a = 1;\r\nexport { a };\r\n';
const B = 'import { a } from "./a";\nconsole.log(a);\n';
const A_AFTER = 'const value = 1;\r\nexport { value };\r\n';
const B_AFTER = 'import { value } from "./a";\nconsole.log(value);\n';
const VICTIM = 'the victim, never to be written\n';
const isRoot = process.getuid?.() === 0;

/**
 * @param path the file the journal names
 * @returns a journal naming the victim; its hash matches the victim, so only confinement stops the replay
 */
function evil(path: string): Parameters<typeof plantJournal>[2] {
  return [{ path, before: 'PWNED\n', after: VICTIM, owner: { uid: 1234, gid: 1234, mode: 0o104777 } }];
}

describe('journal replay is confined to our own write in its folder (issue 18)', () => {
  const bed = useWriterBed();
  let outside: string;
  let victim: string;
  beforeEach(() => {
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-outside-')));
    victim = join(outside, 'victim.ts');
    writeFileSync(victim, VICTIM, { mode: 0o644 });
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  /** Runs the start-up replay (serve's) and returns its lines. */
  async function serveStart(fs = bed.h.ctx.fs, roots = [bed.ws.root]): Promise<string[]> {
    const lines: string[] = [];
    await recoverAtStart(fs, roots, { store: bed.store, removeStaging: async (path) => rmSync(path, { recursive: true }), report: (line) => lines.push(line) });
    return lines;
  }

  function assertVictimUntouched(): void {
    const info = statSync(victim);
    assert.equal(readFileSync(victim, 'utf8'), VICTIM, 'the file outside was written');
    assert.equal(info.mode & 0o7777, 0o644, 'its mode was changed');
    assert.equal(info.uid, process.getuid?.() ?? info.uid, 'its owner was changed');
  }

  it('an absolute /tmp path (default workspace-write): set aside, never replayed; writes go on', async () => {
    await plantJournal(bed.store, bed.ws.root, evil(victim));
    const lines = await serveStart();
    assertVictimUntouched();
    assert.match(lines.join('\n'), /was not replayed \(a file entry is malformed.*set aside as/, lines.join('\n'));
    assert.equal(await journalOf(bed.store, bed.ws.root), undefined);
    await bed.writer.apply(bed.request(bed.renameA()));
    assert.equal(bed.ws.read('a.ts'), A_AFTER);
  });

  it('a path climbing out with ..: set aside, never replayed', async () => {
    await plantJournal(bed.store, bed.ws.root, evil(`sub/../${relative(bed.ws.root, victim)}`));
    await serveStart();
    assertVictimUntouched();
  });

  it('a link inside the folder pointing out (workspace-write, whose fence allows /tmp): not touched, named', async () => {
    symlinkSync(victim, bed.ws.path('link.ts'));
    await plantJournal(bed.store, bed.ws.root, evil('link.ts'));
    const lines = await serveStart();
    assertVictimUntouched();
    assert.match(lines.join('\n'), /NOT restored .*link\.ts \(it lies outside the workspace folder/);
  });

  it('danger-full-access (no fence at all): the same journals touch nothing outside', async () => {
    const open = await mountHarness({ mode: 'danger-full-access', workspace: bed.ws.root });
    try {
      symlinkSync(victim, bed.ws.path('link.ts'));
      await plantJournal(bed.store, bed.ws.root, evil('link.ts'));
      await serveStart(open.ctx.fs);
      assertVictimUntouched();
      await plantJournal(bed.store, bed.ws.root, evil(victim));
      await serveStart(open.ctx.fs);
      assertVictimUntouched();
      // and the plugin's writer, whose request policy is danger-full-access
      await plantJournal(bed.store, bed.ws.root, evil('link.ts'));
      const writer = new FsWorkspaceWriter(open.ctx, open.ctx.fs, { onRecovered: () => undefined });
      await writer.apply({ root: bed.ws.root, edit: bed.renameA(), policy: open.ctx.sandboxPolicy.resolve() });
      assertVictimUntouched();
      assert.equal(bed.ws.read('a.ts'), A_AFTER);
    } finally {
      await open.dispose();
    }
  });

  it('a journal of another folder (its identity), found at this folder: set aside, not replayed', async () => {
    bed.ws.write('a.ts', A_AFTER);
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-other-')));
    try {
      const entry = await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
      // the same journal, but naming the other folder, sits at this folder's key
      plantText(bed.store, await folderOf(bed.store, bed.ws.root), JSON.stringify({ ...entry, folder: await folderOf(bed.store, other) }));
      const lines = await serveStart();
      assert.equal(bed.ws.read('a.ts'), A_AFTER, 'a journal of another folder reverted this one');
      assert.match(lines.join('\n'), /names another folder .*set aside/);
      // a folder on a reused inode (same device and inode, another birth time) is another folder too
      plantText(bed.store, await folderOf(bed.store, bed.ws.root), JSON.stringify({ ...entry, folder: { ...entry.folder, birthtimeNs: '1' } }));
      await serveStart();
      assert.equal(bed.ws.read('a.ts'), A_AFTER);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('a copied workspace never reverts a later, completed edit in the original', async () => {
    // a crash mid-rename in the original: a.ts written, b.ts not yet
    bed.ws.write('a.ts', A_AFTER);
    await plantJournal(bed.store, bed.ws.root, [
      { path: 'a.ts', before: A, after: A_AFTER },
      { path: 'b.ts', before: B, after: B_AFTER },
    ]);
    const copy = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-copy-')));
    try {
      cpSync(bed.ws.root, copy, { recursive: true, preserveTimestamps: true });
      // a journal of the old layout inside the copy, naming the original's files (issue 18's attack)
      mkdirSync(join(copy, '.dsh-lsp-actions'));
      const legacy = { format: 'dsh-lsp-actions/write-journal@1', state: 'writing', pid: 4_194_305, startedAt: '', root: bed.ws.root, files: [{ path: bed.ws.path('a.ts'), before: A, bom: false, afterSha256: sha256Hex(A_AFTER) }, { path: bed.ws.path('b.ts'), before: B, bom: false, afterSha256: sha256Hex(B_AFTER) }] };
      writeFileSync(join(copy, '.dsh-lsp-actions', 'write-journal.json'), JSON.stringify(legacy));
      // the original is recovered, then the user completes the rename there
      await serveStart();
      assert.equal(bed.ws.read('a.ts'), A);
      await bed.writer.apply(bed.request(bed.renameA()));
      // opening the copy (serve at start, then the plugin's writer) leaves the original alone
      const lines = await serveStart(bed.h.ctx.fs, [copy]);
      const writer = new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs, { onRecovered: () => undefined });
      await writer.apply({ root: copy, edit: { steps: [] }, policy: bed.h.ctx.sandboxPolicy.resolve() });
      assert.equal(bed.ws.read('a.ts'), A_AFTER, `the copy reverted the original: ${lines.join('\n')}`);
      assert.equal(bed.ws.read('b.ts'), B_AFTER);
      assert.deepEqual(lines, [], 'the copy carries no journal of ours');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('owner and mode go back to the recorded original without set-user-ID, set-group-ID or sticky', { skip: !isRoot && 'needs root to chown' }, async () => {
    bed.ws.write('a.ts', A_AFTER);
    await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER, owner: { uid: 1000, gid: 1000, mode: 0o107777 } }]);
    await serveStart();
    const info = statSync(bed.ws.path('a.ts'));
    assert.equal(bed.ws.read('a.ts'), A);
    assert.deepEqual([info.uid, info.gid], [1000, 1000]);
    assert.equal(info.mode & 0o7000, 0, `mode ${(info.mode & 0o7777).toString(8)} gained set-user/group-ID or sticky bits`);
  });
});
