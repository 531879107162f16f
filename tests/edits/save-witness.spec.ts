/**
 * The lost-save witness (`save-witness.ts`) on the real local disk: a save written in place into
 * the file while the seam replaces it is seen after the replace and put back, and the edit is
 * refused; without the witness the same save is lost and the edit reports success.
 */
import assert from 'node:assert/strict';
import { closeSync, ftruncateSync, openSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { openSaveWitness } from '../../src/edits/save-witness.ts';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { failure, useWriterBed } from './writer-bed.ts';

const bed = useWriterBed();
const SAVED = 'const a = 2; // saved by the user\r\nexport { a };\r\n';

/**
 * The harness fs, except that writing `path` lets an editor that had the file open save into it
 * in place right after the seam replaced it — the save the seam cannot see.
 */
function fsWithInPlaceSave(fs: FileSystem, path: string): FileSystem {
  return new Proxy(fs, {
    get(target, key, receiver) {
      if (key !== 'writeText') {
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (...args: Parameters<FileSystem['writeText']>) => {
        const held = String(args[0].targetKey) === path ? openSync(path, 'r+') : undefined;
        const outcome = await target.writeText(...args);
        if (held !== undefined) {
          ftruncateSync(held, 0);
          writeSync(held, SAVED, 0);
          closeSync(held);
        }
        return outcome;
      };
    },
  });
}

describe('lost-save witness', () => {
  it('a save written in place while the seam replaces the file is put back; the edit is refused and nothing else stays written', async () => {
    const writer = new FsWorkspaceWriter(bed.h.ctx, fsWithInPlaceSave(bed.h.ctx.fs, bed.ws.path('a.ts')));
    const before = bed.ws.read('b.ts');
    const error = await failure(writer.apply(bed.request(bed.renameA())));
    assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
    assert.equal(error.details['causeCode'], 'LSP_ACTION_CONFLICT');
    assert.match(error.message, /a save landed in the file while the edit replaced it/);
    assert.deepEqual(error.details['restored'], [bed.ws.path('a.ts')]);
    assert.equal(bed.ws.read('a.ts'), SAVED, "the user's save is on disk");
    assert.equal(bed.ws.read('b.ts'), before, 'the other file of the edit was not written');
  });

  it('without the witness the same save is lost and the edit reports success (what the witness is for)', async () => {
    const writer = new FsWorkspaceWriter(bed.h.ctx, fsWithInPlaceSave(bed.h.ctx.fs, bed.ws.path('a.ts')), { saveWitness: () => Promise.resolve(undefined) });
    const result = await writer.apply(bed.request(bed.renameA()));
    assert.equal(result.files.length, 2);
    assert.equal(bed.ws.read('a.ts'), 'const value = 1;\r\nexport { value };\r\n');
  });

  it('says nothing when the path still names the witnessed file (written in place), and reads the old file after a rename over it', async () => {
    const path = bed.ws.path('a.ts');
    const info = statSync(path);
    const seen = { mode: info.mode, uid: info.uid, gid: info.gid, nlink: info.nlink, ino: info.ino, dev: info.dev };
    const inPlace = await openSaveWitness(path, seen);
    assert.ok(inPlace);
    writeFileSync(path, 'in place\n');
    assert.equal(await inPlace.replacedText('const a = 1;\r\nexport { a };\r\n'), undefined);
    await inPlace.close();

    const now = statSync(path);
    const renamed = await openSaveWitness(path, { ...seen, ino: now.ino, dev: now.dev });
    assert.ok(renamed);
    writeFileSync(bed.ws.path('staged'), 'new file\n');
    renameSync(bed.ws.path('staged'), path);
    assert.equal(await renamed.replacedText('in place\n'), 'in place\n');
    await renamed.close();

    assert.equal(await openSaveWitness(path, seen), undefined, 'another inode than preflight saw: no witness');

    // a save caught between its truncate and its write: the witness waits for the finished text
    const before = statSync(path);
    const torn = await openSaveWitness(path, { ...seen, ino: before.ino, dev: before.dev });
    assert.ok(torn);
    const saver = openSync(path, 'r+');
    writeFileSync(bed.ws.path('staged'), 'ours\n');
    renameSync(bed.ws.path('staged'), path);
    ftruncateSync(saver, 0);
    const finish = new Promise<void>((resolve) =>
      setTimeout(() => {
        writeSync(saver, 'the finished save\n', 0);
        closeSync(saver);
        resolve();
      }, 12),
    );
    assert.equal(await torn.replacedText('new file\n'), 'the finished save\n');
    await finish;
    await torn.close();
  });
});
