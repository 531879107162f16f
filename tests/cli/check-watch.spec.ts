/**
 * The loop of `check --watch` with a scripted watcher and check: tsc --watch's lines, a
 * re-check per (debounced) relevant change, one more check for a change made during a check,
 * a setup error that does not end the watch, and Ctrl-C while idle → 130, watcher stopped.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { CheckSummary } from '../../src/cli/check-report.ts';
import { foundLine, PlanCache, planStillHolds, relevantChange, stamp, watchChecks, withoutTransient } from '../../src/cli/check-watch.ts';
import { Interrupted, SetupError } from '../../src/cli/cli-io.ts';

type Change = { path: string; kind: 'created' | 'changed' | 'deleted' };

const summary = (errors: number, pending = 0): CheckSummary => ({
  files: 3,
  errors,
  warnings: 0,
  infos: 0,
  hints: 0,
  filesWithProblems: errors > 0 ? 1 : 0,
  notFresh: { pending, stale: 0, failed: 0, unknown: 0, total: pending },
});

const edit = (path: string, kind: Change['kind'] = 'changed'): Change => ({ path, kind });
/** Lets a finished check's loop go idle. */
const idle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function harness(results: Array<CheckSummary | Error>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += String(chunk)));
  let emit: ((changes: Change[]) => void) | undefined;
  let stopped = false;
  let checks = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const controller = new AbortController();
  let duringCheck: (() => void) | undefined;
  const given: string[][] = [];
  const run = watchChecks({
    checkOnce: async (onSummary, changes) => {
      given.push(changes.map((change) => change.path));
      const result = results[checks] ?? summary(0);
      checks += 1;
      duringCheck?.();
      duringCheck = undefined;
      for (const w of waiters.filter((x) => x.n <= checks)) w.resolve();
      if (result instanceof Error) throw result;
      onSummary(result);
      return result.errors > 0 ? 1 : 0;
    },
    watch: (_root, onChange) => {
      emit = onChange;
      return () => (stopped = true);
    },
    workspace: '/ws',
    io: { stdin: new PassThrough(), stdout, stderr, env: {}, cwd: '/ws' },
    signal: controller.signal,
    now: () => new Date(2026, 0, 1, 9, 5, 7),
  });
  const checked = (n: number): Promise<void> => (checks >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })));
  return {
    run,
    controller,
    checked,
    change: (path: string) => emit?.([{ path, kind: 'changed' }]),
    emit: (changes: Change[]) => emit?.(changes),
    onNextCheck: (fn: () => void) => (duringCheck = fn),
    output: () => out,
    stderr,
    stopped: () => stopped,
    checks: () => checks,
    given,
  };
}

