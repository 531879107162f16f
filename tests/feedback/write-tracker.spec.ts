/**
 * Which files a call wrote, from its own `fs/observed` events: only followed tools, only agent
 * actors, with what the session saw before; reads of other tools go to the read hook.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FsObservation, FsTarget, FsVersion } from '@deepseek-ai/dsh-fs';
import { WriteTracker, type ObservedRead } from '../../src/feedback/write-tracker.ts';

const target = (path: string): FsTarget => ({ targetKey: path, displayPath: path }) as unknown as FsTarget;
const present = (v: string): FsObservation => ({ kind: 'present', version: v as FsVersion });
const agent = (id: string) => ({ id, session: { header: { id, cwd: '/ws' } } });

/** Writes noted, in order (the tick returned is the position + 1). */
let noted: Array<{ path: string; kind: string }> = [];

function tracker(reads: ObservedRead[] = [], maxEntries = 100): WriteTracker {
  noted = [];
  return new WriteTracker({
    follows: (name) => name === 'edit' || name === 'write' || name === 'lsp_format',
    pathOf: (t) => (t.displayPath === 'unmapped' ? undefined : t.displayPath),
    onRead: (read) => reads.push(read),
    onWrite: (path, _agent, kind) => noted.push({ path, kind }),
    maxEntries,
  });
}

test('a followed call\'s present observations are its writes, with the version the session saw before', () => {
  const reads: ObservedRead[] = [];
  const tr = tracker(reads);
  const a = agent('s1');
  tr.observe(target('/ws/a.ts'), present('v1'), { callId: 'c1', name: 'read', agent: a });
  tr.observe(target('/ws/a.ts'), present('v2'), { callId: 'c2', name: 'edit', agent: a });
  assert.equal(reads.length, 1, 'the read went to the read hook');
  assert.equal(reads[0]?.version, 'v1');
  assert.deepEqual(tr.take({ callId: 'c1', agent: a }), [], 'a read is not a write');
  const writes = tr.take({ callId: 'c2', agent: a });
  assert.equal(writes.length, 1);
  assert.equal(writes[0]?.path, '/ws/a.ts');
  assert.equal(writes[0]?.version, 'v2');
  assert.deepEqual(writes[0]?.previous, present('v1'));
  assert.equal(writes[0]?.tick, 1, 'noted at once, with the tick the note returned');
  assert.deepEqual(noted, [{ path: '/ws/a.ts', kind: 'changed' }]);
  assert.deepEqual(tr.take({ callId: 'c2', agent: a }), [], 'taking forgets');
});

test('agentless actors, unmapped targets and absent observations are not writes', () => {
  const tr = tracker();
  tr.observe(target('/ws/a.ts'), present('v1'), { callId: 'c1', name: 'write' });
  tr.observe(target('unmapped'), present('v1'), { callId: 'c2', name: 'write', agent: agent('s') });
  tr.observe(target('/ws/b.ts'), { kind: 'absent' }, { callId: 'c3', name: 'write', agent: agent('s') });
  tr.observe(target('/ws/b.ts'), present('v1'), undefined);
  assert.deepEqual(tr.take({ callId: 'c1' }), []);
  assert.deepEqual(tr.take({ callId: 'c2', agent: agent('s') }), []);
  assert.deepEqual(tr.take({ callId: 'c3', agent: agent('s') }), []);
});

test('a file seen absent, then written, carries the absent observation; sessions are separate', () => {
  const tr = tracker();
  tr.observe(target('/ws/new.ts'), { kind: 'absent' }, { callId: 'r', name: 'read', agent: agent('s1') });
  tr.observe(target('/ws/new.ts'), present('v1'), { callId: 'w', name: 'write', agent: agent('s1') });
  tr.observe(target('/ws/new.ts'), present('v1'), { callId: 'w', name: 'write', agent: agent('s2') });
  assert.deepEqual(tr.take({ callId: 'w', agent: agent('s1') })[0]?.previous, { kind: 'absent' });
  assert.equal(noted[0]?.kind, 'created', 'a file the session saw absent is noted as created');
  assert.equal(tr.take({ callId: 'w', agent: agent('s2') })[0]?.previous, undefined);
});

test('a file written twice in one call is one write: the last version, the previous from before the call', () => {
  const tr = tracker();
  const a = agent('s');
  tr.observe(target('/ws/a.ts'), present('v1'), { callId: 'r', name: 'read', agent: a });
  tr.observe(target('/ws/a.ts'), present('v2'), { callId: 'x', name: 'edit', agent: a });
  tr.observe(target('/ws/a.ts'), present('v3'), { callId: 'x', name: 'edit', agent: a });
  const writes = tr.take({ callId: 'x', agent: a });
  assert.equal(writes.length, 1);
  assert.equal(writes[0]?.version, 'v3');
  assert.deepEqual(writes[0]?.previous, present('v1'));
  assert.equal(writes[0]?.tick, 1, 'the first note is kept: a baseline must predate the first write');
  assert.equal(noted.length, 1);
});

test('our own write path records a write without fs/observed (a file the agent had not read); an observed one is not recorded twice', () => {
  const tr = tracker();
  const a = agent('s');
  tr.recordWrite({ callId: 'f', name: 'lsp_format', agent: a }, '/ws/unread.ts');
  tr.observe(target('/ws/read.ts'), present('v2'), { callId: 'f', name: 'lsp_format', agent: a });
  tr.recordWrite({ callId: 'f', name: 'lsp_format', agent: a }, '/ws/read.ts');
  tr.recordWrite({ callId: 'g', name: 'bash', agent: a }, '/ws/other.ts');
  tr.recordWrite({ callId: 'h', name: 'lsp_format' }, '/ws/agentless.ts');
  const writes = tr.take({ callId: 'f', agent: a });
  assert.deepEqual(writes.map((w) => w.path), ['/ws/unread.ts', '/ws/read.ts']);
  assert.equal(writes[0]?.version, undefined);
  assert.equal(writes[1]?.version, 'v2');
  assert.deepEqual(tr.take({ callId: 'g', agent: a }), [], 'an unfollowed tool is not recorded');
  assert.deepEqual(noted.map((n) => n.path), ['/ws/unread.ts', '/ws/read.ts']);
});

test('a throwing path mapping never reaches the observing call', () => {
  const tr = new WriteTracker({ follows: () => true, pathOf: () => { throw new Error('boom'); }, onWrite: () => 1, maxEntries: 10 });
  assert.doesNotThrow(() => tr.observe(target('/ws/a.ts'), present('v1'), { callId: 'c', name: 'edit', agent: agent('s') }));
});

test('bounded: the oldest calls are dropped beyond maxEntries; forgetSession drops a session', () => {
  const tr = tracker([], 2);
  for (const id of ['c1', 'c2', 'c3']) tr.observe(target(`/ws/${id}.ts`), present('v'), { callId: id, name: 'edit', agent: agent('s') });
  assert.deepEqual(tr.take({ callId: 'c1', agent: agent('s') }), []);
  assert.equal(tr.take({ callId: 'c3', agent: agent('s') }).length, 1);
  tr.forgetSession('s');
  assert.deepEqual(tr.take({ callId: 'c2', agent: agent('s') }), []);
});
