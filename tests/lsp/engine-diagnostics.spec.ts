/**
 * Diagnostics freshness through the whole engine, against the scriptable fake server on the
 * REAL harness services: push (versioned, unversioned, empty-first, stale, silent), pull
 * (static, dynamic registration, refresh, not-ready with progress), merging, events.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DiagnosticsEvent, FileDiagnostics } from '../../src/lsp/engine-types.ts';
import type { FakeScenario } from '../fixtures/fake-lsp-scenario.ts';
import { fakeEntry, makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

let ws: Workspace;
before(async () => {
  ws = await makeWorkspace('lsp-diag-');
});
after(async () => {
  await ws.remove();
});

async function withEngine(scenario: FakeScenario, entry: Record<string, unknown>, fn: (f: EngineFixture) => Promise<void>, rest: Record<string, unknown> = {}): Promise<void> {
  const f = await startEngine(makeConfig({ fake: fakeEntry(scenario, entry) }, rest));
  try {
    await fn(f);
  } finally {
    await f.close();
  }
}

const codes = (d: FileDiagnostics): string[] => d.diagnostics.map((x) => `${x.range.start.line}:${x.range.start.character} ${String(x.code)}`);

describe('push diagnostics', () => {
  it('cold start: non-empty and fresh for version 1; after an edit fresh for version 2 with moved ranges', async () => {
    await withEngine({}, {}, async ({ engine }) => {
      const path = await ws.write('p1.txt', 'ok ERROR\n');
      const d1 = await engine.diagnostics({ root: ws.root, path });
      assert.equal(d1.state, 'fresh');
      assert.equal(d1.version, 1);
      assert.deepEqual(codes(d1), ['0:3 F001']);
      assert.equal(d1.servers[0]?.mode, 'push');
      assert.equal(d1.servers[0]?.strategy, 'versioned-push', 'a server without typescript.tsserverRequest uses push (this fake one sends versions)');
      assert.equal(d1.servers[0]?.analysedVersion, 1);
      await ws.write('p1.txt', '\nok ERROR WARN\n');
      const d2 = await engine.diagnostics({ root: ws.root, path });
      assert.equal(d2.state, 'fresh');
      assert.equal(d2.version, 2);
      assert.equal(d2.servers[0]?.analysedVersion, 2);
      assert.deepEqual(codes(d2), ['1:3 F001', '1:9 F002']);
    });
  });

  it('an empty-first, unversioned push sequence (typescript-language-server) yields the real list, not []', async () => {
    const scenario: FakeScenario = { pushWithoutVersion: true, pushSequence: [{ delayMs: 0, content: 'empty' }, { delayMs: 250, content: 'real' }] };
    await withEngine(scenario, {}, async ({ engine }) => {
      const path = await ws.write('p2.txt', 'ERROR here\n');
      const d = await engine.diagnostics({ root: ws.root, path });
      assert.equal(d.state, 'fresh');
      assert.deepEqual(codes(d), ['0:0 F001']);
      await ws.write('p2.txt', 'x ERROR\n');
      assert.deepEqual(codes(await engine.diagnostics({ root: ws.root, path })), ['0:2 F001']);
    });
  });

  it('the configured settle time covers a slower real push after an empty one', async () => {
    const scenario: FakeScenario = { pushSequence: [{ delayMs: 0, content: 'empty' }, { delayMs: 800, content: 'real' }] };
    await withEngine(scenario, { diagnosticsSettleMs: 600 }, async ({ engine }) => {
      const path = await ws.write('p3.txt', 'ERROR\n');
      assert.deepEqual(codes(await engine.diagnostics({ root: ws.root, path })), ['0:0 F001']);
    });
  });

  it('a cleared push ([] after a fix) is fresh for the fixed version', async () => {
    await withEngine({}, {}, async ({ engine }) => {
      const path = await ws.write('p4.txt', 'ERROR\n');
      assert.equal((await engine.diagnostics({ root: ws.root, path })).diagnostics.length, 1);
      await ws.write('p4.txt', 'fine\n');
      const d = await engine.diagnostics({ root: ws.root, path });
      assert.equal(d.state, 'fresh');
      assert.equal(d.version, 2);
      assert.deepEqual(d.diagnostics, []);
    });
  });

  it('a late push for an older version is never taken for the current one', async () => {
    // every edit pushes [] at once and its real list 400 ms later, tagged with its own version
    const scenario: FakeScenario = { pushSequence: [{ delayMs: 0, content: 'empty' }, { delayMs: 400, content: 'real' }] };
    await withEngine(scenario, {}, async ({ engine }) => {
      const path = await ws.write('p5.txt', 'ERROR ERROR\n');
      const first = engine.diagnostics({ root: ws.root, path }, { waitMs: 100 });
      assert.notEqual((await first).state, 'fresh', 'v1 has only its empty push so far');
      await ws.write('p5.txt', 'clean WARN\n');
      const d = await engine.diagnostics({ root: ws.root, path });
      assert.equal(d.version, 2);
      assert.equal(d.state, 'fresh');
      assert.deepEqual(codes(d), ['0:6 F002'], 'the ERRORs of v1, pushed while v2 was being asked about, are not v2');
    });
  });

  it('answers pending (never a fresh empty list) when the budget runs out before any push, and stale with the old result after an edit', async () => {
    const scenario: FakeScenario = { pushSequence: [{ delayMs: 1200, content: 'real' }] };
    await withEngine(scenario, {}, async ({ engine }) => {
      const path = await ws.write('p6.txt', 'ERROR\n');
      const early = await engine.diagnostics({ root: ws.root, path }, { waitMs: 200 });
      assert.equal(early.state, 'pending');
      assert.deepEqual(early.diagnostics, []);
      assert.deepEqual(codes(await engine.diagnostics({ root: ws.root, path })), ['0:0 F001']);
      await ws.write('p6.txt', 'WARN\n');
      const stale = await engine.diagnostics({ root: ws.root, path }, { waitMs: 200 });
      assert.equal(stale.state, 'stale');
      assert.equal(stale.version, 2);
      assert.equal(stale.servers[0]?.analysedVersion, 1);
      assert.deepEqual(codes(stale), ['0:0 F001']);
    });
  });

  it('nudges a silent server once by reopening the document, then answers pending', async () => {
    await withEngine({ diagnostics: 'none' }, { diagnosticsSettleMs: 100 }, async (f) => {
      const path = await ws.write('p7.txt', 'ERROR\n');
      const d = await f.engine.diagnostics({ root: ws.root, path }, { waitMs: 1500 });
      assert.equal(d.state, 'pending');
      assert.deepEqual(d.diagnostics, []);
      const log = await f.client('fake').request<Array<{ method?: string }>>('fake/log', undefined);
      const sync = log.map((m) => m.method).filter((m) => m?.startsWith('textDocument/did'));
      assert.deepEqual(sync, ['textDocument/didOpen', 'textDocument/didClose', 'textDocument/didOpen']);
    });
  });

  it('waits for work-done progress to end before trusting a push', async () => {
    await withEngine({ progressOnInitialized: { durationMs: 1200 } }, {}, async (f) => {
      const path = await ws.write('p8.txt', 'ERROR\n');
      const d = await f.engine.diagnostics({ root: ws.root, path });
      assert.equal(d.state, 'fresh');
      assert.equal(f.client('fake').progress.busy, false);
      assert.equal(f.client('fake').progress.everReported, true);
    });
  });

  it('emits unsolicited pushes for open documents to onDiagnostics listeners', async () => {
    await withEngine({}, {}, async (f) => {
      const path = await ws.write('p9.txt', 'WARN\n');
      await f.engine.diagnostics({ root: ws.root, path });
      const got = new Promise<DiagnosticsEvent>((resolve) => {
        const off = f.engine.onDiagnostics((e) => {
          off();
          resolve(e);
        });
      });
      await f.client('fake').request('fake/trigger', { push: { uri: `file://${path}`, content: 'real' } });
      const event = await got;
      assert.equal(event.path, path);
      assert.equal(event.root, ws.root);
      assert.equal(event.serverId, 'fake');
      assert.deepEqual(codes(event.diagnostics), ['0:0 F002']);
    });
  });
});

describe('pull diagnostics', () => {
  it('pulls with result ids and reuses items on an unchanged report after a refresh', async () => {
    await withEngine({ diagnostics: 'pull' }, {}, async (f) => {
      const path = await ws.write('q1.txt', 'ERROR\n');
      const d1 = await f.engine.diagnostics({ root: ws.root, path });
      assert.equal(d1.state, 'fresh');
      assert.equal(d1.servers[0]?.mode, 'pull');
      assert.deepEqual(codes(d1), ['0:0 F001']);
      const events: DiagnosticsEvent[] = [];
      const repulled = new Promise<void>((resolve) => f.engine.onDiagnostics((e) => (events.push(e), resolve())));
      await f.client('fake').request('fake/trigger', { refresh: true });
      await repulled;
      assert.deepEqual(codes(events[0]!.diagnostics), ['0:0 F001'], 'refresh re-pulled the open document');
      const log = await f.client('fake').request<Array<{ method?: string; params?: { previousResultId?: string }; result?: { kind?: string } }>>('fake/log', undefined);
      const pulls = log.filter((m) => m.method === 'textDocument/diagnostic');
      assert.equal(pulls.length, 2);
      assert.equal(pulls[0]?.params?.previousResultId, undefined);
      assert.equal(typeof pulls[1]?.params?.previousResultId, 'string', 'the re-pull sent previousResultId');
      const d2 = await f.engine.diagnostics({ root: ws.root, path });
      assert.deepEqual(codes(d2), ['0:0 F001'], 'the unchanged report kept the items');
      await ws.write('q1.txt', 'WARN ERROR\n');
      const d3 = await f.engine.diagnostics({ root: ws.root, path });
      assert.equal(d3.version, 2);
      assert.deepEqual(codes(d3), ['0:0 F002', '0:5 F001']);
    });
  });

  it('switches to pull when the server registers it after initialized (pyright)', async () => {
    await withEngine({ diagnostics: 'pull-dynamic', registerDelayMs: 400 }, {}, async ({ engine }) => {
      const path = await ws.write('q2.txt', 'WARN\n');
      const d = await engine.diagnostics({ root: ws.root, path });
      assert.equal(d.state, 'fresh');
      assert.equal(d.servers[0]?.mode, 'pull');
      assert.deepEqual(codes(d), ['0:0 F002']);
    });
  });

  it('does not trust empty pulls while the server is still loading (progress), re-pulls when it is ready', async () => {
    const scenario: FakeScenario = { diagnostics: 'pull', pullEmptyUntilReadyMs: 800, progressOnInitialized: { durationMs: 1300 } };
    await withEngine(scenario, {}, async ({ engine }) => {
      const path = await ws.write('q3.txt', 'ERROR\n');
      const d = await engine.diagnostics({ root: ws.root, path });
      assert.equal(d.state, 'fresh');
      assert.deepEqual(codes(d), ['0:0 F001']);
    });
  });

  it('answers pending when the loading server runs out the budget', async () => {
    const scenario: FakeScenario = { diagnostics: 'pull', pullEmptyUntilReadyMs: 5000, progressOnInitialized: { durationMs: 5000 } };
    await withEngine(scenario, {}, async ({ engine }) => {
      const path = await ws.write('q4.txt', 'ERROR\n');
      const d = await engine.diagnostics({ root: ws.root, path }, { waitMs: 600 });
      assert.equal(d.state, 'pending');
      assert.deepEqual(d.diagnostics, []);
    });
  });
});

describe('several servers on one file', () => {
  it('merges and tags diagnostics; a crashed server reports its error while the other still answers', async () => {
    const config = makeConfig({ push: fakeEntry({}), pull: fakeEntry({ diagnostics: 'pull', crashOn: ['textDocument/diagnostic'] }) });
    const f = await startEngine(config);
    try {
      const path = await ws.write('m1.txt', 'WARN ERROR\n');
      const d = await f.engine.diagnostics({ root: ws.root, path });
      assert.deepEqual(d.diagnostics.map((x) => x.serverId), ['push', 'push']);
      const crashed = d.servers.find((s) => s.serverId === 'pull');
      assert.equal(crashed?.error?.code, 'LSP_ACTION_SERVER_CRASHED');
      assert.equal(d.state, 'pending', 'the worst state across servers');
      assert.equal(d.servers.find((s) => s.serverId === 'push')?.state, 'fresh');
    } finally {
      await f.close();
    }
  });

  it('merges two healthy servers sorted by position', async () => {
    const f = await startEngine(makeConfig({ a: fakeEntry({}), b: fakeEntry({ diagnostics: 'pull' }) }));
    try {
      const path = await ws.write('m2.txt', 'WARN ERROR\n');
      const d = await f.engine.diagnostics({ root: ws.root, path });
      assert.equal(d.state, 'fresh');
      assert.deepEqual(d.diagnostics.map((x) => `${x.range.start.character}:${x.serverId}`), ['0:a', '0:b', '5:a', '5:b']);
    } finally {
      await f.close();
    }
  });
});
