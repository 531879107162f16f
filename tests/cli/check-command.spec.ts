/**
 * `check` end to end through a real cordis Loader boot, against the fake plugin (no language
 * server): exit codes 0 / 1 / 2, the never-clean-on-unknown rule, skipped files, and the three
 * formats as the command writes them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess, writeFakeComposition } from './cli-harness.ts';

const ws = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-check-'));
const config = join(ws, 'cordis.yml');

before(() => {
  for (const file of ['clean/a.ts', 'clean/b.ts', 'bad/error.ts', 'bad/warn.ts', 'bad/ok.ts', 'slow/pending.ts', 'old/stale.ts', 'broken/crash.ts', 'odd/nostate.ts', 'notes/readme.txt', 'hints/hint.ts']) {
    mkdirSync(join(ws, file, '..'), { recursive: true });
    writeFileSync(join(ws, file), '');
  }
  writeFakeComposition(config);
});
after(() => rmSync(ws, { recursive: true, force: true }));

const check = (...args: string[]) => runInProcess(['check', '--config', config, '--log-level', 'error', ...args], ws);

describe('check (fake plugin)', () => {
  it('exit 0 and a clean summary when every file is fresh and has no error', async () => {
    const run = await check('clean');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '0 errors, 0 warnings in 0 files (2 files checked)\n');
  });

  it('exit 1 with compiler-style lines on errors; warnings alone do not fail', async () => {
    const run = await check('bad');
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(run.stdout.trimEnd().split('\n'), [
      "bad/error.ts:3:5 error Cannot find name 'x'. [fake 2304]",
      'bad/warn.ts:1:1 warning unused [fake W1]',
      '1 error, 1 warning in 2 files (3 files checked)',
    ]);
    assert.equal((await check('bad/warn.ts', 'bad/ok.ts')).code, 0);
  });

  it('pending, stale, failed and freshness-less results are never clean: exit 1', async () => {
    for (const path of ['slow', 'old', 'odd']) {
      const run = await check(path);
      assert.equal(run.code, 1, `${path}: ${run.stdout}`);
      assert.match(run.stdout, /could not get fresh diagnostics for 1 file \((1 pending|1 stale|1 unknown)\); the result is incomplete/);
    }
    const mixed = await check('clean', 'broken');
    assert.equal(mixed.code, 1);
    assert.match(mixed.stdout, /broken\/crash\.ts: failed: LSP_ACTION_SERVER_CRASHED: the language server crashed/);
  });

  it('exit 2 when no file could be checked at all', async () => {
    const run = await check('broken');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no file could be checked/);
  });

  it('--severity hint reports hints; the default does not', async () => {
    assert.match((await check('hints')).stdout, /^0 errors, 0 warnings in 0 files/);
    const run = await check('hints', '--severity', 'hint');
    assert.match(run.stdout, /hints\/hint\.ts:2:1 hint a hint \[fake\]/);
    assert.equal(run.code, 0);
  });

  it('setup errors exit 2: missing path, nothing handled, path outside the workspace', async () => {
    const missing = await check('nope');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such file or directory: nope/);
    const none = await check('notes');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /nothing to check: none of the 1 file under notes is of a kind a language server here checks/);
    const outside = await check('clean', '--workspace', join(ws, 'bad'));
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /is outside the workspace/);
  });

  it('warns about an explicitly named file no server handles, and checks the rest', async () => {
    const run = await check('notes/readme.txt', 'clean/a.ts');
    assert.equal(run.code, 0);
    assert.match(run.stderr, /warning: no language server handles notes\/readme\.txt; skipped/);
    assert.match(run.stdout, /\(1 file checked\)/);
  });

  it('--format json: every file with its state', async () => {
    const run = await check('bad', 'slow', '--format', 'json');
    assert.equal(run.code, 1);
    const doc = JSON.parse(run.stdout) as { outcome: string; files: Array<{ path: string; state: string; diagnostics: unknown[] }> };
    assert.equal(doc.outcome, 'errors');
    assert.deepEqual(doc.files.map((f) => [f.path, f.state, f.diagnostics.length]), [
      ['bad/error.ts', 'fresh', 1],
      ['bad/ok.ts', 'fresh', 0],
      ['bad/warn.ts', 'fresh', 1],
      ['slow/pending.ts', 'pending', 0],
    ]);
  });

  it('--format sarif: a 2.1.0 log with workspace-relative locations', async () => {
    const run = await check('bad', '--format', 'sarif');
    assert.equal(run.code, 1);
    const log = JSON.parse(run.stdout) as { version: string; runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }> };
    assert.equal(log.version, '2.1.0');
    assert.deepEqual(log.runs[0]?.results.map((r) => [r.ruleId, r.locations[0]?.physicalLocation.artifactLocation.uri]), [
      ['fake/2304', 'bad/error.ts'],
      ['fake/W1', 'bad/warn.ts'],
    ]);
  });

  it('a composition without the plugin is a setup error', async () => {
    const empty = join(ws, 'empty.yml');
    writeFileSync(empty, '[]\n');
    const run = await runInProcess(['check', 'clean', '--config', empty], ws);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /does not provide the lspActions service/);
  });
});
