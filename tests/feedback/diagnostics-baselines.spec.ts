/**
 * Baselines describe exactly one filesystem version; background checks are tracked until they
 * settle; bounded, most recently used last out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FsVersion } from '@deepseek-ai/dsh-fs';
import type { WireDiagnostic } from '../../src/actions/action-results.ts';
import { DiagnosticsBaselines } from '../../src/feedback/diagnostics-baselines.ts';

const v = (s: string): FsVersion => s as FsVersion;
const d: WireDiagnostic = { severity: 1, range: { start: { line: 1, character: 2 }, end: { line: 1, character: 3 } }, message: 'm', source: 's', code: 1, serverId: 'ts', tags: [1] };

test('a baseline answers only for the version it describes, and keeps only what a comparison needs', () => {
  const b = new DiagnosticsBaselines(4);
  b.set('/a.ts', v('v1'), [d], 1);
  assert.deepEqual(b.forVersion('/a.ts', v('v1'))?.diagnostics, [{ severity: 1, range: d.range, message: 'm', source: 's', code: 1 }]);
  assert.equal(b.forVersion('/a.ts', v('v2')), undefined);
  b.set('/b.ts', undefined, [], 2);
  assert.equal(b.forVersion('/b.ts', v('v1')), undefined, 'an unknown version matches nothing');
  assert.ok(b.get('/b.ts'));
});

test('a baseline is the "before" of a change only when its check began before the change was noted', () => {
  const b = new DiagnosticsBaselines(4);
  b.set('/a.ts', undefined, [d], 5);
  assert.ok(b.usableBefore('/a.ts', 6), 'a check begun at tick 5 describes a state before a change noted at 6');
  assert.equal(b.usableBefore('/a.ts', 5), undefined, 'a change noted at the tick the check began may be in it');
  assert.equal(b.usableBefore('/a.ts', 3), undefined, 'nor for an earlier change');
  assert.equal(b.usableBefore('/none.ts', 9), undefined);
});

test('bounded, least recently set first out; mostRecent lists newest first', () => {
  const b = new DiagnosticsBaselines(2);
  b.set('/a.ts', v('1'), [], 1);
  b.set('/b.ts', v('1'), [], 2);
  b.set('/c.ts', v('1'), [], 3);
  assert.equal(b.get('/a.ts'), undefined);
  assert.deepEqual(b.mostRecent(() => true, 5), ['/c.ts', '/b.ts']);
  assert.deepEqual(b.mostRecent((p) => p !== '/c.ts', 5), ['/b.ts']);
  assert.deepEqual(b.mostRecent(() => true, 1), ['/c.ts']);
});

test('background checks are found by path and version until they settle', async () => {
  const b = new DiagnosticsBaselines(2);
  let finish!: () => void;
  const job = new Promise<void>((resolve) => {
    finish = resolve;
  });
  b.track('/ws/a.ts', v('1'), job);
  assert.equal(b.inflight('/ws/a.ts', v('1')), job);
  assert.equal(b.inflight('/ws/a.ts', v('2')), undefined);
  assert.equal(b.running((p) => p.startsWith('/ws/')).length, 1);
  assert.equal(b.running((p) => p.startsWith('/other/')).length, 0);
  finish();
  await job;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(b.inflight('/ws/a.ts', v('1')), undefined);
  assert.equal(b.runningCount, 0);
});
