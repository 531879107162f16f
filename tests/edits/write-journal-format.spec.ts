/**
 * The journal's shape is its first defence (issue 18): only relative paths that stay in the
 * folder, real hashes, positive pids and a full folder identity parse; anything else is garbage
 * and is set aside. And what "the same folder" means.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FolderIdentity, JOURNAL_FORMAT, type JournalEntry, parseJournal, sameFolder, sha256Hex } from '../../src/edits/write-journal.ts';

const folder: FolderIdentity = { realPath: '/w', dev: '2049', ino: '1234', birthtimeNs: '1796307086715010859' };
const entry = (over: Record<string, unknown> = {}, file: Record<string, unknown> = {}): string =>
  JSON.stringify({
    format: JOURNAL_FORMAT,
    state: 'writing',
    writeId: 'w',
    writer: { pid: 4_194_305, bootId: 'b', startTicks: '1' },
    earlierPids: [],
    startedAt: '',
    folder,
    files: [{ path: 'src/a.ts', before: 'a', bom: false, afterSha256: sha256Hex('b'), ...file }],
    ...over,
  } satisfies Partial<JournalEntry> & Record<string, unknown>);

describe('journal format (issue 18)', () => {
  it('parses a well-formed entry, writing or interrupted', () => {
    assert.ok('entry' in parseJournal(entry()));
    assert.ok('entry' in parseJournal(entry({ state: 'interrupted' })));
  });

  it('garbage: paths leaving the folder, bad hashes, pids, identities, formats', () => {
    const bad = [
      entry({}, { path: '/tmp/victim' }),
      entry({}, { path: '../victim' }),
      entry({}, { path: 'src/../../victim' }),
      entry({}, { path: '' }),
      entry({}, { path: '.' }),
      entry({}, { path: 'a\u0000b' }),
      entry({}, { afterSha256: 'x' }),
      entry({}, { owner: { uid: -1, gid: 0, mode: 0o644 } }),
      entry({ writer: { pid: 0 } }),
      entry({ writer: { pid: -1 } }),
      entry({ earlierPids: [-1] }),
      entry({ folder: { ...folder, realPath: 'relative' } }),
      entry({ folder: { ...folder, ino: 'x' } }),
      entry({ format: 'dsh-lsp-actions/write-journal@1' }),
      entry({ state: 'idle' }),
      'garbage{',
      'null',
    ];
    for (const text of bad) assert.ok('garbage' in parseJournal(text), text);
  });

  it('the same folder: real path, device, inode and a known birth time all agree', () => {
    assert.equal(sameFolder(folder, { ...folder }), true);
    assert.equal(sameFolder(folder, { ...folder, realPath: '/copy' }), false, 'moved or another path');
    assert.equal(sameFolder(folder, { ...folder, ino: '99' }), false, 'a copy');
    assert.equal(sameFolder(folder, { ...folder, birthtimeNs: '1' }), false, 'a new folder on a reused inode');
    assert.equal(sameFolder(folder, { ...folder, birthtimeNs: '0' }), true, 'an unknown birth time is not compared');
  });
});
