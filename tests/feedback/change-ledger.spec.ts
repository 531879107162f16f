/**
 * The ledger of what is not yet judged: changes noted at once with a tick, due files judged only
 * by a check that began after they were dirtied, "quiet" roots for baselines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangeLedger } from '../../src/feedback/change-ledger.ts';

test('a noted change is a source and due a check; a check begun before a later note does not judge it', () => {
  const l = new ChangeLedger();
  const t1 = l.note('/ws', [{ path: '/ws/a.ts', kind: 'changed' }]);
  assert.deepEqual(l.sources('/ws'), [{ path: '/ws/a.ts', kind: 'changed', since: t1 }]);
  assert.equal(l.dirtySince('/ws', '/ws/a.ts'), t1);
  const check = l.tick();
  l.markDirty('/ws', ['/ws/b.ts'], l.note('/ws', [{ path: '/ws/c.ts', kind: 'changed' }]), '/ws/c.ts');
  l.judged('/ws', '/ws/a.ts', check);
  l.judged('/ws', '/ws/b.ts', check);
  assert.equal(l.dirtySince('/ws', '/ws/a.ts'), undefined, 'a check begun after the note judges it');
  assert.ok(l.dirtySince('/ws', '/ws/b.ts') !== undefined, 'a check begun before the change that dirtied it does not');
  assert.equal(l.causeOf('/ws', '/ws/b.ts'), '/ws/c.ts');
  assert.ok(l.hasWork('/ws'));
  assert.equal(l.hasWork('/other'), false);
});

test('a source is done once its dependents were looked up after its last note; noted again, it stays', () => {
  const l = new ChangeLedger();
  l.note('/ws', [{ path: '/ws/a.ts', kind: 'changed' }]);
  const lookup = l.tick();
  l.sourceDone('/ws', '/ws/a.ts', lookup);
  assert.deepEqual(l.sources('/ws'), []);
  l.note('/ws', [{ path: '/ws/a.ts', kind: 'changed' }]);
  const early = l.tick() - 2;
  l.sourceDone('/ws', '/ws/a.ts', early);
  assert.equal(l.sources('/ws').length, 1);
});

test('a deleted file is a source but not due a check; quietSince tells whether a change was noted after a tick', () => {
  const l = new ChangeLedger();
  const start = l.tick();
  assert.ok(l.quietSince('/ws', start));
  l.note('/ws', [{ path: '/ws/gone.ts', kind: 'deleted' }]);
  assert.equal(l.dirtySince('/ws', '/ws/gone.ts'), undefined);
  assert.equal(l.sources('/ws')[0]?.kind, 'deleted');
  assert.equal(l.quietSince('/ws', start), false, 'an answer obtained meanwhile must not become a baseline');
  assert.ok(l.quietSince('/ws', l.tick()));
  assert.ok(l.quietSince('/elsewhere', start), 'roots are separate');
});
