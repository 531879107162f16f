/**
 * `check --watch` with declaration signatures ({@link WatchAffected} with an engine answering
 * `declarationSignatures`, scripted; files on disk): tsc's builder rule — an edit that leaves
 * the changed file's declarations as they were asks that file alone and keeps its importers'
 * reports; an edit that changes them (or makes them global), a signature not known for the old
 * text or not given for the new one, a changed file not judged fresh, asks the importers as
 * before. A kept report pointing into the changed file is asked again; an interrupted run keeps
 * nothing it did not confirm.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import type { FileReport } from '../../src/cli/check-report.ts';
import { type AffectedSelection, type SelectionRun, WatchAffected } from '../../src/cli/watch-affected.ts';
import type { DeclarationSignature } from '../../src/lsp/engine-types.ts';

const ws = mkdtempSync(join(tmpdir(), 'dsh-watch-declarations-'));
const src = join(ws, 'src');
const file = (name: string): string => join(src, name);
const CONFIG = join(ws, 'tsconfig.json');
const ALL = ['point.ts', 'app.ts', 'main.ts', 'leaf.ts', 'other0.ts', 'other1.ts', 'other2.ts'].map(file);
const ALL_BUT_POINT = ALL.filter((path) => path !== file('point.ts')).sort();
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
  for (let i = 0; i < 3; i++) writeFileSync(file(`other${i}.ts`), `export const other${i} = ${i};\n`);
}

const report = (path: string, state: FileReport['state'] = 'fresh', related?: string): FileReport => ({
  path,
  state,
  truncated: false,
  diagnostics:
    related === undefined
      ? []
      : [{ severity: 'error', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, message: 'e', related: [{ path: related, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: "'y' is declared here." }] }],
});

/** The server's signatures: what each file's declarations hash to now (absent: not vouched for). */
type Signatures = Map<string, DeclarationSignature>;

function run(signatures: Signatures, over: Partial<SelectionRun> = {}): SelectionRun & { importersAsked: string[]; signaturesAsked: string[][] } {
  const importersAsked: string[] = [];
  const signaturesAsked: string[][] = [];
  return {
    planned: ALL,
    planReused: true,
    workspace: ws,
    isTypeScriptFile: (path) => path.endsWith('.ts'),
    onlyTypeScript: (path) => path.endsWith('.ts'),
    engine: {
      fileImporters: async (path) => {
        importersAsked.push(path);
        return IMPORTERS[path] ?? [];
      },
      projectFiles: async () => ALL,
      declarationSignatures: async (paths) => {
        signaturesAsked.push([...paths]);
        return new Map(paths.flatMap((path) => (signatures.has(path) ? [[path, signatures.get(path) as DeclarationSignature] as const] : [])));
      },
    },
    importersAsked,
    signaturesAsked,
    ...over,
  };
}

/** One run as check-command drives it; `judge` says each asked file's report (fresh by default). */
async function cycle(
  watch: WatchAffected,
  changes: Array<{ path: string; kind: 'changed' }>,
  r: SelectionRun,
  judge: (path: string) => FileReport = (path) => report(path),
): Promise<{ selection: AffectedSelection; settled: string[]; asked: string[] }> {
  watch.begin(changes);
  const selection = await watch.select(r);
  const first = (selection.recheck ?? r.planned).map(judge);
  let reports = [...selection.kept, ...first];
  let settled: string[] = [];
  if (selection.deferred === true) {
    settled = (await watch.settle(first)).recheck;
    reports = [...reports.filter((one) => !settled.includes(one.path)), ...settled.map(judge)];
  }
  watch.diagnosed(reports);
  watch.listed(new Map([[CONFIG, ALL]]), [{ configPath: CONFIG, files: ALL }]);
  await watch.finished();
  return { selection, settled, asked: [...(selection.recheck ?? r.planned), ...settled].sort() };
}

const edit = (name: string, text: string): { path: string; kind: 'changed' } => {
  writeFileSync(file(name), text);
  return { path: file(name), kind: 'changed' };
};

const sig = (signature: string, global = false, program = 'p1'): DeclarationSignature => ({ signature, global, program });

