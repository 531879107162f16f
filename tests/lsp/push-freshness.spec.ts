import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PushDocState, PushLatency } from '../../src/lsp/push-freshness.ts';

const timing = { settleMs: 300, inFlightGuardMs: 150 };

describe('PushDocState', () => {
  it('waits while nothing was published for the version, reporting the older result', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    assert.deepEqual(s.evaluate(1, 100, timing, false), { kind: 'waiting', silentSince: 0 });
    s.notePublish(['e1'], undefined, 200, timing);
    assert.equal(s.evaluate(1, 600, timing, false).kind, 'fresh');
    s.noteSent(2, 1000, timing, false);
    const v = s.evaluate(2, 1100, timing, false);
    assert.equal(v.kind, 'waiting');
    assert.equal(v.kind === 'waiting' ? v.older?.version : undefined, 1);
  });

  it('settles a non-empty result after settleMs of quiet and an empty one after twice that', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.notePublish(['x'], 1, 100, timing);
    assert.deepEqual(s.evaluate(1, 399, timing, false).kind, 'settling');
    assert.deepEqual(s.evaluate(1, 400, timing, false).kind, 'fresh');
    s.noteSent(2, 1000, timing, false);
    s.notePublish([], 2, 1100, timing);
    const early = s.evaluate(2, 1500, timing, false);
    assert.equal(early.kind, 'settling', 'an empty list needs 2 × settleMs of quiet');
    assert.equal(early.kind === 'settling' ? early.at : 0, 1700);
    assert.equal(s.evaluate(2, 1700, timing, false).kind, 'fresh');
  });

  it('does not settle while the server reports progress', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.notePublish(['x'], undefined, 100, timing);
    assert.equal(s.evaluate(1, 5000, timing, true).kind, 'settling');
  });

  it('replaces an empty-first push by the real list that follows (tsls)', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.notePublish([], undefined, 900, timing);
    s.notePublish(['2322'], undefined, 990, timing);
    const v = s.evaluate(1, 1300, timing, false);
    assert.equal(v.kind, 'fresh');
    assert.deepEqual(v.kind === 'fresh' ? v.record.items : [], ['2322']);
  });

  it('attributes an unversioned publish arriving right after a change, while the previous result was unsettled, to the previous version', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.notePublish(['old-partial'], undefined, 50, timing);
    s.noteSent(2, 100, timing, false); // version 1 had not settled yet
    s.notePublish(['old-full'], undefined, 140, timing); // in flight for version 1
    const v = s.evaluate(2, 1000, timing, false);
    assert.equal(v.kind, 'waiting');
    s.notePublish(['new'], undefined, 500, timing);
    const w = s.evaluate(2, 900, timing, false);
    assert.equal(w.kind, 'fresh');
    assert.deepEqual(w.kind === 'fresh' ? [w.record.version, w.record.items] : [], [2, ['new']]);
  });

  it('trusts an explicit version over arrival order', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.noteSent(2, 10, timing, false);
    s.notePublish(['for-1'], 1, 20, timing);
    const v = s.evaluate(2, 1000, timing, false);
    assert.equal(v.kind, 'waiting');
    assert.equal(v.kind === 'waiting' ? v.older?.items[0] : undefined, 'for-1');
  });

  it('reports didChange → publish latency only for unambiguous changes', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    assert.equal(s.notePublish(['a'], undefined, 2000, timing).latency, undefined, 'didOpen latency is startup, not analysis');
    s.noteSent(2, 3000, timing, false);
    assert.equal(s.notePublish(['a'], undefined, 3365, timing).latency, 365);
    assert.equal(s.notePublish(['a', 'b'], undefined, 3400, timing).latency, undefined, 'only the first publish');
  });
});

describe('PushLatency', () => {
  it('nudges after twice the slowest recent latency, never sooner than twice settleMs', () => {
    const l = new PushLatency();
    assert.equal(l.silenceMs(300), 1200);
    l.add(100);
    assert.equal(l.silenceMs(300), 600);
    l.add(500);
    assert.equal(l.silenceMs(300), 1000);
  });
});

