/**
 * typescript-language-server 5.3.0 + TypeScript 5.9.3 (push diagnostics, utf-16), for real.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TSLS_ENTRY } from '../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';
import { assertAllGone, describeDiagnostics, killServer, serverProcesses } from './real-server-fixture.ts';

const T = { timeout: 120_000 };
let ws: Workspace;
let f: EngineFixture;
const V1 = 'export interface Point { x: number }\nconst p: Pointt = { x: 1 };\nexport const q = p;\n';
const V2 = '// moved\n\n' + V1;

before(async () => {
  ws = await makeWorkspace('tsls-e2e-');
  await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
  f = await startEngine(
    makeConfig({
      tsls: TSLS_ENTRY,
    }),
  );
});
after(async () => {
  await f.close();
  await ws.remove();
});

describe('typescript-language-server (real)', () => {
  it('cold start: the first diagnostics are non-empty and fresh', T, async () => {
    const path = await ws.write('a.ts', V1);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.equal(d.state, 'fresh');
    assert.equal(d.servers[0]?.mode, 'pull');
    assert.equal(d.servers[0]?.strategy, 'tsserver');
    assert.deepEqual(describeDiagnostics(d, V1), ['1:9 Pointt 2552']);
  });

  it('after an edit the result is fresh for the new version, with the moved range', T, async () => {
    const path = await ws.write('a.ts', V2);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.equal(d.state, 'fresh');
    assert.equal(d.version, 2);
    assert.equal(d.servers[0]?.analysedVersion, 2);
    assert.deepEqual(describeDiagnostics(d, V2), ['3:9 Pointt 2552']);
  });

  it('a fix yields a fresh empty list, and an edit that keeps it clean too (tsls stays silent; the engine asks again)', T, async () => {
    const fixed = V2.replace('Pointt', 'Point');
    const path = await ws.write('a.ts', fixed);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.deepEqual([d.state, d.version, d.diagnostics.length], ['fresh', 3, 0]);
    await ws.write('a.ts', fixed + '\n');
    const again = await f.engine.diagnostics({ root: ws.root, path });
    assert.deepEqual([again.state, again.version, again.diagnostics.length], ['fresh', 4, 0]);
    await ws.write('a.ts', V2);
    assert.deepEqual(describeDiagnostics(await f.engine.diagnostics({ root: ws.root, path }), V2), ['3:9 Pointt 2552']);
  });

  it('answers parallel requests on one server', T, async () => {
    const t = { root: ws.root, path: ws.path('a.ts') };
    const [hover, completion, symbols, definition, actions, diagnostics] = await Promise.all([
      f.engine.hover(t, { line: 2, character: 19 }),
      f.engine.completion(t, { line: 4, character: 17 }),
      f.engine.documentSymbols(t),
      f.engine.definition(t, { line: 4, character: 17 }),
      f.engine.codeActions(t, { start: { line: 3, character: 9 }, end: { line: 3, character: 15 } }),
      f.engine.diagnostics(t),
    ]);
    assert.match(hover?.contents ?? '', /interface Point/);
    assert.ok(completion.items.length > 0);
    assert.deepEqual(symbols.symbols.map((s) => s.name).sort(), ['Point', 'p', 'q']);
    assert.deepEqual(definition.map((l) => [l.path, l.range.start.line]), [[t.path, 3]]);
    const spelling = actions.find((a) => /Change spelling to 'Point'/.test(a.title));
    assert.ok(spelling?.edit, 'the quick fix carries a direct edit');
    assert.equal(diagnostics.state, 'fresh');
  });

  it('restarts after the server is killed mid-session and answers again', T, async () => {
    const t = { root: ws.root, path: ws.path('a.ts') };
    const pid = await killServer(f, 'tsls');
    const d = await f.engine.diagnostics(t);
    assert.equal(d.state, 'fresh');
    assert.deepEqual(describeDiagnostics(d, V2), ['3:9 Pointt 2552']);
    const live = f.engine.liveServers();
    assert.equal(live.length, 1);
    assert.notEqual(live[0]?.pid, pid);
    assert.equal(live[0]?.restarts, 1);
  });

  it('dispose leaves no server process (tsserver children included)', T, async () => {
    const pids = await serverProcesses(f);
    assert.ok(pids.length >= 2, `cli + tsserver expected, got ${pids.join(',')}`);
    await f.engine.dispose();
    await assertAllGone(pids);
  });
});

describe('typescript-language-server (real), cold server, several files at once', () => {
  it('answers fresh for every file, a clean one included (tsls publishes a clean file once, right after loading)', T, async () => {
    const cold = await makeWorkspace('tsls-cold-');
    await cold.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
    const clean = await cold.write('src/geometry.ts', 'export interface Point { x: number; y: number }\nexport const origin: Point = { x: 0, y: 0 };\n');
    const broken = await cold.write('src/main.ts', "import { origin } from './geometry';\nexport const d: string = origin.x;\n");
    const typo = await cold.write('src/report.ts', "import type { Point } from './geometry';\nexport const p: Pointt = { x: 1, y: 2 } as Point;\n");
    const g = await startEngine(
      makeConfig({
        tsls: TSLS_ENTRY,
      }),
    );
    try {
      const results = await Promise.all([clean, broken, typo].map((path) => g.engine.diagnostics({ root: cold.root, path })));
      assert.deepEqual(
        results.map((d) => [d.state, d.diagnostics.map((x) => x.code)]),
        [
          ['fresh', []],
          ['fresh', [2322]],
          ['fresh', [2552]],
        ],
      );
    } finally {
      await g.close();
      await cold.remove();
    }
  });
});
