/**
 * Cross-file truth and the tsserver passthrough on the real typescript-language-server 5.3.0 +
 * TypeScript 5.9.3: a change to another file (open or not, made on disk by someone else) is
 * never answered with the old verdict as `fresh`; passthrough lists equal tsls's own pushes.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { nodeWorkspaceWatch } from '../../src/documents/node-workspace-watcher.ts';
import type { DocumentTarget, EngineDiagnostic, FileDiagnostics } from '../../src/lsp/engine-types.ts';
import type { LspEngine } from '../../src/lsp/lsp-engine.ts';
import { TSLS_ENTRY } from '../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

const T = { timeout: 180_000 };
const TSLS = TSLS_ENTRY;
const LIB1 = 'export function f(a: number): number {\n  return a;\n}\n';
const LIB2 = 'export function f(a: number, b: number): number {\n  return a + b;\n}\n';
const LIB3 = 'export function f(a: number): string {\n  return String(a);\n}\n';
const MAIN = "import { f } from './lib';\nexport const x: number = f(1);\n";

const norm = (d: EngineDiagnostic): string => JSON.stringify({ ...d, serverId: undefined });
const codes = (d: FileDiagnostics): Array<string | number | undefined> => d.diagnostics.map((x) => x.code);

/**
 * Asks with no sleep after the change, then again until a fresh answer: every fresh answer must
 * be the expected one (a non-fresh one may be anything).
 */
async function freshAnswer(engine: LspEngine, target: DocumentTarget, expected: Array<string | number>): Promise<FileDiagnostics> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const d = await engine.diagnostics(target);
    if (d.state === 'fresh') {
      assert.deepEqual(codes(d), expected, `fresh answer #${attempt} for ${target.path}`);
      return d;
    }
  }
  assert.fail(`no fresh answer for ${target.path} after 40 asks`);
}

async function tsWorkspace(prefix: string): Promise<Workspace> {
  const ws = await makeWorkspace(prefix);
  await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
  await ws.write('lib.ts', LIB1);
  await ws.write('main.ts', MAIN);
  return ws;
}

describe('cross-file changes (tsls, passthrough), lib.ts never opened, workspace watcher', () => {
  let ws: Workspace;
  let f: EngineFixture;
  before(async () => {
    ws = await tsWorkspace('xfile-watch-');
    f = await startEngine(makeConfig({ tsls: TSLS }), { watch: nodeWorkspaceWatch() });
  });
  after(async () => {
    await f.close();
    await ws.remove();
  });

  it('a signature change on disk gives main.ts TS2554, a return type change TS2322, a revert clears it', T, async () => {
    const main = { root: ws.root, path: ws.path('main.ts') };
    await freshAnswer(f.engine, main, []);
    await ws.write('lib.ts', LIB2);
    await freshAnswer(f.engine, main, [2554]);
    await ws.write('lib.ts', LIB3);
    await freshAnswer(f.engine, main, [2322]);
    await ws.write('lib.ts', LIB1);
    await freshAnswer(f.engine, main, []);
    assert.deepEqual(f.engine.openDocuments(), [main.path], 'lib.ts was never held open');
  });

  it('deleting the import target gives TS2307, recreating it clears it', T, async () => {
    const main = { root: ws.root, path: ws.path('main.ts') };
    await rm(ws.path('lib.ts'));
    await freshAnswer(f.engine, main, [2307]);
    await ws.write('lib.ts', LIB1);
    await freshAnswer(f.engine, main, []);
  });

  it('tells listeners which open documents a dependency change affects', T, async () => {
    const main = ws.path('main.ts');
    const seen = new Promise<string[]>((resolve) => {
      const off = f.engine.onDependencyChange((event) => {
        if (!event.changes.some((c) => c.path === ws.path('lib.ts'))) return;
        off();
        resolve(event.affected.map((a) => a.path));
      });
    });
    await ws.write('lib.ts', LIB2);
    assert.deepEqual(await seen, [main]);
    await freshAnswer(f.engine, { root: ws.root, path: main }, [2554]);
    await ws.write('lib.ts', LIB1);
    await freshAnswer(f.engine, { root: ws.root, path: main }, []);
  });
});

describe('cross-file changes (tsls), both files checked once, no watcher (sweep of open documents)', () => {
  let ws: Workspace;
  let f: EngineFixture;
  before(async () => {
    ws = await tsWorkspace('xfile-sweep-');
    f = await startEngine(makeConfig({ tsls: TSLS }));
  });
  after(async () => {
    await f.close();
    await ws.remove();
  });

  for (const strategy of ['auto', 'push'] as const) {
    it(`the open copy of lib.ts is re-synced from disk before main.ts is answered (${strategy})`, T, async () => {
      const g = strategy === 'auto' ? f : await startEngine(makeConfig({ tsls: TSLS }), { diagnosticsStrategy: 'push' });
      try {
        const main = { root: ws.root, path: ws.path('main.ts') };
        const lib = { root: ws.root, path: ws.path('lib.ts') };
        await freshAnswer(g.engine, lib, []);
        await freshAnswer(g.engine, main, []);
        await ws.write('lib.ts', LIB2);
        const d = await freshAnswer(g.engine, main, [2554]);
        assert.equal(d.servers[0]?.strategy, strategy === 'auto' ? 'tsserver' : 'push');
        await rm(ws.path('lib.ts'));
        await freshAnswer(g.engine, main, [2307]);
        await ws.write('lib.ts', LIB1);
        await freshAnswer(g.engine, lib, []);
        await freshAnswer(g.engine, main, []);
      } finally {
        if (g !== f) await g.close();
      }
    });
  }
});

