/**
 * dockerfile-language-server-nodejs 0.15.0: a tiny push server routed by glob — for real.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DOCKER_LS, testServersInstalled } from '../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';
import { assertAllGone, describeDiagnostics, killServer, serverProcesses } from './real-server-fixture.ts';

const T = { timeout: 60_000 };
let ws: Workspace;
let f: EngineFixture;
const V1 = 'FROM alpine:3.20\nrun echo hi\n';
const V2 = '# moved\nFROM alpine:3.20\n\nrun echo hi\n';

describe('dockerfile-language-server (real)', { skip: !testServersInstalled() && 'run npm run test:servers' }, () => {
  before(async () => {
    ws = await makeWorkspace('docker-e2e-');
    f = await startEngine(makeConfig({ docker: { command: DOCKER_LS, args: ['--stdio'], fileGlobs: { '**/Dockerfile': 'dockerfile' } } }));
  });
  after(async () => {
    await f.close();
    await ws.remove();
  });

  it('cold start: non-empty, fresh push diagnostics for a glob-routed file', T, async () => {
    const path = await ws.write('svc/Dockerfile', V1);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.equal(d.state, 'fresh');
    assert.equal(d.servers[0]?.mode, 'push');
    assert.deepEqual(describeDiagnostics(d, V1).map((s) => s.split(' ').slice(0, 2).join(' ')), ['1:0 run']);
  });

  it('after an edit the result is fresh for the new version, with the moved range', T, async () => {
    const path = await ws.write('svc/Dockerfile', V2);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.deepEqual([d.state, d.version, d.servers[0]?.analysedVersion], ['fresh', 2, 2]);
    assert.deepEqual(describeDiagnostics(d, V2).map((s) => s.split(' ').slice(0, 2).join(' ')), ['3:0 run']);
  });

  it('answers parallel requests: quick fix with an edit, hover, symbols', T, async () => {
    const t = { root: ws.root, path: ws.path('svc/Dockerfile') };
    const [actions, hover, symbols] = await Promise.all([
      f.engine.codeActions(t, { start: { line: 3, character: 0 }, end: { line: 3, character: 3 } }),
      f.engine.hover(t, { line: 1, character: 1 }),
      f.engine.documentSymbols(t),
    ]);
    const fix = actions.find((a) => a.edit !== undefined);
    assert.ok(fix, `a quick fix with an edit among ${actions.map((a) => a.title).join(', ')}`);
    assert.deepEqual(fix.edit?.steps.flatMap((s) => (s.kind === 'edit' ? s.edits.map((e) => e.newText) : [])), ['RUN']);
    assert.match(hover?.contents ?? '', /FROM/);
    assert.ok(symbols.symbols.length >= 2);
  });

  it('restarts after the server is killed mid-session', T, async () => {
    const pid = await killServer(f, 'docker');
    const d = await f.engine.diagnostics({ root: ws.root, path: ws.path('svc/Dockerfile') });
    assert.equal(d.state, 'fresh');
    assert.equal(d.diagnostics.length, 1);
    assert.notEqual(f.engine.liveServers()[0]?.pid, pid);
  });

  it('dispose leaves no process', T, async () => {
    const pids = await serverProcesses(f);
    await f.engine.dispose();
    await assertAllGone(pids);
  });
});
