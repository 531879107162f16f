/**
 * Which files a `check --watch` re-check asks again ({@link WatchAffected}), with files on disk
 * (the scopes are read from them) and a scripted engine answering `fileImporters`: a leaf edit
 * asks the leaf only, an imported file's edit asks its importers transitively, and every doubt
 * (no finished run, a new plan, globals declared or removed, a file in two programs or none, no
 * importers answer, a text changed while judged, a degraded watcher) asks every file.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import type { FileReport } from '../../src/cli/check-report.ts';
import { type SelectionRun, WatchAffected } from '../../src/cli/watch-affected.ts';

const ws = mkdtempSync(join(tmpdir(), 'dsh-watch-affected-'));
const src = join(ws, 'src');
const file = (name: string): string => join(src, name);
const CONFIG = join(ws, 'tsconfig.json');
const NAMES = ['point.ts', 'app.ts', 'main.ts', 'leaf.ts', 'globals.ts', 'uses-global.ts'];
const ALL = NAMES.map(file);
/** Who imports whom, as tsserver's `fileReferences` would answer. */
const IMPORTERS: Record<string, string[]> = { [file('point.ts')]: [file('app.ts')], [file('app.ts')]: [file('main.ts')] };

after(() => rmSync(ws, { recursive: true, force: true }));

