/**
 * Unsolicited diagnostics events settle: a push the engine cannot call fresh yet is announced
 * again once its result settles, so a listener that keeps only fresh snapshots (the editor's
 * default `diagnostics.updated`) still gets one. Fake server, real harness services.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DiagnosticsEvent } from '../../src/lsp/engine-types.ts';
import { fakeEntry, makeConfig, makeWorkspace, startEngine, type Workspace } from './engine-fixture.ts';

let ws: Workspace;
before(async () => {
  ws = await makeWorkspace('lsp-followup-');
});
after(async () => {
  await ws.remove();
});

describe('unsolicited diagnostics events', () => {
  it('a push still settling is announced as such, then once more as fresh', { timeout: 60_000 }, async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({ pushWithoutVersion: true }, { diagnosticsSettleMs: 200 }) }));
    try {
      const path = await ws.write('f1.txt', 'WARN\n');
      assert.equal((await f.engine.diagnostics({ root: ws.root, path })).state, 'fresh');
      const events: DiagnosticsEvent[] = [];
      const settled = new Promise<void>((resolve) =>
        f.engine.onDiagnostics((e) => {
          events.push(e);
          if (e.diagnostics.state === 'fresh') resolve();
        }),
      );
      await f.client('fake').request('fake/trigger', { push: { uri: `file://${path}`, content: 'real' } });
      await settled;
      const states = events.map((e) => e.diagnostics.state);
      assert.equal(states.at(-1), 'fresh');
      assert.ok(states.length >= 2 && states.slice(0, -1).every((s) => s !== 'fresh'), `first announced unsettled, then fresh: ${states.join(',')}`);
      assert.deepEqual(events.at(-1)?.diagnostics.diagnostics.map((d) => d.code), ['F002']);
    } finally {
      await f.close();
    }
  });
});
