/**
 * TypeScript 7 native `tsc --lsp --stdio`: pull-only diagnostics, utf-8 positions, rejects
 * `params: null` on shutdown/exit — for real.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TS7_TSC, testServersInstalled } from '../support/servers.ts';
import { makeConfig, makeWorkspace, processAlive, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';
import { assertAllGone, describeDiagnostics, killServer, serverProcesses } from './real-server-fixture.ts';

const T = { timeout: 60_000 };
let ws: Workspace;
let f: EngineFixture;
// emoji and accents before the error: utf-8 columns differ from UTF-16 ones
const V1 = 'export const s = "😀é😀"; const p: Pointt = 1;\nexport const q = p;\n';
const col = (text: string, needle: string): number => (text.split('\n').find((l) => l.includes(needle)) ?? '').indexOf(needle);
const V2 = `const label = "ünïcödé 😀"; export { label };\n${V1}`;

describe('TypeScript 7 tsc --lsp (real)', { skip: !testServersInstalled() && 'run npm run test:servers' }, () => {
  before(async () => {
    ws = await makeWorkspace('ts7-e2e-');
    await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
    f = await startEngine(makeConfig({ ts7: { command: TS7_TSC, args: ['--lsp', '--stdio'], extensionToLanguage: { '.ts': 'typescript' }, rootMarkers: ['tsconfig.json'] } }));
  });
  after(async () => {
    await f.close();
    await ws.remove();
  });

  it('cold start: pulls non-empty diagnostics, converting utf-8 columns', T, async () => {
    const path = await ws.write('a.ts', V1);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.equal(f.client('ts7').encoding, 'utf-8');
    assert.equal(d.state, 'fresh');
    assert.equal(d.servers[0]?.mode, 'pull');
    assert.deepEqual(describeDiagnostics(d, V1), [`0:${col(V1, 'Pointt')} Pointt 2304`]);
    assert.equal(col(V1, 'Pointt'), 35, 'UTF-16 column (the server counted 41 utf-8 bytes)');
  });

  it('after an edit the result is fresh for the new version, with the moved range', T, async () => {
    const path = await ws.write('a.ts', V2);
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.deepEqual([d.state, d.version, d.servers[0]?.analysedVersion], ['fresh', 2, 2]);
    assert.deepEqual(describeDiagnostics(d, V2), [`1:${col(V2, 'Pointt')} Pointt 2304`]);
  });

  it('converts request positions too (hover, definition, rename edits)', T, async () => {
    const t = { root: ws.root, path: ws.path('a.ts') };
    const [hover, definition, rename] = await Promise.all([
      f.engine.hover(t, { line: 0, character: 8 }),
      f.engine.definition(t, { line: 2, character: 17 }),
      f.engine.rename(t, { line: 0, character: 8 }, 'title'),
    ]);
    assert.match(hover?.contents ?? '', /label/);
    const p = col(V2, 'p: Pointt');
    assert.deepEqual(definition.map((l) => [l.range.start.line, l.range.start.character, l.range.end.character]), [[1, p, p + 1]]);
    const edits = rename.edit.steps.flatMap((s) => (s.kind === 'edit' ? s.edits : []));
    const positions = edits.map((e) => `${e.range.start.line}:${e.range.start.character}-${e.range.end.character}`).sort();
    // `label` at 0:6 and inside `export { label }` after the emoji: UTF-16 column 37
    assert.equal(V2.split('\n')[0]?.slice(37, 42), 'label');
    assert.deepEqual(positions, ['0:37-42', '0:6-11']);
  });

  it('restarts after the server is killed mid-session', T, async () => {
    const pid = await killServer(f, 'ts7');
    const d = await f.engine.diagnostics({ root: ws.root, path: ws.path('a.ts') });
    assert.deepEqual(describeDiagnostics(d, V2), [`1:${col(V2, 'Pointt')} Pointt 2304`]);
    assert.notEqual(f.engine.liveServers()[0]?.pid, pid);
    assert.equal(await processAlive(pid), false);
  });

  it('dispose shuts it down (shutdown/exit without params) and leaves no process', T, async () => {
    const pids = await serverProcesses(f);
    assert.ok(pids.length >= 1);
    const t0 = performance.now();
    await f.engine.dispose();
    assert.ok(performance.now() - t0 < 2500, 'orderly exit, not the shutdown timeout');
    await assertAllGone(pids);
  });
});