describe('check --watch loop', () => {
  it('prints tsc --watch lines, re-checks per debounced change, exits 130 on Ctrl-C with the watcher stopped', async () => {
    const h = harness([summary(0), summary(2), summary(1, 1)]);
    await h.checked(1);
    h.change('/ws/src/a.ts~');
    h.change('/ws/src/a.ts');
    h.change('/ws/src/b.ts');
    await h.checked(2);
    // A change made while a check runs starts one more check after it.
    h.onNextCheck(() => h.change('/ws/src/c.ts'));
    h.change('/ws/src/a.ts');
    await h.checked(4);
    // Let the loop print and go idle, then Ctrl-C.
    await new Promise((resolve) => setImmediate(resolve));
    h.controller.abort(new Interrupted('SIGINT'));
    assert.equal(await h.run, 130);
    assert.equal(h.stopped(), true);
    assert.equal(h.checks(), 4);
    // Each check is told what changed since the previous one (temp files left out).
    assert.deepEqual(h.given, [[], ['/ws/src/a.ts', '/ws/src/b.ts'], ['/ws/src/a.ts'], ['/ws/src/c.ts']]);
    assert.deepEqual(h.output().trimEnd().split('\n'), [
      '[09:05:07] Starting compilation in watch mode...',
      '[09:05:07] Found 0 errors. Watching for file changes.',
      '[09:05:07] File change detected. Starting incremental compilation...',
      '[09:05:07] Found 2 errors. Watching for file changes.',
      '[09:05:07] File change detected. Starting incremental compilation...',
      '[09:05:07] Found 1 error. 1 file without a fresh result. Watching for file changes.',
      '[09:05:07] File change detected. Starting incremental compilation...',
      '[09:05:07] Found 0 errors. Watching for file changes.',
    ]);
  });

  it('a temporary file created and deleted while no check ran is not a change; one seen during a check is', async () => {
    const h = harness([]);
    await h.checked(1);
    await idle();
    h.emit([edit('/ws/src/sed4Xq1', 'created')]);
    h.emit([edit('/ws/src/sed4Xq1', 'deleted'), edit('/ws/src/a.ts')]);
    await h.checked(2);
    h.onNextCheck(() => h.emit([edit('/ws/src/sed9Zz2', 'created')]));
    h.change('/ws/src/a.ts');
    await h.checked(3);
    await idle();
    h.emit([edit('/ws/src/sed9Zz2', 'deleted')]);
    await h.checked(4);
    await new Promise((resolve) => setImmediate(resolve));
    h.controller.abort(new Interrupted('SIGINT'));
    assert.equal(await h.run, 130);
    assert.deepEqual(h.given, [[], ['/ws/src/a.ts'], ['/ws/src/a.ts'], ['/ws/src/sed9Zz2', '/ws/src/sed9Zz2']]);
    const created = edit('/ws/x.ts', 'created');
    assert.deepEqual(withoutTransient([created, edit('/ws/x.ts'), edit('/ws/x.ts', 'deleted')], new Set()), []);
    assert.equal(withoutTransient([edit('/ws/x.ts', 'deleted'), created], new Set()).length, 2, 'deleted then created again: its content may differ');
  });

  it('a setup error is reported and the watch goes on', async () => {
    const h = harness([new SetupError('nothing to check: no files under src'), summary(0)]);
    let err = '';
    h.stderr.on('data', (chunk: Buffer) => (err += String(chunk)));
    await h.checked(1);
    h.change('/ws/src/new.ts');
    await h.checked(2);
    await new Promise((resolve) => setImmediate(resolve));
    h.controller.abort(new Interrupted('SIGTERM'));
    assert.equal(await h.run, 143);
    assert.match(err, /error: nothing to check/);
    assert.match(h.output(), /Check failed\. Watching for file changes\.\n.*File change detected/);
  });

  it('the plan is reused only while nothing but existing source files changed', () => {
    assert.equal(planStillHolds([edit('/ws/src/a.ts'), edit('/ws/x.py')]), true);
    for (const change of [edit('/ws/src/n.ts', 'created'), edit('/ws/src/a.ts', 'deleted'), edit('/ws/tsconfig.json'), edit('/ws/.gitignore'), edit('/ws/package.json'), edit('/ws/pyproject.toml')]) {
      assert.equal(planStillHolds([edit('/ws/src/a.ts'), change]), false, JSON.stringify(change));
    }
    const cache = new PlanCache<{ files: string[]; seen: Set<string> }>();
    assert.equal(cache.reuse(), undefined);
    const plan = { files: ['/ws/a.ts'], seen: new Set(['/ws/a.ts']) };
    cache.keep(plan);
    plan.files.push('/ws/mutated-after-keep.ts');
    cache.changed([edit('/ws/a.ts')]);
    const copy = cache.reuse();
    assert.deepEqual(copy, { files: ['/ws/a.ts'], seen: new Set(['/ws/a.ts']) });
    copy?.files.push('/ws/mutated-copy.ts');
    assert.deepEqual(cache.reuse()?.files, ['/ws/a.ts'], 'each run gets its own copy');
    cache.changed([edit('/ws/tsconfig.json')]);
    assert.equal(cache.reuse(), undefined);
  });

  it('helpers: stamps, found lines, editor temp files ignored', () => {
    assert.equal(stamp(new Date(2026, 0, 1, 7, 3, 9)), '[07:03:09]');
    assert.equal(foundLine(summary(1)), 'Found 1 error. Watching for file changes.');
    for (const path of ['/a/.#x.ts', '/a/x.ts~', '/a/.x.ts.swp', '/a/4913', '/a/x.log']) assert.equal(relevantChange(path), false, path);
    for (const path of ['/a/x.ts', '/a/tsconfig.json', '/a/pyproject.toml']) assert.equal(relevantChange(path), true, path);
  });
});