describe('tsserver passthrough (tsls)', () => {
  let ws: Workspace;
  let auto: EngineFixture;
  let push: EngineFixture;
  before(async () => {
    ws = await makeWorkspace('passthrough-');
    await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true,"noUnusedLocals":false}}');
    auto = await startEngine(makeConfig({ tsls: TSLS }));
    push = await startEngine(makeConfig({ tsls: TSLS }), { diagnosticsStrategy: 'push' });
  });
  after(async () => {
    await auto.close();
    await push.close();
    await ws.remove();
  });

  it('gives the same list as tsls pushes, hints (unused, deprecated) and related information included', T, async () => {
    const files: Record<string, string> = {
      'hints.ts': [
        '/** @deprecated use g */',
        'export function old(): number { return 1; }',
        'export function g(): number {',
        '  const unused = 2;',
        '  return old();',
        '}',
        'import { readFileSync } from "node:fs";',
        '',
      ].join('\n'),
      'errors.ts': [
        'export interface Point { x: number; y: number }',
        'const p: Point = { x: 1 };',
        'let q: string = 3;',
        'function h(a: number, b = a) { return b; }',
        'h();',
        'export const z = p.x + q.length + (1 as unknown as Pointt);',
        '',
      ].join('\n'),
      'syntax.ts': 'export const a = (1 + ;\nexport const b: number = "x";\n',
    };
    for (const [name, text] of Object.entries(files)) {
      const target = { root: ws.root, path: await ws.write(name, text) };
      const viaPassthrough = await auto.engine.diagnostics(target);
      const viaPush = await push.engine.diagnostics(target);
      assert.equal(viaPassthrough.state, 'fresh');
      assert.equal(viaPush.state, 'fresh');
      assert.equal(viaPassthrough.servers[0]?.strategy, 'tsserver');
      assert.equal(viaPush.servers[0]?.strategy, 'push');
      assert.ok(viaPassthrough.diagnostics.length > 0, `${name} has diagnostics`);
      assert.deepEqual(viaPassthrough.diagnostics.map(norm), viaPush.diagnostics.map(norm), name);
    }
    const hints = await auto.engine.diagnostics({ root: ws.root, path: ws.path('hints.ts') });
    assert.ok(hints.diagnostics.some((d) => d.severity === 'hint' && d.tags?.includes(1)), 'an unused hint with the Unnecessary tag');
    assert.ok(hints.diagnostics.some((d) => d.tags?.includes(2)), 'a deprecated hint with the Deprecated tag');
    const errors = await auto.engine.diagnostics({ root: ws.root, path: ws.path('errors.ts') });
    assert.ok(errors.diagnostics.some((d) => (d.relatedInformation?.length ?? 0) > 0), 'related information kept');
  });

  it('answers fresh right after each kind of edit, with no sleep: introduce, move, fix, clean stays clean', T, async () => {
    const path = ws.path('edit.ts');
    const target = { root: ws.root, path };
    const steps: Array<[string, Array<string | number>]> = [
      ['export const a: number = "x";\n', [2322]],
      ['// moved\n\nexport const a: number = "x";\n', [2322]],
      ['// moved\n\nexport const a: number = 1;\n', []],
      ['// moved\n\nexport const a: number = 2;\n', []],
      ['export const a: number = 2;\nexport const b: string = 1;\n', [2322]],
    ];
    for (const [text, expected] of steps) {
      await ws.write('edit.ts', text);
      const d = await auto.engine.diagnostics(target);
      assert.equal(d.state, 'fresh', text);
      assert.equal(d.servers[0]?.analysedVersion, d.version);
      assert.deepEqual(codes(d), expected, text);
    }
  });

  it('a caller abort cancels a request in flight; the next call answers', T, async () => {
    const cold = await startEngine(makeConfig({ tsls: TSLS }));
    try {
      const target = { root: ws.root, path: ws.path('errors.ts') };
      const controller = new AbortController();
      const asked = cold.engine.diagnostics(target, { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(asked, (e: { code?: string }) => e.code === 'LSP_ACTION_CANCELLED');
      const d = await cold.engine.diagnostics(target);
      assert.equal(d.state, 'fresh');
      assert.ok(d.diagnostics.length > 0);
    } finally {
      await cold.close();
    }
  });
});

