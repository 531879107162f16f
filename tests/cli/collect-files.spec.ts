/**
 * Path expansion for `check`, and the progress indicator (drawn only on a terminal).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { collectFiles } from '../../src/cli/collect-files.ts';
import { createProgress } from '../../src/cli/progress.ts';

const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-collect-'));
after(() => rmSync(root, { recursive: true, force: true }));
for (const file of ['b.ts', 'a.ts', 'src/c.ts', 'src/deep/d.py', 'node_modules/x/i.ts', '.git/h.ts', 'dist/o.js', 'lib/l.js', 'src/__pycache__/p.py']) {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), '');
}
symlinkSync(join(root, 'src'), join(root, 'loop'));

describe('collectFiles', () => {
  it('walks directories sorted, skipping dependency and VCS directories (not lib or dist), not following directory links', () => {
    const { files, missing, ignored } = collectFiles(['.'], root);
    assert.deepEqual(missing, []);
    assert.deepEqual(ignored, []);
    assert.deepEqual(
      files.map((f) => f.slice(root.length + 1)),
      ['a.ts', 'b.ts', 'dist/o.js', 'lib/l.js', 'src/c.ts', 'src/deep/d.py'],
    );
  });

  it('skips the ignored paths it is given, and says which it met', () => {
    const { files, ignored } = collectFiles(['.'], root, { ignored: new Set([join(root, 'dist'), join(root, 'src', 'c.ts')]) });
    assert.deepEqual(files.map((f) => f.slice(root.length + 1)), ['a.ts', 'b.ts', 'lib/l.js', 'src/deep/d.py']);
    assert.deepEqual(ignored, [join(root, 'dist'), join(root, 'src', 'c.ts')]);
  });

  it('uses explicitly given files and directories even inside skipped names; dedupes', () => {
    const { files, explicit } = collectFiles(['lib/l.js', 'dist', 'a.ts', join(root, 'a.ts')], root);
    assert.deepEqual(files.map((f) => f.slice(root.length + 1)), ['a.ts', 'dist/o.js', 'lib/l.js']);
    assert.ok(explicit.has(join(root, 'lib/l.js')));
    assert.ok(!explicit.has(join(root, 'dist/o.js')));
  });

  it('reports missing paths as given', () => {
    assert.deepEqual(collectFiles(['nope', 'a.ts'], root).missing, ['nope']);
  });
});

function terminal(isTTY: boolean): PassThrough & { isTTY: boolean; columns: number } {
  return Object.assign(new PassThrough(), { isTTY, columns: 40 });
}

describe('createProgress', () => {
  it('draws nothing when stderr is not a terminal, is disabled, or for one file', () => {
    for (const [tty, enabled, total] of [[false, true, 10], [true, false, 10], [true, true, 1]] as const) {
      const stream = terminal(tty);
      const p = createProgress(stream, { total, enabled, delayMs: 0, intervalMs: 0 });
      p.tick('a.ts');
      p.done();
      assert.equal(stream.read(), null);
    }
  });

  it('on a terminal: waits for the delay, throttles, truncates to the width, erases itself', () => {
    let now = 0;
    const stream = terminal(true);
    const p = createProgress(stream, { total: 3, enabled: true, delayMs: 100, intervalMs: 50, now: () => now });
    p.tick('first.ts');
    assert.equal(stream.read(), null, 'nothing before the delay');
    now = 120;
    p.tick('a-rather-long-path/that/does/not/fit/in/forty/columns.ts');
    const drawn = String(stream.read());
    assert.ok(drawn.startsWith('\r\x1b[2Kchecking 2/3 files: '), drawn);
    assert.ok(drawn.length <= '\r\x1b[2K'.length + 39);
    now = 130;
    p.tick('third.ts');
    assert.equal(stream.read(), null, 'throttled');
    p.done();
    assert.equal(String(stream.read()), '\r\x1b[2K');
    p.tick('late.ts');
    assert.equal(stream.read(), null);
  });

  it('a terminal that reports 0 columns gets the default width, not a 20-character line', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 0 });
    const p = createProgress(stream, { total: 2, enabled: true, delayMs: 0, intervalMs: 0, now: () => 1 });
    const label = 'src/components/a-file-name-of-some-length.ts';
    p.tick(label);
    assert.equal(String(stream.read()), `\r\x1b[2Kchecking 1/2 files: ${label}`);
  });
});