function writeTree(): void {
  rmSync(ws, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  writeFileSync(CONFIG, '{"include":["src"]}\n');
  writeFileSync(file('point.ts'), 'export interface Point { x: number; y: number }\n');
  writeFileSync(file('app.ts'), "import type { Point } from './point.js';\nexport const p: Point = { x: 1, y: 2 };\n");
  writeFileSync(file('main.ts'), "import { p } from './app.js';\nexport const x = p.x;\n");
  writeFileSync(file('leaf.ts'), 'export const leaf = 1;\n');
  writeFileSync(file('globals.ts'), 'export {};\ndeclare global {\n  var appName: string;\n}\n');
  writeFileSync(file('uses-global.ts'), 'export const name: string = globalThis.appName;\n');
}

const fresh = (path: string, state: FileReport['state'] = 'fresh'): FileReport => ({ path, state, diagnostics: [], truncated: false });

function run(over: Partial<SelectionRun> = {}, importers: Record<string, string[] | undefined> = IMPORTERS): SelectionRun & { asked: string[] } {
  const asked: string[] = [];
  return {
    planned: ALL,
    planReused: true,
    workspace: ws,
    isTypeScriptFile: (path) => path.endsWith('.ts'),
    onlyTypeScript: (path) => path.endsWith('.ts'),
    engine: {
      fileImporters: async (path) => {
        asked.push(path);
        return path in importers ? importers[path] : [];
      },
      projectFiles: async () => ALL,
    },
    asked,
    ...over,
  };
}

/** One whole run as check-command drives it: begin, select, reports, listings, finished. */
async function cycle(watch: WatchAffected, changes: Array<{ path: string; kind: 'created' | 'changed' | 'deleted' }>, r = run(), listings = new Map([[CONFIG, ALL]])) {
  watch.begin(changes);
  const selection = await watch.select(r);
  const asked = selection.recheck ?? r.planned;
  watch.diagnosed([...selection.kept, ...asked.map((path) => fresh(path))]);
  watch.listed(listings, [{ configPath: CONFIG, files: ALL }]);
  watch.finished();
  return selection;
}

const edit = (name: string, text: string): { path: string; kind: 'changed' } => {
  writeFileSync(file(name), text);
  return { path: file(name), kind: 'changed' };
};

describe('WatchAffected: what a watch re-check asks again', () => {
  let watch: WatchAffected;
  beforeEach(() => {
    writeTree();
    watch = new WatchAffected();
  });

  it('asks every file in the first run, then only an edited leaf, keeping the rest', async () => {
    const first = await cycle(watch, [], run({ planReused: false }));
    assert.equal(first.recheck, undefined);
    assert.match(first.reason ?? '', /planned again/);
    const second = await cycle(watch, [edit('leaf.ts', 'export const leaf = 2;\n')]);
    assert.deepEqual(second.recheck, [file('leaf.ts')]);
    assert.deepEqual(second.kept.map((r) => r.path).sort(), ALL.filter((p) => p !== file('leaf.ts')).sort());
  });

  it('asks the transitive importers of an edited file', async () => {
    await cycle(watch, [], run({ planReused: false }));
    const r = run();
    const selection = await cycle(watch, [edit('point.ts', 'export interface Point { x: number }\n')], r);
    assert.deepEqual(selection.recheck?.sort(), [file('app.ts'), file('main.ts'), file('point.ts')].sort());
    assert.deepEqual(r.asked.sort(), [file('app.ts'), file('main.ts'), file('point.ts')].sort());
  });

  it('asks every file once the change reaches half of them (walking on would cost as much)', async () => {
    await cycle(watch, [], run({ planReused: false }));
    const wide = { [file('leaf.ts')]: [file('point.ts')], [file('point.ts')]: [file('app.ts'), file('globals.ts')], [file('app.ts')]: [file('main.ts')] };
    const selection = await cycle(watch, [edit('leaf.ts', 'export const leaf = 20;\n')], run({}, wide));
    assert.equal(selection.recheck, undefined);
    assert.match(selection.reason ?? '', /reaches 3 or more of the 6 files/);
  });

  it('asks again a kept file whose previous report was not fresh', async () => {
    watch.begin([]);
    await watch.select(run({ planReused: false }));
    watch.diagnosed(ALL.map((path) => fresh(path, path === file('main.ts') ? 'pending' : 'fresh')));
    watch.listed(new Map([[CONFIG, ALL]]), [{ configPath: CONFIG, files: ALL }]);
    watch.finished();
    const selection = await cycle(watch, [edit('leaf.ts', 'export const leaf = 3;\n')]);
    assert.deepEqual(selection.recheck?.sort(), [file('leaf.ts'), file('main.ts')].sort());
  });

  it('asks every file when a file stops declaring globals (the old text did), and when one starts', async () => {
    await cycle(watch, [], run({ planReused: false }));
    const removed = await cycle(watch, [edit('globals.ts', 'export {};\n')]);
    assert.equal(removed.recheck, undefined);
    assert.match(removed.reason ?? '', /globals/);
    // now neither text declares globals: an edit reaches its importers only
    const plain = await cycle(watch, [edit('globals.ts', 'export const nothing = 0;\n')]);
    assert.deepEqual(plain.recheck, [file('globals.ts')]);
    const added = await cycle(watch, [edit('leaf.ts', 'declare global {\n  var leafy: number;\n}\nexport {};\n')]);
    assert.equal(added.recheck, undefined);
    const script = await cycle(watch, [edit('main.ts', 'const x = 1;\n')]);
    assert.equal(script.recheck, undefined, 'a script (no import/export) declares globals');
  });

  it('asks every file when the text the last verdicts were judged with is not known', async () => {
    await cycle(watch, [], run({ planReused: false }));
    watch.begin([]);
    await watch.select(run());
    // leaf.ts changes while the run judges it, to a text that declared globals at that moment
    writeFileSync(file('leaf.ts'), 'declare global {\n  var leafy: number;\n}\nexport {};\n');
    watch.diagnosed(ALL.map((path) => fresh(path)));
    watch.listed(new Map([[CONFIG, ALL]]), [{ configPath: CONFIG, files: ALL }]);
    watch.finished();
    const selection = await cycle(watch, [edit('leaf.ts', 'export const leaf = 4;\n')]);
    assert.equal(selection.recheck, undefined);
    assert.match(selection.reason ?? '', /not known/);
  });

  it('asks every file when the plan was made again, or the previous run did not finish', async () => {
    await cycle(watch, [], run({ planReused: false }));
    assert.equal((await cycle(watch, [edit('leaf.ts', 'export const leaf = 5;\n')], run({ planReused: false }))).recheck, undefined);
    watch.begin([edit('leaf.ts', 'export const leaf = 6;\n')]);
    await watch.select(run()); // this run throws before its report: never finished
    const selection = await cycle(watch, [edit('leaf.ts', 'export const leaf = 7;\n')]);
    assert.equal(selection.recheck, undefined);
  });

  it('asks every file when no server can say what imports a changed file', async () => {
    await cycle(watch, [], run({ planReused: false }));
    const selection = await cycle(watch, [edit('point.ts', 'export interface Point { x: number }\n')], run({}, { [file('point.ts')]: undefined }));
    assert.equal(selection.recheck, undefined);
    assert.match(selection.reason ?? '', /what imports/);
  });

  it('asks every file when a changed file is in two programs, in none, or a planned file is in no listing', async () => {
    const other = join(ws, 'other', 'tsconfig.json');
    await cycle(watch, [], run({ planReused: false }), new Map([[CONFIG, ALL], [other, [file('point.ts')]]]));
    const twice = await cycle(watch, [edit('point.ts', 'export interface Point { x: number }\n')]);
    assert.match(twice.reason ?? '', /in 2 programs/);
    await cycle(watch, [], run(), new Map([[CONFIG, ALL.filter((p) => p !== file('leaf.ts'))]]));
    const none = await cycle(watch, [edit('leaf.ts', 'export const leaf = 8;\n')]);
    assert.equal(none.recheck, undefined, 'leaf.ts is in no program listing (an inferred project)');
  });

  it('asks every file when a file the programs read outside the watched tree changed, or is not known unchanged', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'dsh-watch-affected-lib-'));
    try {
      const lib = join(outside, 'lib.d.ts');
      writeFileSync(lib, 'interface Extra { a: number }\n');
      const listings = new Map([[CONFIG, [...ALL, lib]]]);
      await cycle(watch, [], run({ planReused: false }), listings);
      // written just now: the version the first run judged is not proven
      assert.match((await cycle(watch, [edit('leaf.ts', 'export const leaf = 13;\n')], run(), listings)).reason ?? '', /cannot see/);
      assert.deepEqual((await cycle(watch, [edit('leaf.ts', 'export const leaf = 14;\n')], run(), listings)).recheck, [file('leaf.ts')]);
      // a config in node_modules that the program extends is proven the same way
      const base = join(outside, 'tsconfig.base.json');
      writeFileSync(base, '{}\n');
      watch.begin([edit('leaf.ts', 'export const leaf = 140;\n')]);
      await watch.select(run());
      watch.diagnosed(ALL.map((path) => fresh(path)));
      watch.listed(listings, [{ configPath: CONFIG, files: ALL, extended: [base] }]);
      watch.finished();
      assert.match((await cycle(watch, [edit('leaf.ts', 'export const leaf = 141;\n')], run(), listings)).reason ?? '', /tsconfig\.base\.json, which the watcher cannot see/);
      writeFileSync(lib, 'interface Extra { a: string }\n');
      assert.match((await cycle(watch, [edit('leaf.ts', 'export const leaf = 15;\n')], run(), listings)).reason ?? '', /lib\.d\.ts, which the watcher cannot see, changed/);
      assert.deepEqual((await cycle(watch, [edit('leaf.ts', 'export const leaf = 16;\n')], run(), listings)).recheck, [file('leaf.ts')]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a kept report is printed stale when a file changes while the re-check goes on (the next run asks again)', async () => {
    await cycle(watch, [], run({ planReused: false }));
    watch.begin([edit('leaf.ts', 'export const leaf = 11;\n')]);
    const selection = await watch.select(run());
    const reports = [...selection.kept, fresh(file('leaf.ts'))];
    assert.deepEqual(watch.unlessOvertaken(reports), reports, 'no change meanwhile: as they are');
    watch.noteChanges();
    const printed = watch.unlessOvertaken(reports);
    assert.deepEqual(printed.filter((r) => r.state === 'stale').map((r) => r.path).sort(), selection.kept.map((r) => r.path).sort());
    assert.equal(printed.find((r) => r.path === file('leaf.ts'))?.state, 'fresh', "an asked file's freshness is the engine's to judge");
    assert.equal(printed[0]?.error?.code, 'CHANGED_DURING_CHECK');
  });

  it('asks every file for a change that is not a TypeScript source edit, and once the watcher is degraded', async () => {
    await cycle(watch, [], run({ planReused: false }));
    const py = join(src, 'tool.py');
    writeFileSync(py, 'x = 1\n');
    assert.equal((await cycle(watch, [{ path: py, kind: 'changed' }], run({ isTypeScriptFile: (p) => p.endsWith('.ts') }))).recheck, undefined);
    assert.deepEqual((await cycle(watch, [edit('leaf.ts', 'export const leaf = 9;\n')])).recheck, [file('leaf.ts')]);
    // a file another server judges too is asked every run
    const linted = await cycle(watch, [edit('leaf.ts', 'export const leaf = 12;\n')], run({ onlyTypeScript: (p) => p !== file('app.ts') }));
    assert.deepEqual(linted.recheck?.sort(), [file('app.ts'), file('leaf.ts')].sort());
    watch.watcherDegraded();
    assert.match((await cycle(watch, [edit('leaf.ts', 'export const leaf = 10;\n')])).reason ?? '', /degraded/);
  });
});