describe("WatchAffected with declaration signatures: tsc's builder rule", () => {
  let watch: WatchAffected;
  let signatures: Signatures;
  beforeEach(() => {
    writeTree();
    watch = new WatchAffected();
    signatures = new Map(ALL.map((path) => [path, sig(`${path}#1`)]));
  });

  it('an edit that keeps the declarations asks the changed file alone and keeps its importers (no importer walk)', async () => {
    const first = await cycle(watch, [], run(signatures, { planReused: false }));
    assert.equal(first.selection.recheck, undefined);
    const r = run(signatures);
    const same = await cycle(watch, [edit('point.ts', '// a comment\nexport interface Point { x: number; y: number }\n')], r);
    assert.equal(same.selection.deferred, true, same.selection.reason);
    assert.deepEqual(same.asked, [file('point.ts')]);
    assert.deepEqual(same.selection.kept.map((one) => one.path).sort(), ALL_BUT_POINT);
    assert.deepEqual(r.importersAsked, [], 'no importer was looked for');
    assert.deepEqual(r.signaturesAsked, [[file('point.ts')]], 'the new text of the changed file only (the rest were recorded after the first run)');
  });

  it('an edit that changes the declarations asks the importers, transitively', async () => {
    await cycle(watch, [], run(signatures, { planReused: false }));
    signatures.set(file('point.ts'), sig('point#2'));
    const r = run(signatures);
    const changed = await cycle(watch, [edit('point.ts', 'export interface Point { x: number }\n')], r);
    assert.deepEqual(changed.selection.recheck, [file('point.ts')]);
    assert.deepEqual(changed.settled.sort(), [file('app.ts'), file('main.ts')]);
    assert.deepEqual(changed.asked, [file('app.ts'), file('main.ts'), file('point.ts')]);
    // the new signature is the old one of the next edit: a comment then asks point.ts alone
    const next = await cycle(watch, [edit('point.ts', '// c\nexport interface Point { x: number }\n')], run(signatures));
    assert.deepEqual(next.asked, [file('point.ts')]);
  });

  it('an importer asked again because of a changed dependency gets a new signature (its own edit is judged by it)', async () => {
    await cycle(watch, [], run(signatures, { planReused: false }));
    signatures.set(file('point.ts'), sig('point#2'));
    signatures.set(file('app.ts'), sig('app#2')); // app.ts's inferred declarations follow point.ts's
    await cycle(watch, [edit('point.ts', 'export interface Point { x: number }\n')], run(signatures));
    const app = await cycle(watch, [edit('app.ts', "import type { Point } from './point.js';\nexport const p: Point = { x: 3 };\n")], run(signatures));
    assert.deepEqual(app.asked, [file('app.ts')], 'app.ts#2 before and after its own edit');
  });

  it('asks every file when the changed file declares globals now (by the compiler) or its program gained or lost a file', async () => {
    await cycle(watch, [], run(signatures, { planReused: false }));
    signatures.set(file('point.ts'), sig(`${file('point.ts')}#1`, true));
    const global = await cycle(watch, [edit('point.ts', '// x\nexport interface Point { x: number; y: number }\n')], run(signatures));
    assert.deepEqual(global.asked, ALL.slice().sort());
    // the old text's signature is now a global one: the next edit walks the importers at once
    signatures.set(file('point.ts'), sig(`${file('point.ts')}#1`));
    const was = await cycle(watch, [edit('point.ts', '// xy\nexport interface Point { x: number; y: number }\n')], run(signatures));
    assert.equal(was.selection.deferred, undefined);
    assert.deepEqual(was.asked, [file('app.ts'), file('main.ts'), file('point.ts')]);
    // an edit that pulls a new file into the program (same declarations): every file
    signatures.set(file('point.ts'), sig(`${file('point.ts')}#1`, false, 'p2'));
    const joined = await cycle(watch, [edit('point.ts', "import './polyfill.js';\nexport interface Point { x: number; y: number }\n")], run(signatures));
    assert.deepEqual(joined.asked, ALL.slice().sort());
  });

  it('asks the importers when the new text gets no signature', async () => {
    await cycle(watch, [], run(signatures, { planReused: false }));
    signatures.delete(file('point.ts'));
    const none = await cycle(watch, [edit('point.ts', '// xyz\nexport interface Point { x: number; y: number }\n')], run(signatures));
    assert.deepEqual(none.asked, [file('app.ts'), file('main.ts'), file('point.ts')]);
  });

  it('asks the importers when the old text has no signature (the server did not vouch for one)', async () => {
    signatures.delete(file('point.ts'));
    await cycle(watch, [], run(signatures, { planReused: false }));
    signatures.set(file('point.ts'), sig('point#1'));
    const unknown = await cycle(watch, [edit('point.ts', '// a\nexport interface Point { x: number; y: number }\n')], run(signatures));
    assert.equal(unknown.selection.deferred, undefined);
    assert.deepEqual(unknown.asked, [file('app.ts'), file('main.ts'), file('point.ts')]);
  });

  it('keeps no signature taken while its file moved (written between the run and the answer)', async () => {
    const racing = run(signatures, { planReused: false });
    const ask = racing.engine.declarationSignatures?.bind(racing.engine) as NonNullable<SelectionRun['engine']['declarationSignatures']>;
    racing.engine.declarationSignatures = async (paths, root, opts) => {
      const answer = await ask(paths, root, opts);
      writeFileSync(file('point.ts'), '// moved while asked\nexport interface Point { x: number; y: number }\n');
      return answer;
    };
    await cycle(watch, [], racing);
    const next = await cycle(watch, [edit('point.ts', '// abc\nexport interface Point { x: number; y: number }\n')], run(signatures));
    assert.equal(next.selection.deferred, undefined);
    assert.deepEqual(next.asked, [file('app.ts'), file('main.ts'), file('point.ts')]);
  });

  it("asks the importers when the changed file's report in this run is not fresh", async () => {
    await cycle(watch, [], run(signatures, { planReused: false }));
    const pending = await cycle(watch, [edit('point.ts', '// p\nexport interface Point { x: number; y: number }\n')], run(signatures), (path) =>
      report(path, path === file('point.ts') ? 'pending' : 'fresh'),
    );
    assert.deepEqual(pending.settled.sort(), [file('app.ts'), file('main.ts')]);
  });

  it('asks again a kept report with a related location in the changed file (its lines there may have moved)', async () => {
    await cycle(watch, [], run(signatures, { planReused: false }), (path) => report(path, 'fresh', path === file('app.ts') ? file('point.ts') : undefined));
    const shifted = await cycle(watch, [edit('point.ts', '\n\nexport interface Point { x: number; y: number }\n')], run(signatures));
    assert.deepEqual(shifted.asked, [file('app.ts'), file('point.ts')]);
    assert.deepEqual(shifted.settled, []);
  });

  it('an interrupted run keeps none of the reports it kept on condition', async () => {
    await cycle(watch, [], run(signatures, { planReused: false }));
    const controller = new AbortController();
    watch.begin([edit('point.ts', '// i\nexport interface Point { x: number; y: number }\n')]);
    const selection = await watch.select(run(signatures, { signal: controller.signal }));
    assert.equal(selection.deferred, true);
    controller.abort();
    const settled = await watch.settle([report(file('point.ts'))]);
    assert.deepEqual(settled.recheck.sort(), ALL_BUT_POINT);
  });

  it('an interrupt while the server answers the new signatures keeps nothing, and settles instead of throwing', async () => {
    await cycle(watch, [], run(signatures, { planReused: false }));
    const controller = new AbortController();
    const r = run(signatures, { signal: controller.signal });
    r.engine.declarationSignatures = (_paths, _root, opts) =>
      new Promise((_resolve, reject) => opts?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    watch.begin([edit('point.ts', '// j\nexport interface Point { x: number; y: number }\n')]);
    const selection = await watch.select(r);
    assert.equal(selection.deferred, true);
    const settling = watch.settle([report(file('point.ts'))]);
    setTimeout(() => controller.abort(), 10);
    const settled = await settling;
    assert.deepEqual(settled.recheck.sort(), ALL_BUT_POINT);
    assert.equal(settled.reason, 'the run was interrupted');
  });

  it("an interrupt does not wait for the previous run's signatures (a server that never answers them)", { timeout: 10_000 }, async () => {
    const hung = run(signatures, { planReused: false });
    hung.engine.declarationSignatures = () => new Promise(() => undefined);
    watch.begin([]);
    const first = await watch.select(hung);
    watch.diagnosed((first.recheck ?? ALL).map((path) => report(path)));
    watch.listed(new Map([[CONFIG, ALL]]), [{ configPath: CONFIG, files: ALL }]);
    void watch.finished(); // the background recording never ends
    const controller = new AbortController();
    watch.begin([edit('point.ts', '// k\nexport interface Point { x: number; y: number }\n')]);
    const selecting = watch.select(run(signatures, { signal: controller.signal }));
    controller.abort();
    await assert.rejects(selecting);
  });

  it('without declaration signatures in the engine, the importers are walked as before', async () => {
    const plain = run(signatures);
    delete plain.engine.declarationSignatures;
    await cycle(watch, [], { ...plain, planReused: false });
    const edited = await cycle(watch, [edit('point.ts', '// q\nexport interface Point { x: number; y: number }\n')], plain);
    assert.equal(edited.selection.deferred, undefined);
    assert.deepEqual(edited.asked, [file('app.ts'), file('main.ts'), file('point.ts')]);
  });
});
