/**
 * `check`'s refusal of a half-written tree (issue 18), without a language server: journals of
 * interrupted and running edits in the real journal store, judged on the real harness fs. The
 * SIGKILL-then-check e2e is `check-interrupted-edit.e2e.ts`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { refuseHalfWrittenTree } from '../../src/cli/check-interrupted-edit.ts';
import { SetupError } from '../../src/cli/cli-io.ts';
import { folderOf, plantJournal, plantText } from '../edits/journal-fixture.ts';
import { useWriterBed } from '../edits/writer-bed.ts';

const A = 'const a = 1;\r\nexport { a };\r\n';
const A_AFTER = 'const value = 1;\r\nexport { value };\r\n';

async function judged(run: () => Promise<void>): Promise<SetupError | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof SetupError, String(error));
    return error;
  }
}

/** @returns a stream standing in for stderr, and what was written to it */
function stderr(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

describe('check refuses a half-written tree (issue 18)', () => {
  const bed = useWriterBed();

  it('an interrupted edit whose bytes are on disk: exit 2 naming it and the way to finish it; nothing written', async () => {
    bed.ws.write('a.ts', A_AFTER);
    await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }, { path: 'b.ts', before: 'x', after: 'y' }]);
    const err = stderr();
    const error = await judged(() => refuseHalfWrittenTree(bed.h.ctx.fs, bed.ws.root, { stderr: err.stream }));
    assert.match(error?.message ?? '', /left .* half-written: 1 of its 2 files hold its new text \(a\.ts\); nothing was judged/);
    assert.match(error?.message ?? '', /dsh-lsp-actions serve --workspace .* --sandbox workspace-write < \/dev\/null/);
    assert.equal(bed.ws.read('a.ts'), A_AFTER, 'check wrote nothing');
  });

  it('…also when check runs on a subfolder of the folder the edit was written in', async () => {
    bed.ws.write('a.ts', A_AFTER);
    mkdirSync(bed.ws.path('pkg'));
    await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
    const error = await judged(() => refuseHalfWrittenTree(bed.h.ctx.fs, bed.ws.path('pkg'), { stderr: stderr().stream }));
    assert.match(error?.message ?? '', /half-written: 1 of its 1 files/);
  });

  it('an interrupted edit that wrote nothing yet (or whose files the user changed): the tree is whole, judged', async () => {
    await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
    assert.equal(await judged(() => refuseHalfWrittenTree(bed.h.ctx.fs, bed.ws.root, { stderr: stderr().stream })), undefined);
  });

  it('an edit being written right now: exit 2, run again when it is done', { skip: !existsSync('/proc/self/stat') && 'needs /proc' }, async () => {
    const sleeper = spawn('sleep', ['60']);
    try {
      assert.ok(sleeper.pid);
      const stat = readFileSync(`/proc/${sleeper.pid}/stat`, 'utf8');
      const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
      const entry = await plantJournal(bed.store, bed.ws.root, [{ path: 'a.ts', before: A, after: A_AFTER }]);
      plantText(bed.store, entry.folder, JSON.stringify({ ...entry, writer: { ...entry.writer, pid: sleeper.pid, startTicks: ticks } }));
      const error = await judged(() => refuseHalfWrittenTree(bed.h.ctx.fs, bed.ws.root, { stderr: stderr().stream }));
      assert.match(error?.message ?? '', new RegExp(`being written .* right now by pid ${sleeper.pid}.*nothing was judged`));
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a journal that is not ours to judge by (garbage): a note, judged, and left where it is', async () => {
    const folder = await folderOf(bed.store, bed.ws.root);
    plantText(bed.store, folder, 'garbage{');
    const err = stderr();
    assert.equal(await judged(() => refuseHalfWrittenTree(bed.h.ctx.fs, bed.ws.root, { stderr: err.stream })), undefined);
    assert.match(err.text(), /note: the write journal .* is not used \(it is not JSON\)/);
    assert.equal(readFileSync(bed.store.pathOf(folder), 'utf8'), 'garbage{', 'check moved or changed it');
  });
});
