/**
 * Issue 18: a caller's impatience never kills a server. Against the scriptable fake server
 * through the real engine and pool: requests whose callers give up at once (a 1 ms deadline, as
 * an editor's `waitMs: 1`) on a slow server that still answers its probe → never restarted; a
 * server that answers nothing at all, not even the probe → still detected and restarted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isActionError } from '../../src/errors.ts';
import { PROBE_METHOD } from '../../src/lsp/health-probe.ts';
import { fakeEntry, makeConfig, makeWorkspace, startEngine, type Workspace } from './engine-fixture.ts';

let ws: Workspace;
before(async () => {
  ws = await makeWorkspace('lsp-health-probe-');
});
after(async () => {
  await ws.remove();
});

async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const at = { line: 0, character: 0 };

describe('server health is judged by the server, not by its callers', () => {
  it('twelve callers giving up early (200 ms deadlines) on a slow server that answers its probe: never restarted', async () => {
    const f = await startEngine(makeConfig({ fake: fakeEntry({ delayMs: { 'textDocument/hover': 1500, [PROBE_METHOD]: 700 } }) }));
    try {
      const t = { root: ws.root, path: await ws.write('slow.txt', 'hello\n') };
      await f.engine.diagnostics(t);
      const pid = f.engine.liveServers()[0]?.pid;
      for (let i = 0; i < 12; i++) {
        await assert.rejects(f.engine.hover(t, at, { signal: AbortSignal.timeout(200) }), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_TIMEOUT');
      }
      const answer = await f.engine.hover(t, at);
      assert.ok(answer !== null, 'the slow server still answers');
      const live = f.engine.liveServers();
      assert.equal(live.length, 1);
      assert.equal(live[0]?.restarts, 0);
      assert.equal(live[0]?.pid, pid, 'the same process');
      assert.ok(!f.logs.some((l) => /stopped answering meaningfully|restarting in/.test(l)), f.logs.join('\n'));
      // the give-ups made the client ask the server, and the server answered every probe (slowly)
      const client = f.client('fake');
      assert.ok(client.probesSent >= 1);
      await until('every probe is answered', async () => {
        const log = await client.request<Array<{ method?: string }>>('fake/log', undefined);
        return log.filter((m) => m.method === PROBE_METHOD).length === client.probesSent && client.probesInFlight === 0;
      });
      assert.equal(client.state, 'ready');
      assert.equal(f.engine.liveServers()[0]?.restarts, 0);
    } finally {
      await f.close();
    }
  });

  it('a server that answers nothing, not even the probe, is still detected and restarted', async () => {
    const f = await startEngine(
      makeConfig({ fake: fakeEntry({ hangOn: ['textDocument/hover', PROBE_METHOD] }, { probeTimeoutMs: 400, maxRestarts: 3 }) }),
    );
    try {
      const t = { root: ws.root, path: await ws.write('hung.txt', 'hello\n') };
      await f.engine.diagnostics(t);
      const client = f.client('fake');
      const pid = client.pid;
      const failed = new Promise<unknown>((resolve) => client.onDidFail(resolve));
      await assert.rejects(f.engine.hover(t, at, { signal: AbortSignal.timeout(50) }), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_TIMEOUT');
      const failure = await failed;
      assert.ok(isActionError(failure) && failure.code === 'LSP_ACTION_SERVER_CRASHED', String(failure));
      assert.match(failure.message, /answered neither a probe request within 400 ms \(probeTimeoutMs\) nor any other request/);
      await f.engine.diagnostics(t);
      const live = f.engine.liveServers();
      assert.equal(live.length, 1);
      assert.notEqual(live[0]?.pid, pid, 'a new process');
      assert.equal(live[0]?.restarts, 1);
    } finally {
      await f.close();
    }
  });
});
