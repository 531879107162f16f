/**
 * The progress line of `check`: on a terminal it appears within a short delay of the start,
 * before any file is done, shows the elapsed seconds while a server loads, and advances per
 * file; the status line of the planning step likewise.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createProgress, createStatus, WAITING_LABEL } from '../../src/cli/progress.ts';

function terminal(): PassThrough & { isTTY: boolean; columns: number } {
  return Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
}

/** The indicators' timers are unref'd (they never keep a process alive): hold the loop while waiting. */
async function nextWrite(stream: PassThrough): Promise<string> {
  const hold = setInterval(() => {}, 1_000);
  try {
    const [chunk] = (await once(stream, 'data')) as [Buffer];
    return String(chunk);
  } finally {
    clearInterval(hold);
  }
}

describe('progress line', () => {
  it('appears before any file is done, with 0/total, then shows the elapsed seconds', async () => {
    let now = 1_000;
    const stream = terminal();
    const p = createProgress(stream, { total: 53, enabled: true, delayMs: 5, heartbeatMs: 5, now: () => now });
    assert.equal(await nextWrite(stream), `\r\x1b[2Kchecking 0/53 files: ${WAITING_LABEL}`);
    now = 4_500;
    assert.equal(await nextWrite(stream), `\r\x1b[2Kchecking 0/53 files (3s): ${WAITING_LABEL}`);
    p.done();
  });

  it('advances per file, each tick after the delay redrawing the count', async () => {
    let now = 0;
    const stream = terminal();
    const p = createProgress(stream, { total: 3, enabled: true, delayMs: 0, intervalMs: 0, heartbeatMs: 0, now: () => now });
    const seen: string[] = [];
    stream.on('data', (chunk: Buffer) => seen.push(String(chunk)));
    for (const [i, file] of ['a.ts', 'b.ts', 'c.ts'].entries()) {
      now = 10 * (i + 1);
      p.tick(file);
    }
    p.done();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, ['\r\x1b[2Kchecking 1/3 files: a.ts', '\r\x1b[2Kchecking 2/3 files: b.ts', '\r\x1b[2Kchecking 3/3 files: c.ts', '\r\x1b[2K']);
  });

  it('a run that ends before the delay draws nothing at all', async () => {
    const stream = terminal();
    const p = createProgress(stream, { total: 10, enabled: true, delayMs: 50 });
    p.tick('a.ts');
    p.done();
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(stream.read(), null);
  });

  it('the planning status: drawn after the delay, erased by done, never off a terminal', async () => {
    const stream = terminal();
    const s = createStatus(stream, 'finding the files to check', { enabled: true, delayMs: 5 });
    assert.equal(await nextWrite(stream), '\r\x1b[2Kfinding the files to check');
    s.done();
    assert.equal(await nextWrite(stream), '\r\x1b[2K');
    const piped = Object.assign(new PassThrough(), { isTTY: false });
    const quiet = createStatus(piped, 'x', { enabled: true, delayMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    quiet.done();
    assert.equal(piped.read(), null);
  });
});
