/**
 * The warm pool through the engine (fake server, REAL harness services): single-flight start,
 * restart after a crash, giving up, idle and LRU stops, dispose, document cap, cancellation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isActionError } from '../../src/errors.ts';
import type { LiveServerInfo } from '../../src/lsp/engine-types.ts';
import { fakeEntry, makeConfig, makeWorkspace, processAlive, startEngine, type Workspace } from './engine-fixture.ts';

let ws: Workspace;
before(async () => {
  ws = await makeWorkspace('lsp-pool-');
});
after(async () => {
  await ws.remove();
});

const errorCode = (code: string) => (e: unknown) => isActionError(e) && e.code === code;

/** Waits for a condition the engine reaches on its own (a timer), failing after `ms`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('server pool', () => {
  it('starts one process for concurrent first calls and reuses it', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({ delayMs: { initialize: 300 } }) }));
    try {
      const paths = await Promise.all([1, 2, 3, 4, 5].map((i) => ws.write(`s${i}.txt`, `ERROR ${i}\n`)));
      const results = await Promise.all(paths.map((path) => f.engine.diagnostics({ root: ws.root, path })));
      assert.ok(results.every((d) => d.state === 'fresh' && d.diagnostics.length === 1));
      const live = f.engine.liveServers();
      assert.equal(live.length, 1);
      assert.equal(live[0]?.openDocuments, 5);
      const log = await f.client('fake').request<Array<{ method?: string }>>('fake/log', undefined);
      assert.equal(log.filter((m) => m.method === 'initialize').length, 1);
    } finally {
      await f.close();
    }
  });

  it('restarts a killed server on the next call, reopening its documents', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({}) }));
    try {
      const path = await ws.write('k.txt', 'ERROR\n');
      await f.engine.diagnostics({ root: ws.root, path });
      const pid = f.engine.liveServers()[0]?.pid ?? -1;
      const gone = new Promise<void>((resolve) => f.client('fake').onDidFail(() => resolve()));
      process.kill(pid, 'SIGKILL');
      await gone;
      const d = await f.engine.diagnostics({ root: ws.root, path });
      assert.equal(d.state, 'fresh');
      assert.equal(d.diagnostics.length, 1);
      const live = f.engine.liveServers();
      assert.equal(live.length, 1);
      assert.notEqual(live[0]?.pid, pid);
      assert.equal(live[0]?.restarts, 1);
    } finally {
      await f.close();
    }
  });

  it('gives up after more than maxRestarts crashes within the window, and says so', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({ crashOn: ['initialize'] }, { maxRestarts: 1, restartWindowMs: 60_000 }) }));
    try {
      const t = { root: ws.root, path: await ws.write('g.txt', 'x\n') };
      await assert.rejects(f.engine.hover(t, { line: 0, character: 0 }), (e: unknown) => {
        assert.ok(isActionError(e) && e.code === 'LSP_ACTION_SERVER_CRASHED', String(e));
        assert.match(String(e.details.stderrTail), /crashing on initialize/);
        return true;
      });
      await assert.rejects(f.engine.hover(t, { line: 0, character: 0 }), errorCode('LSP_ACTION_SERVER_CRASHED'));
      await assert.rejects(f.engine.hover(t, { line: 0, character: 0 }), (e: unknown) => {
        assert.ok(isActionError(e) && e.code === 'LSP_ACTION_SERVER_GAVE_UP', String(e));
        assert.match(e.message, /crashed 2 times within 60000 ms \(more than maxRestarts 1\)/);
        assert.match(String(e.details.stderrTail), /crashing on initialize/);
        return true;
      });
    } finally {
      await f.close();
    }
  });

  it('stops a server idle for idleTimeoutMs', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({}, { idleTimeoutMs: 300 }) }));
    try {
      await f.engine.hover({ root: ws.root, path: await ws.write('i.txt', 'word\n') }, { line: 0, character: 1 });
      const pid = f.engine.liveServers()[0]?.pid ?? -1;
      await until('the idle server is gone', async () => f.engine.liveServers().length === 0 && !(await processAlive(pid)));
      assert.ok(f.logs.some((l) => /idleTimeoutMs/.test(l)));
    } finally {
      await f.close();
    }
  });

  it('stops the least recently used server beyond maxLiveServers', async () => {
    const f = await startEngine(
      makeConfig({ one: fakeEntry({}), two: fakeEntry({}, { extensionToLanguage: { '.md': 'markdown' } }) }, { maxLiveServers: 1 }),
    );
    try {
      await f.engine.hover({ root: ws.root, path: await ws.write('l.txt', 'a\n') }, { line: 0, character: 0 });
      const first = f.engine.liveServers()[0] as LiveServerInfo;
      await f.engine.hover({ root: ws.root, path: await ws.write('l.md', 'a\n') }, { line: 0, character: 0 });
      assert.deepEqual(f.engine.liveServers().map((s) => s.serverId), ['two']);
      assert.equal(await processAlive(first.pid ?? -1), false);
    } finally {
      await f.close();
    }
  });

  it('holds maxLiveServers under concurrent first calls for many roots: the extra starts wait, none is refused', async () => {
    const f = await startEngine(
      makeConfig({ fake: fakeEntry({ delayMs: { 'textDocument/hover': 200 } }, { rootMarkers: ['marker'] }) }, { maxLiveServers: 2 }),
    );
    let peak = 0;
    const sampling = { on: true };
    const sampler = (async () => {
      while (sampling.on) {
        peak = Math.max(peak, f.engine.liveServers().filter((s) => s.state !== 'stopping').length);
        await new Promise((r) => setImmediate(r));
      }
    })();
    try {
      const targets = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(async (i) => {
          await ws.write(`cap${i}/marker`, '');
          return { root: ws.root, path: await ws.write(`cap${i}/f.txt`, 'word\n') };
        }),
      );
      const results = await Promise.allSettled(targets.map((t) => f.engine.hover(t, { line: 0, character: 1 })));
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
      sampling.on = false;
      await sampler;
      assert.ok(peak <= 2, `at most 2 live servers at once, saw ${peak}`);
      assert.ok(f.engine.liveServers().length <= 2);
      assert.ok(f.logs.some((l) => /waiting for one of 2 live servers/.test(l)), 'the extra starts waited');
    } finally {
      sampling.on = false;
      await sampler;
      await f.close();
    }
  });

  it('stopServer stops one (server, root) after its calls end: its documents closed, the other root untouched, a later call starts a new one', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({ delayMs: { 'textDocument/hover': 400 } }, { rootMarkers: ['marker'] }) }));
    try {
      await ws.write('stopA/marker', '');
      await ws.write('stopB/marker', '');
      const a = { root: ws.root, path: await ws.write('stopA/f.txt', 'ERROR\n') };
      const b = { root: ws.root, path: await ws.write('stopB/f.txt', 'ERROR\n') };
      await f.engine.diagnostics(a);
      await f.engine.diagnostics(b);
      const rootA = await f.engine.serverRootOf('fake', a.path, ws.root);
      assert.equal(rootA, ws.path('stopA'));
      const first = f.engine.liveServers();
      const pidA = first.find((s) => s.root === rootA)?.pid ?? -1;
      const pidB = first.find((s) => s.root === ws.path('stopB'))?.pid ?? -1;
      assert.deepEqual(f.engine.openDocuments().sort(), [a.path, b.path].sort());
      // A call in flight is not cut short: the stop waits for it.
      const inFlight = f.engine.hover(a, { line: 0, character: 1 });
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(await f.engine.stopServer('fake', rootA), true);
      await inFlight;
      assert.equal(await processAlive(pidA), false, 'the stopped server is gone');
      assert.deepEqual(f.engine.openDocuments(), [b.path], "its documents are closed, the other root's kept");
      assert.deepEqual(f.engine.liveServers().map((s) => s.pid), [pidB]);
      assert.equal(await f.engine.stopServer('fake', rootA), false, 'nothing live there any more');
      const again = await f.engine.diagnostics(a);
      assert.equal(again.state, 'fresh');
      assert.equal(again.diagnostics.length, 1);
      const renewed = f.engine.liveServers().find((s) => s.root === rootA);
      assert.ok(renewed !== undefined && renewed.pid !== pidA, 'a new process for that root');
      assert.equal(renewed.restarts, 1);
    } finally {
      await f.close();
    }
  });

  it('declarationSignatures asks only servers up now: it never starts or restarts one (a started one has no project, and would push another out)', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({}, { rootMarkers: ['marker'] }) }));
    try {
      await ws.write('sigA/marker', '');
      const a = { root: ws.root, path: await ws.write('sigA/f.txt', 'ERROR\n') };
      assert.deepEqual([...(await f.engine.declarationSignatures?.([a.path], ws.root) ?? new Map())], []);
      assert.deepEqual(f.engine.liveServers(), [], 'no server started for a never-started root');
      await f.engine.diagnostics(a);
      const rootA = await f.engine.serverRootOf('fake', a.path, ws.root);
      const pid = f.engine.liveServers()[0]?.pid;
      await f.engine.declarationSignatures?.([a.path], ws.root);
      assert.deepEqual(f.engine.liveServers().map((s) => s.pid), [pid], 'the live one asked, kept');
      assert.equal(await f.engine.stopServer('fake', rootA), true);
      await f.engine.declarationSignatures?.([a.path], ws.root);
      assert.deepEqual(f.engine.liveServers(), [], 'a stopped one is not started again');
    } finally {
      await f.close();
    }
  });

  it('closes the least recently used documents beyond maxOpenDocuments', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({}) }, { maxOpenDocuments: 2 }));
    try {
      const paths = [await ws.write('d1.txt', '1'), await ws.write('d2.txt', '2'), await ws.write('d3.txt', '3')];
      for (const path of paths) await f.engine.hover({ root: ws.root, path }, { line: 0, character: 0 });
      const docs = await f.client('fake').request<Array<{ uri: string }>>('fake/documents', undefined);
      assert.deepEqual(docs.map((d) => d.uri).sort(), [`file://${paths[1]}`, `file://${paths[2]}`]);
      assert.deepEqual(f.engine.openDocuments(), [paths[1], paths[2]]);
    } finally {
      await f.close();
    }
  });

  it('cancels a diagnostics wait promptly', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({ diagnostics: 'none' }) }));
    try {
      const controller = new AbortController();
      const pending = f.engine.diagnostics({ root: ws.root, path: await ws.write('c.txt', 'x') }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      const t0 = performance.now();
      await assert.rejects(pending, errorCode('LSP_ACTION_CANCELLED'));
      assert.ok(performance.now() - t0 < 2000);
    } finally {
      await f.close();
    }
  });

  it('dispose stops every server, leaves no process and refuses further calls', async () => {
    const f = await startEngine(makeConfig({ a: fakeEntry({}), b: fakeEntry({ diagnostics: 'pull', rejectNullParams: true, exitCodeOnExit: 1 }) }));
    const path = await ws.write('z.txt', 'ERROR\n');
    await f.engine.diagnostics({ root: ws.root, path });
    const pids = f.engine.liveServers().map((s) => s.pid ?? -1);
    assert.equal(pids.length, 2);
    await f.engine.dispose();
    for (const pid of pids) assert.equal(await processAlive(pid), false, `process ${pid} is gone`);
    assert.deepEqual(f.engine.liveServers(), []);
    await assert.rejects(f.engine.diagnostics({ root: ws.root, path }), errorCode('LSP_ACTION_DISPOSED'));
    await f.close();
  });
});
