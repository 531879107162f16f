/**
 * pyright 1.1.414: pull diagnostics registered dynamically after `initialized` — for real.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PYRIGHT, testServersInstalled } from '../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';
import { assertAllGone, describeDiagnostics, killServer, serverProcesses } from './real-server-fixture.ts';

const T = { timeout: 120_000 };
let ws: Workspace;
let f: EngineFixture;
const V1 = 'def greet(name: str) -> str:\n    return "hi " + name\n\nmissing_func()\n';
const V2 = '# moved\n\n' + V1;

describe('pyright (real)', { skip: !testServersInstalled() && 'run npm run test:servers' }, () => {
  before(async () => {
    ws = await makeWorkspace('pyright-e2e-');
    await ws.write('pyproject.toml', '[tool.pyright]\n');
    f = await startEngine(
      makeConfig({
        pyright: {
          command: process.execPath,
          args: [PYRIGHT, '--stdio'],
          extensionToLanguage: { '.py': 'python' },
          rootMarkers: ['pyproject.toml'],
          configuration: { python: { analysis: { typeCheckingMode: 'standard' } } },
        },
      }),
    );
  });
  after(async () => {
    await f.close();
    await ws.remove();
  });

  it('cold start: waits for the dynamic pull registration and returns non-empty, fresh diagnostics', T, async () => {
    const path = await ws.write('app.py', V1);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.equal(d.state, 'fresh');
    assert.equal(d.servers[0]?.mode, 'pull');
    assert.ok(f.client('pyright').registry.registrations('textDocument/diagnostic').length > 0, 'pull came from a registration');
    assert.deepEqual(describeDiagnostics(d, V1), ['3:0 missing_func reportUndefinedVariable']);
  });

  it('after an edit the result is fresh for the new version, with the moved range', T, async () => {
    const path = await ws.write('app.py', V2);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.deepEqual([d.state, d.version, d.servers[0]?.analysedVersion], ['fresh', 2, 2]);
    assert.deepEqual(describeDiagnostics(d, V2), ['5:0 missing_func reportUndefinedVariable']);
  });

  it('answers parallel requests', T, async () => {
    const t = { root: ws.root, path: ws.path('app.py') };
    const [hover, symbols, completion, refs] = await Promise.all([
      f.engine.hover(t, { line: 2, character: 5 }),
      f.engine.documentSymbols(t),
      f.engine.completion(t, { line: 3, character: 20 }),
      f.engine.references(t, { line: 2, character: 5 }),
    ]);
    assert.match(hover?.contents ?? '', /greet/);
    assert.ok(symbols.symbols.some((s) => s.name === 'greet'));
    assert.ok(completion.items.length > 0);
    assert.ok(refs.length >= 1);
  });

  it('restarts after the server is killed mid-session', T, async () => {
    const pid = await killServer(f, 'pyright');
    const d = await f.engine.diagnostics({ root: ws.root, path: ws.path('app.py') });
    assert.equal(d.state, 'fresh');
    assert.deepEqual(describeDiagnostics(d, V2), ['5:0 missing_func reportUndefinedVariable']);
    assert.notEqual(f.engine.liveServers()[0]?.pid, pid);
  });

  it('dispose leaves no process', T, async () => {
    const pids = await serverProcesses(f);
    await f.engine.dispose();
    await assertAllGone(pids);
  });
});
