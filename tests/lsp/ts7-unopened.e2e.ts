/**
 * `diagnosticsMany` on TypeScript 7's real `tsc --lsp`, as its preset configures it
 * (`pullsUnopenedFiles`): files pulled without being opened give the same answers as the
 * per-file path (open + pull) on a fresh server — utf-8 columns converted, a file outside every
 * tsconfig answered through the server's inferred project as when opened — a missing file is an
 * error entry, and a file changed while the batch runs makes the batch `pending`. A warm start
 * (decision 0110) loads the project before the batch: a file changed after that load, which no
 * watcher reports, is answered from its current text, never from what the server read.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { BatchDiagnosticsEntry, FileDiagnostics } from '../../src/lsp/engine-types.ts';
import { takeFileSnapshot } from '../../src/cli/file-snapshot.ts';
import { nativeTypeScriptServer } from '../../src/presets/native-typescript.ts';
import { TS7_TSC, testServersInstalled } from '../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

const T = { timeout: 120_000 };
let ws: Workspace;
const FILES: Record<string, string> = {
  // emoji and accents before the error: utf-8 columns differ from UTF-16 ones
  'src/a.ts': 'export const s = "😀é😀"; const p: Pointt = 1;\nexport const q = p;\n',
  'src/b.ts': "import { q } from './a';\nexport const n: number = 'x';\nexport const r = q;\n",
  'src/clean.ts': 'export const ok = 1;\n',
  // outside the tsconfig's `include`: tsc --lsp answers it through an inferred project
  'other/loose.ts': 'export const loose: number = "no";\nexport function f(x) { return x; }\n',
};

const entry = (): Record<string, unknown> => ({ ...nativeTypeScriptServer(TS7_TSC, [], ['tsconfig.json']) });
const shape = (d: FileDiagnostics | BatchDiagnosticsEntry): string[] =>
  'error' in d ? [`error ${d.error.code}`] : d.diagnostics.map((x) => `${x.range.start.line}:${x.range.start.character}-${x.range.end.character} ${x.severity} ${String(x.code)}`);

describe('TypeScript 7 tsc --lsp: unopened pulls (real)', { skip: !testServersInstalled() && 'run npm run test:servers' }, () => {
  let paths: string[];
  before(async () => {
    ws = await makeWorkspace('ts7-unopened-');
    await ws.write('tsconfig.json', '{"compilerOptions":{"noEmit":true},"include":["src"]}');
    paths = [];
    for (const [rel, text] of Object.entries(FILES)) paths.push(await ws.write(rel, text));
  });
  after(async () => {
    await ws.remove();
  });

  it('the preset pulls unopened; every answer fresh and equal to the per-file path on a fresh server', T, async () => {
    let batch: EngineFixture | undefined;
    let single: EngineFixture | undefined;
    try {
      batch = await startEngine(makeConfig({ typescript: entry() }));
      const entries = await batch.engine.diagnosticsMany(ws.root, paths);
      assert.match(batch.logs.join('\n'), /typescript: pulled 4 of 4 files unopened/);
      assert.deepEqual(
        entries.map((e) => ('error' in e ? 'error' : e.state)),
        paths.map(() => 'fresh'),
      );
      single = await startEngine(makeConfig({ typescript: entry() }));
      const perFile: string[][] = [];
      for (const path of paths) perFile.push(shape(await single.engine.diagnostics({ root: ws.root, path })));
      assert.deepEqual(entries.map(shape), perFile);
      // utf-8 → UTF-16: `Pointt` after the emoji is at UTF-16 column 35 (the server counted 41 bytes)
      assert.ok(shape(entries[0] as BatchDiagnosticsEntry).includes('0:35-41 error 2304'), shape(entries[0] as BatchDiagnosticsEntry).join(', '));
      // the inferred project outside every tsconfig: TS 7's strict default, as when the file is opened
      assert.ok(shape(entries[3] as BatchDiagnosticsEntry).some((d) => d.endsWith('error 7006')));
    } finally {
      await batch?.close();
      await single?.close();
    }
  });

  it('a file missing on disk is an error entry, never an empty fresh', T, async () => {
    const f = await startEngine(makeConfig({ typescript: entry() }));
    try {
      const entries = await f.engine.diagnosticsMany(ws.root, [paths[0] as string, ws.path('src/missing.ts')]);
      assert.equal((entries[0] as FileDiagnostics).state, 'fresh');
      assert.ok('error' in (entries[1] as BatchDiagnosticsEntry), JSON.stringify(entries[1]));
    } finally {
      await f.close();
    }
  });

  it('a file changed on disk while the batch runs: the batch is pending, not fresh', T, async () => {
    const f = await startEngine(makeConfig({ typescript: entry() }));
    const target = ws.path('src/clean.ts');
    try {
      let changed = false;
      const entries = await f.engine.diagnosticsMany(ws.root, paths, {
        onAnswered: () => {
          if (changed) return;
          changed = true;
          writeFileSync(target, 'export const ok: string = 1; // changed while the batch runs\n');
        },
      });
      assert.ok(changed);
      assert.deepEqual(
        entries.map((e) => ('error' in e ? 'error' : e.state)),
        paths.map(() => 'pending'),
      );
    } finally {
      writeFileSync(target, FILES['src/clean.ts'] as string);
      await f.close();
    }
  });

  it("after a warm start, a file changed once the project was loaded (no watcher tells) is answered from its current text, not the server's read", T, async () => {
    // no `watch`: the engine never hears of the change, as with a watcher's event that comes late
    const f = await startEngine(makeConfig({ typescript: entry() }));
    const target = ws.path('src/clean.ts');
    const group = paths.slice(0, 3);
    try {
      const snapshot = takeFileSnapshot(group);
      const { epoch, loaded } = await f.engine.warmStart('typescript', paths[0] as string, ws.root, snapshot);
      assert.ok(epoch !== undefined, 'a fresh process: the snapshot is its epoch');
      await loaded;
      writeFileSync(target, 'export const ok: string = 1; // changed after the server loaded the project\n');
      const entries = await f.engine.diagnosticsMany(ws.root, group, { epoch });
      const clean = entries[2] as BatchDiagnosticsEntry;
      assert.ok(!('error' in clean) && clean.state === 'fresh', JSON.stringify(clean));
      assert.ok(shape(clean).some((d) => d.endsWith('error 2322')), `the current text's error, not the loaded one's silence: ${shape(clean).join(', ')}`);
      assert.deepEqual(
        entries.slice(0, 2).map((e) => ('error' in e ? 'error' : e.state)),
        ['fresh', 'fresh'],
        'the unchanged files keep their proof',
      );
    } finally {
      writeFileSync(target, FILES['src/clean.ts'] as string);
      await f.close();
    }
  });
});
