/**
 * The two messages `check` gives when there is nothing it can check: an empty target names the
 * target (not the language servers), and a file whose language server is not installed says
 * what to install. Through the real default composition (PATH empty: no server detected), so
 * the messages are what a user sees.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { missingServerLines, nothingToCheckMessage, presetGroupOf } from '../../src/cli/missing-servers.ts';
import { runInProcess } from './cli-harness.ts';

const ws = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-missing-'));

before(() => {
  mkdirSync(join(ws, 'empty'));
  mkdirSync(join(ws, 'py'));
  writeFileSync(join(ws, 'py', 'a.py'), 'x: int = "a"\n');
  writeFileSync(join(ws, 'py', 'b.py'), 'y = 1\n');
  mkdirSync(join(ws, 'notes'));
  writeFileSync(join(ws, 'notes', 'readme.txt'), 'hi\n');
});
after(() => rmSync(ws, { recursive: true, force: true }));

describe('missing servers and empty targets', () => {
  it('knows which preset would check a file', () => {
    assert.equal(presetGroupOf('/x/a.py'), 'python');
    assert.equal(presetGroupOf('/x/Dockerfile'), 'dockerfile');
    assert.equal(presetGroupOf('/x/main.go'), 'go');
    assert.equal(presetGroupOf('/x/readme.txt'), undefined);
  });

  it('one line per kind of file: how many, an example, what to install', () => {
    assert.deepEqual(missingServerLines(['/w/a.py', '/w/b.py', '/w/readme.txt'], '/w'), [
      '2 Python files (a.py, …) not checked: no Python language server is installed; install pyright (`npm i -D pyright` or `pip install pyright`); basedpyright or pylsp also work',
    ]);
    assert.match(nothingToCheckMessage(['src'], 0, '/w'), /^nothing to check: no files under src /);
  });

  it('an empty folder: "nothing to check", exit 2, no word about language servers', async () => {
    const run = await runInProcess(['check', 'empty', '--log-level', 'error'], ws);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /nothing to check: no files under empty/);
    assert.doesNotMatch(run.stderr, /language server/);
    const here = await runInProcess(['check', '--log-level', 'error', '--workspace', ws], join(ws, 'empty'));
    assert.match(here.stderr, /nothing to check: no files under the current directory/);
  });

  it('files of no checked kind: says so', async () => {
    const run = await runInProcess(['check', 'notes', '--log-level', 'error'], ws);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /nothing to check: none of the 1 file under notes is of a kind a language server here checks/);
  });

  it('a .py file with no Python server installed: says to install pyright', async () => {
    const one = await runInProcess(['check', 'py/a.py', '--log-level', 'error'], ws, { PATH: '' });
    assert.equal(one.code, 2);
    assert.match(one.stderr, /py\/a\.py not checked: no Python language server is installed; install pyright \(`npm i -D pyright` or `pip install pyright`\)/);
    assert.doesNotMatch(one.stderr, /no language server handles/);
    const dir = await runInProcess(['check', 'py', '--log-level', 'error'], ws, { PATH: '' });
    assert.match(dir.stderr, /2 Python files \(py\/a\.py, …\) not checked/);
  });
});