describe('diagnosticsMany (tsls): a project checked without opening every file', () => {
  it('gives each file the list per-file diagnostics give, opening one file only', T, async () => {
    const ws = await makeWorkspace('batch-');
    await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
    const files: Record<string, string> = {
      'src/a.ts': 'export const a: number = "x";\n',
      'src/b.ts': "import { a } from './a';\nexport const b: string = a;\n",
      'src/c.ts': "import { b } from './b';\nexport const c = b.length;\n",
      'src/d.ts': "import { nope } from './missing';\nexport const d = nope;\n",
    };
    const paths = await Promise.all(Object.entries(files).map(([rel, text]) => ws.write(rel, text)));
    const batch = await startEngine(makeConfig({ tsls: TSLS }));
    const single = await startEngine(makeConfig({ tsls: TSLS }));
    try {
      const many = await batch.engine.diagnosticsMany(ws.root, [...paths, ws.path('src/gone.ts')]);
      assert.equal(batch.engine.openDocuments().length, 1, 'only the first file was opened');
      for (const [i, path] of paths.entries()) {
        const entry = many[i];
        assert.ok(entry !== undefined && !('error' in entry), path);
        assert.equal(entry.state, 'fresh');
        const one = await single.engine.diagnostics({ root: ws.root, path });
        assert.deepEqual(entry.diagnostics.map(norm), one.diagnostics.map(norm), path);
      }
      assert.deepEqual(many.map((e) => ('error' in e ? e.error.code : codes(e))), [[2322], [2322], [], [2307], 'LSP_ACTION_FILE_NOT_FOUND']);
    } finally {
      await batch.close();
      await single.close();
      await ws.remove();
    }
  });

  it('minSeverity below hint skips the hint-only pass: the same errors, no hints; the default keeps them', T, async () => {
    const ws = await makeWorkspace('batch-sev-');
    await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
    const paths = [
      await ws.write('src/first.ts', 'export const first = 1;\n'),
      await ws.write('src/unused.ts', 'export function f(): number {\n  const unused = 1;\n  const n: number = "x";\n  return n;\n}\n'),
    ];
    const engine = await startEngine(makeConfig({ tsls: TSLS }));
    try {
      const all = await engine.engine.diagnosticsMany(ws.root, paths);
      const errorsOnly = await engine.engine.diagnosticsMany(ws.root, paths, { minSeverity: 3 });
      const [allUnused, errUnused] = [all[1], errorsOnly[1]];
      assert.ok(allUnused !== undefined && !('error' in allUnused) && errUnused !== undefined && !('error' in errUnused));
      assert.ok(allUnused.diagnostics.some((d) => d.severity === 'hint' && d.tags?.includes(1)), 'default: the unused hint is there');
      assert.deepEqual(errUnused.diagnostics.filter((d) => d.severity === 'hint'), [], 'minSeverity 3: no hints asked');
      assert.deepEqual(codes(errUnused), [2322]);
      assert.deepEqual(codes(allUnused).filter((c) => c === 2322), [2322]);
      assert.equal(errUnused.state, 'fresh');
    } finally {
      await engine.close();
      await ws.remove();
    }
  });

  it('a file saved by someone else while the batch runs: the unopened answers are pending, never fresh', T, async () => {
    const ws = await makeWorkspace('batch-race-');
    await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
    const paths: string[] = [];
    for (let i = 0; i < 200; i++) paths.push(await ws.write(`src/m${String(i).padStart(3, '0')}.ts`, `export const v${i}: number = ${i};\n`));
    const engine = await startEngine(makeConfig({ tsls: TSLS }));
    try {
      const batch = engine.engine.diagnosticsMany(ws.root, paths);
      // once the first file is open (the project is loading), the rest are still to be asked
      while (engine.engine.openDocuments().length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      await ws.write('src/m199.ts', 'export const v199: number = "saved meanwhile";\n');
      const entries = await batch;
      const unopened = entries.filter((entry) => !engine.engine.openDocuments().includes(entry.path));
      assert.ok(unopened.length >= 150, `most files were asked without opening (${unopened.length})`);
      for (const entry of unopened) {
        assert.ok(!('error' in entry), entry.path);
        assert.equal(entry.state, 'pending', `${entry.path}: answered while a file changed, so not fresh`);
      }
    } finally {
      await engine.close();
      await ws.remove();
    }
  });

  it('prestart starts the project server warm without opening a file; the batch then reuses it', T, async () => {
    const ws = await makeWorkspace('batch-pre-');
    const config = await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
    const path = await ws.write('src/a.ts', 'export const a: number = "x";\n');
    const engine = await startEngine(makeConfig({ tsls: TSLS }));
    try {
      await engine.engine.prestart('tsls', config, ws.root);
      const live = engine.engine.liveServers();
      assert.equal(live.length, 1);
      assert.equal(live[0]?.state, 'ready');
      assert.equal(live[0]?.openDocuments, 0);
      const pid = live[0]?.pid;
      const [entry] = await engine.engine.diagnosticsMany(ws.root, [path]);
      assert.ok(entry !== undefined && !('error' in entry));
      assert.deepEqual(codes(entry), [2322]);
      assert.equal(engine.engine.liveServers()[0]?.pid, pid, 'the same process answered');
    } finally {
      await engine.close();
      await ws.remove();
    }
  });
});
