/**
 * The files a watch's programs read that its watcher cannot see ({@link UnwatchedFiles}): which
 * they are, and the proof that they did not change between two runs (a stat signature at each
 * run's start; a file first met after a run judged is proven only when older than the run).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isUnwatched, UnwatchedFiles } from '../../src/cli/unwatched-files.ts';

const root = mkdtempSync(join(tmpdir(), 'dsh-unwatched-'));
const ws = join(root, 'ws');
const lib = join(root, 'lib', 'index.d.ts');
const types = join(ws, 'node_modules', '@types', 'x', 'index.d.ts');
const own = join(ws, 'src', 'a.ts');
after(() => rmSync(root, { recursive: true, force: true }));

for (const path of [lib, types, own]) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, 'export {};\n');
}

describe('UnwatchedFiles', () => {
  it('tells which files the watcher cannot see', () => {
    assert.equal(isUnwatched(own, ws), false);
    assert.equal(isUnwatched(lib, ws), true, 'outside the workspace');
    assert.equal(isUnwatched(types, ws), true, 'under node_modules');
    assert.equal(isUnwatched(join(ws, '.cache', 'x.d.ts'), ws), true, 'under a hidden directory');
    assert.equal(isUnwatched(join(ws, '.eslintrc.ts'), ws), false, 'a hidden file is watched; only directories are skipped');
  });

  it('proves an unwatched file unchanged from one run start to the next, and catches a change', () => {
    const files = new UnwatchedFiles(ws);
    assert.equal(files.moved(), undefined, 'nothing known yet');
    files.listed(new Set([lib, types, own]), Date.now() + 60_000);
    assert.equal(files.moved(), undefined, 'older than the run that listed them: proven');
    writeFileSync(lib, 'export declare const changed: 1;\n');
    assert.equal(files.moved(), lib);
    assert.equal(files.moved(), undefined, 'the look at a run start is the next proof');
    rmSync(types);
    assert.equal(files.moved(), types, 'a deleted file moved');
  });

  it('a file first met after its run started is not proven until the next run start', () => {
    const files = new UnwatchedFiles(ws);
    writeFileSync(lib, 'export declare const fresh: 2;\n');
    files.listed(new Set([lib]), Date.now());
    assert.equal(files.moved(), lib, 'changed about when the run started: its judged version is not known');
    assert.equal(files.moved(), undefined);
    files.listed(new Set([own]), Date.now());
    writeFileSync(lib, 'export declare const dropped: 3;\n');
    assert.equal(files.moved(), undefined, 'no longer listed: not tracked');
  });
});