describe('PushDocState after a nudge (close + reopen)', () => {
  it('ignores unversioned publishes until the barrier passed, counts versioned ones, then takes the next answer', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.noteSent(1, 1200, timing, false); // the reopen
    s.noteReopened();
    s.notePublish(['real'], 1, 1201, timing); // versioned: for v1 whatever the copy
    assert.deepEqual(s.notePublish([], undefined, 1205, timing), {}, 'the clear of the closed copy is ignored');
    const v = s.evaluate(1, 1600, timing, false);
    assert.equal(v.kind, 'fresh');
    assert.deepEqual(v.kind === 'fresh' ? v.record.items : [], ['real']);
    s.barrierPassed();
    assert.equal(s.notePublish(['after'], undefined, 1700, timing).record?.version, 1);
  });

  it('takes the first unversioned [] after the barrier as the answer (tsls publishes a never-published clean file once)', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.noteSent(1, 1200, timing, false);
    s.noteReopened();
    s.barrierPassed();
    assert.equal(s.notePublish([], undefined, 1280, timing).record?.version, 1);
    assert.equal(s.evaluate(1, 1880, timing, false).kind, 'fresh');
  });
});

describe('PushDocState ordering barrier (servers with a request on their analysis thread)', () => {
  it('a result is final only after a barrier sent after it was answered, plus settleMs of quiet', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.notePublish(['x'], undefined, 100, timing);
    assert.deepEqual(s.evaluate(1, 5_000, timing, false, true), { kind: 'settling', record: s.last, at: 5_000, barrier: 'send' });
    const id = s.noteBarrierSent(5_000);
    const waiting = s.evaluate(1, 60_000, timing, false, true);
    assert.deepEqual([waiting.kind, waiting.kind === 'settling' ? waiting.barrier : '', waiting.kind === 'settling' ? waiting.at : 0], ['settling', 'await', Infinity]);
    s.noteBarrierAnswered(id, 60_010);
    assert.equal(s.evaluate(1, 60_309, timing, false, true).kind, 'settling', 'settleMs after the answer');
    assert.equal(s.evaluate(1, 60_310, timing, false, true).kind, 'fresh');
    assert.equal(s.evaluate(1, 60_310, timing, true, true).kind, 'settling', 'progress still holds it');
  });

  it('cold typescript-language-server on a loaded machine: the interim [] never settles, however long the analysis takes', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.notePublish([], undefined, 17_000, timing); // syntax-only list
    const first = s.noteBarrierSent(17_001); // queued behind the semantic check
    for (const t of [17_600, 18_200, 25_000, 37_000]) {
      const v = s.evaluate(1, t, timing, false, true);
      assert.equal(v.kind, 'settling', `still unsettled at ${t} ms`);
    }
    s.notePublish(['2322'], undefined, 37_900, timing); // the semantic list
    s.noteBarrierAnswered(first, 37_850); // answered in order, after the check
    const v = s.evaluate(1, 37_901, timing, false, true);
    assert.equal(v.kind === 'settling' ? v.barrier : '', 'send', 'a publish after the barrier was sent needs a new one');
    const second = s.noteBarrierSent(37_901);
    s.noteBarrierAnswered(first, 37_950);
    assert.equal(s.evaluate(1, 40_000, timing, false, true).kind, 'settling', 'an answer to a superseded barrier does not count');
    s.noteBarrierAnswered(second, 40_000);
    const done = s.evaluate(1, 40_300, timing, false, true);
    assert.equal(done.kind, 'fresh');
    assert.deepEqual(done.kind === 'fresh' ? done.record.items : [], ['2322']);
  });

  it('a new version forgets the barrier', () => {
    const s = new PushDocState<string>();
    s.noteSent(1, 0, timing, false);
    s.notePublish([], 1, 10, timing);
    s.noteBarrierAnswered(s.noteBarrierSent(20), 30);
    s.noteSent(2, 40, timing, false);
    s.notePublish([], 2, 50, timing);
    const v = s.evaluate(2, 5_000, timing, false, true);
    assert.equal(v.kind === 'settling' ? v.barrier : '', 'send');
  });
});
