import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { restartDelayMs, statusView } from '../../src/status-text.ts';

describe('status bar item', () => {
  it('shows starting, crashed (with the restart countdown and command) and not found', () => {
    assert.match(statusView({ state: 'starting' }).text, /starting/);
    const crashed = statusView({ state: 'crashed', restartInSeconds: 2 });
    assert.match(crashed.text, /crashed/);
    assert.equal(crashed.alarm, 'error');
    assert.match(crashed.tooltip, /restarting in 2 s/);
    assert.match(crashed.tooltip, /Restart Backend/);
    assert.match(statusView({ state: 'missing', detail: 'nowhere' }).tooltip, /serverPath[\s\S]*nowhere/);
  });

  it('never shows a pending or stale result as a plain ready state', () => {
    for (const freshness of ['pending', 'stale'] as const) {
      const view = statusView({ state: 'ready', freshness, file: 'src/main.ts', counts: { errors: 0, warnings: 0 } });
      assert.match(view.text, new RegExp(freshness));
      assert.equal(view.alarm, 'warning');
      assert.match(view.tooltip, new RegExp(`src/main\\.ts — 0 errors, 0 warnings\\n${freshness}: `));
      assert.match(view.tooltip, /may be/);
    }
    const fresh = statusView({ state: 'ready', freshness: 'fresh', file: 'src/main.ts', counts: { errors: 1, warnings: 0 } });
    assert.doesNotMatch(fresh.text, /pending|stale/);
    assert.equal(fresh.alarm, 'none');
    assert.match(fresh.tooltip, /1 error, 0 warnings[\s\S]*fresh: /);
  });

  it('names the session writes are bound to', () => {
    assert.match(statusView({ state: 'ready', sessionId: 's-1' }).tooltip, /Writes bound to session s-1/);
  });

  it('backs restarts off 1, 2, 4 … seconds up to 30', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs), [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
