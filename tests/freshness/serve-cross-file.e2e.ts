/**
 * Issue 7 through `serve`, spawned as an editor spawns it, with the real
 * typescript-language-server: `main.ts` imports from `lib.ts`; both were checked once; then
 * `lib.ts` changes on disk behind our back (or we change it ourselves) and `main.ts` is asked
 * about at once and then polled. Every answer is correct for the files as they are now or marked
 * non-fresh; a fresh correct answer arrives; a default subscriber only ever gets fresh
 * unsolicited pushes, and one with the new verdict for `main.ts` arrives. One test per scenario.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEditorClient, type EditorClient, type Frame } from '../support/editor-client.ts';
import { chainBottom, LIB_TS, LIB_TS_RETURNS_STRING, LIB_TS_TWO_PARAMS, MAIN_TS, put, writeImportChain } from './cross-file-fixtures.ts';
import { errorCodes, pollVerdicts, type Verdict } from './poll-verdicts.ts';

const T = { timeout: 300_000 };
const CHAIN_DEPTH = 200;
let ws: string;
let editor: EditorClient;

before(() => {
  ws = mkdtempSync(join(tmpdir(), 'lsp-fresh-serve-'));
  put(ws, 'tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true,"target":"ES2022","module":"ESNext","moduleResolution":"Bundler"}}');
  for (const dir of ['s2554', 's2322', 's2307', 'recreate', 'rename']) {
    put(ws, `${dir}/lib.ts`, LIB_TS);
    put(ws, `${dir}/main.ts`, MAIN_TS);
  }
  writeImportChain(ws, 'deep', CHAIN_DEPTH);
  editor = startEditorClient(['--workspace', ws, '--sandbox', 'workspace-write']);
  editor.notify('lsp.events', { subscribe: true });
});
after(() => {
  editor.child.kill('SIGKILL');
  rmSync(ws, { recursive: true, force: true });
});

async function ask(filePath: string): Promise<Verdict> {
  const envelope = await editor.run('diagnostics.get', { filePath, workspaceRoot: ws });
  assert.equal(envelope['status'], 'succeeded', JSON.stringify(envelope));
  const result = envelope['result'] as Frame;
  return { state: String(result['state']), errors: errorCodes(result['diagnostics'] as Frame[]) };
}

/** Both files checked once, fresh and clean, before the change. */
async function baseline(dir: string): Promise<void> {
  await pollVerdicts(() => ask(`${dir}/main.ts`), [], `${dir} baseline main.ts`);
  await pollVerdicts(() => ask(`${dir}/lib.ts`), [], `${dir} baseline lib.ts`);
}

/** Waits for an unsolicited fresh push for `filePath` with `expected` errors, sent after `mark`. */
async function freshPush(filePath: string, expected: string[], mark: number, label: string): Promise<void> {
  const giveUpAt = Date.now() + 120_000;
  const matches = (e: Frame): boolean => e['kind'] === 'diagnostics.updated' && e['origin'] === 'push' && e['filePath'] === filePath && JSON.stringify(errorCodes(e['diagnostics'] as Frame[])) === JSON.stringify(expected);
  while (!editor.events.slice(mark).some(matches)) {
    assert.ok(Date.now() < giveUpAt, `${label}: no fresh push for ${filePath} with [${expected.join(',')}]; pushes: ${pushes().map((e) => `${e['filePath']} ${e['state']} [${errorCodes(e['diagnostics'] as Frame[]).join(',')}]`).join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function pushes(): Frame[] {
  return editor.events.filter((e) => e['kind'] === 'diagnostics.updated' && e['origin'] === 'push');
}

describe('cross-file freshness through serve (real typescript-language-server)', () => {
  it('lib.ts changed on disk: an extra required parameter gives main.ts TS2554', T, async () => {
    await baseline('s2554');
    const mark = editor.events.length;
    writeFileSync(join(ws, 's2554/lib.ts'), LIB_TS_TWO_PARAMS);
    await pollVerdicts(() => ask('s2554/main.ts'), ['2554'], 'TS2554');
    await freshPush('s2554/main.ts', ['2554'], mark, 'TS2554');
  });

  it('lib.ts changed on disk another way: a string return type gives main.ts TS2322', T, async () => {
    await baseline('s2322');
    const mark = editor.events.length;
    writeFileSync(join(ws, 's2322/lib.ts'), LIB_TS_RETURNS_STRING);
    await pollVerdicts(() => ask('s2322/main.ts'), ['2322'], 'TS2322');
    await freshPush('s2322/main.ts', ['2322'], mark, 'TS2322');
  });

  it('lib.ts deleted: main.ts gets TS2307', T, async () => {
    await baseline('s2307');
    const mark = editor.events.length;
    unlinkSync(join(ws, 's2307/lib.ts'));
    await pollVerdicts(() => ask('s2307/main.ts'), ['2307'], 'TS2307');
    await freshPush('s2307/main.ts', ['2307'], mark, 'TS2307');
  });

  it('lib.ts deleted and recreated: the TS2307 goes away again', T, async () => {
    await baseline('recreate');
    unlinkSync(join(ws, 'recreate/lib.ts'));
    await pollVerdicts(() => ask('recreate/main.ts'), ['2307'], 'deleted');
    const mark = editor.events.length;
    writeFileSync(join(ws, 'recreate/lib.ts'), LIB_TS);
    await pollVerdicts(() => ask('recreate/main.ts'), [], 'recreated');
    await freshPush('recreate/main.ts', [], mark, 'recreated');
  });

  it(`a type changed at the bottom of a ${CHAIN_DEPTH}-module import graph reaches the top module`, T, async () => {
    await pollVerdicts(() => ask('deep/m0.ts'), [], 'deep baseline');
    writeFileSync(join(ws, `deep/m${CHAIN_DEPTH - 1}.ts`), chainBottom(CHAIN_DEPTH, 'string'));
    await pollVerdicts(() => ask('deep/m0.ts'), ['2322'], 'deep change');
  });

  it('our own write (rename across files) is seen by the next answer for the other file', T, async () => {
    await baseline('rename');
    // `f` in `export function f(` — rename it to a name that only works if main.ts was rewritten too
    const renamed = await editor.run('rename', { filePath: 'rename/lib.ts', workspaceRoot: ws, position: { line: 0, character: 16 }, newName: 'renamedF' });
    assert.equal(renamed['status'], 'succeeded', JSON.stringify(renamed));
    await pollVerdicts(() => ask('rename/main.ts'), [], 'after rename');
    // then an external change to the renamed lib: main.ts must see it too
    writeFileSync(join(ws, 'rename/lib.ts'), LIB_TS_TWO_PARAMS.replace('function f', 'function renamedF'));
    await pollVerdicts(() => ask('rename/main.ts'), ['2554'], 'rename then external change');
  });

  it('a default subscriber never got a non-fresh unsolicited push', () => {
    assert.ok(pushes().length > 0, 'pushes were sent');
    assert.deepEqual(pushes().filter((e) => e['state'] !== 'fresh').map((e) => `${e['filePath']} ${e['state']}`), []);
  });
});
