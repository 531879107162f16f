/**
 * The write tools `lsp_code_action`, `lsp_organize_imports` and `lsp_rename` against the REAL
 * typescript-language-server (the plugin's embedded default), executed through
 * `ctx.tools.execute` for a live agent whose session cwd is a fresh temp TypeScript project, with
 * the real harness services mounted (workspace-write: dsh-fs-sandbox, dsh-fs-observation-policy,
 * …) and the plugin from `src/index.ts`. One plugin (one server) serves the whole suite.
 *
 * Every write is checked on disk, and after a fix the file is checked again with
 * `lsp_diagnostics`. The conflict case races a multi-file rename deterministically: a
 * `fs/write-intent` listener changes the second target on disk while the write path is deciding
 * the guards, i.e. after the server computed the edit and before the first byte is written.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Agent } from '@deepseek-ai/dsh-agent';
import type { FsTarget, FsWriteIntent } from '@deepseek-ai/dsh-fs';
import type { CodeActionToolValue } from '../../src/tools/lsp-code-action-tool.ts';
import type { DiagnosticsToolValue } from '../../src/tools/diagnostics-render.ts';
import type { OrganizeImportsToolValue } from '../../src/tools/lsp-organize-imports-tool.ts';
import type { RenameToolValue } from '../../src/tools/lsp-rename-tool.ts';
import { ScriptedAgentHarness } from '../support/scripted-agent.ts';
import { toolCaller } from './tool-caller.ts';

const T = { timeout: 90_000 };

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', noEmit: true }, include: ['src'] }),
  'src/geometry.ts': [
    'export interface Point { x: number; y: number }',
    'export function distance(from: Point, to: Point): number {',
    '  return Math.hypot(to.x - from.x, to.y - from.y);',
    '}',
    'export function scale(p: Point, k: number): Point {',
    '  return { x: p.x * k, y: p.y * k };',
    '}',
    '',
  ].join('\n'),
  'src/origin.ts': "import type { Point } from './geometry';\nexport const unitPoint: Point = { x: 1, y: 1 };\n",
  /** `unitPoint` is used without its import: TS2304, fixed by "Add import from "./origin"". */
  'src/main.ts': "import { distance } from './geometry';\nexport const d = distance({ x: 0, y: 0 }, unitPoint);\n",
  /** Unsorted (origin before geometry), split (two geometry imports) and unused (`scale`). */
  'src/imports.ts': [
    "import { unitPoint } from './origin';",
    "import { scale } from './geometry';",
    "import { type Point, distance } from './geometry';",
    'export const p: Point = unitPoint;',
    'export const d: number = distance(p, unitPoint);',
    '',
  ].join('\n'),
  /** Nothing to organize. */
  'src/clean.ts': "import { distance, type Point } from './geometry';\nexport const q: Point = { x: 0, y: 0 };\nexport const e = distance(q, q);\n",
  /** A symbol defined in one file and used in another: the rename. */
  'src/units.ts': 'export const METERS_PER_FOOT = 0.3048;\n',
  'src/convert.ts': "import { METERS_PER_FOOT } from './units';\nexport const toMeters = (feet: number): number => feet * METERS_PER_FOOT;\n",
  /** Another such pair: the rename that loses the race. */
  'src/factor.ts': 'export const factor = 2;\n',
  'src/doubled.ts': "import { factor } from './factor';\nexport const doubled = factor * 21;\n",
};

let root: string;
let harness: ScriptedAgentHarness;
let agent: Agent;

const { call, ok } = toolCaller(() => harness, () => agent, 'tools-real-writes');

/** @returns the workspace file's content */
function read(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

/** @returns the paths of a write tool's diff meta */
function diffPaths(meta: unknown): string[] {
  return ((meta as { diffs?: Array<{ path: string }> }).diffs ?? []).map((d) => d.path);
}

/** Asserts that `lsp_diagnostics` finds the files fresh and without any problem. */
async function assertClean(...paths: string[]): Promise<void> {
  const { text, value } = await ok<DiagnosticsToolValue>('lsp_diagnostics', { file_paths: paths });
  assert.deepEqual(
    value.files.map((f) => [f.filePath, f.state, f.total]),
    paths.map((p) => [join(root, p), 'fresh', 0]),
    text,
  );
}

before(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-tools-real-writes-')));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  harness = await ScriptedAgentHarness.start({ workspace: root, sandboxMode: 'workspace-write' });
  agent = await harness.createAgent(root);
});

after(async () => {
  await harness?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('lsp_code_action (real typescript-language-server)', () => {
  const MAIN = FILES['src/main.ts'] as string;
  const col = MAIN.split('\n')[1]?.indexOf('unitPoint') ?? -1;

  it("lists the fixes for the file's first error, the missing import first, with its edit", T, async () => {
    const { text, value } = await ok<CodeActionToolValue>('lsp_code_action', { file_path: 'src/main.ts' });
    assert.equal(value.kind, 'codeActions');
    if (value.kind !== 'codeActions') return;
    assert.deepEqual(value.range, { start: { line: 1, character: col }, end: { line: 1, character: col + 'unitPoint'.length } }, 'zero-based');
    const fix = value.actions[0];
    assert.equal(fix?.title, 'Add import from "./origin"');
    assert.equal(fix?.kind, 'quickfix');
    assert.deepEqual(fix?.diagnostics, ["Cannot find name 'unitPoint'."]);
    assert.deepEqual(fix?.preview?.files.map((f) => f.filePath), ['src/main.ts']);
    const lines = text.split('\n');
    assert.match(lines[0] ?? '', new RegExp(`^Code actions at src/main\\.ts:2:${col + 1} \\(.*\\): ${value.total}\\.$`));
    assert.equal(lines[1], `[1] Add import from "./origin" — quickfix, preferred; fixes: Cannot find name 'unitPoint'.`);
    assert.ok(lines.some((line) => /^\s+\+import \{ unitPoint \} from '\.\/origin';$/.test(line)), `the edit is previewed:\n${text}`);
    assert.equal(read('src/main.ts'), MAIN, 'listing writes nothing');
  });

  it('applies the fix by title; the file then has no errors', T, async () => {
    const { text, value, meta } = await ok<CodeActionToolValue>('lsp_code_action', { file_path: 'src/main.ts', title: 'Add import from "./origin"' });
    assert.equal(text.split('\n')[0], 'Applied: Add import from "./origin" (quickfix) — 1 edit in 1 file.');
    assert.equal(value.kind, 'codeActionApplied');
    assert.match(read('src/main.ts'), /^import \{ distance \} from '\.\/geometry';\nimport \{ unitPoint \} from '\.\/origin';\n/);
    assert.deepEqual(diffPaths(meta), ['src/main.ts']);
    await assertClean('src/main.ts');
  });
});

describe('lsp_organize_imports (real typescript-language-server)', () => {
  it('unsorted, split and unused imports are organized on disk', T, async () => {
    const { text, value, meta } = await ok<OrganizeImportsToolValue>('lsp_organize_imports', { file_path: 'src/imports.ts' });
    assert.equal(value.kind, 'importsOrganized');
    assert.match(text, /^Organized imports in src\/imports\.ts: \d+ edits, \d+ lines? changed\.\nsrc\/imports\.ts: changed lines /);
    const imports = read('src/imports.ts').split('\n').filter((line) => line.startsWith('import'));
    assert.equal(imports.length, 2, `one import per module: ${imports.join(' | ')}`);
    assert.match(imports[0] ?? '', /^import \{ distance, type Point \} from '\.\/geometry';$/, 'merged, sorted, scale removed');
    assert.equal(imports[1], "import { unitPoint } from './origin';");
    assert.ok(read('src/imports.ts').endsWith('export const p: Point = unitPoint;\nexport const d: number = distance(p, unitPoint);\n'), 'the code is kept');
    assert.deepEqual(diffPaths(meta).slice(0, 1), ['src/imports.ts']);
    await assertClean('src/imports.ts');
  });

  it('a file with nothing to organize: a plain "nothing changed", not an error', T, async () => {
    const outcome = await call<OrganizeImportsToolValue>('lsp_organize_imports', { file_path: 'src/clean.ts' });
    assert.equal(outcome.isError, false, `${String(outcome.code)}: ${outcome.text}`);
    assert.equal(outcome.value.kind, 'unchanged');
    assert.match(outcome.text, /^Nothing changed in src\/clean\.ts: /);
    assert.equal(read('src/clean.ts'), FILES['src/clean.ts']);
  });
});

describe('lsp_rename (real typescript-language-server)', () => {
  it('renames a symbol in both files that use it', T, async () => {
    const { text, value, meta } = await ok<RenameToolValue>('lsp_rename', { file_path: 'src/units.ts', line: 1, character: 14, new_name: 'FOOT_IN_METERS' });
    assert.equal(read('src/units.ts'), 'export const FOOT_IN_METERS = 0.3048;\n');
    assert.equal(read('src/convert.ts'), "import { FOOT_IN_METERS } from './units';\nexport const toMeters = (feet: number): number => feet * FOOT_IN_METERS;\n");
    assert.equal(value.kind, 'renamed');
    if (value.kind !== 'renamed') return;
    assert.deepEqual([value.oldName, value.filesChanged, value.appliedEdits], ['METERS_PER_FOOT', 2, 3]);
    assert.deepEqual(value.position, { line: 0, character: 13 }, 'zero-based');
    const lines = text.split('\n');
    assert.equal(lines[0], 'Renamed "METERS_PER_FOOT" at src/units.ts:1:14 to "FOOT_IN_METERS": 3 edits in 2 files.');
    assert.deepEqual(lines.slice(1, 3).sort(), ['src/convert.ts: 2 edits; changed lines 1-2', 'src/units.ts: 1 edit; changed lines 1']);
    assert.deepEqual(diffPaths(meta).sort(), ['src/convert.ts', 'src/units.ts']);
    await assertClean('src/units.ts', 'src/convert.ts');
  });

  it('on whitespace: LSP_ACTION_NO_SYMBOL, nothing written', T, async () => {
    const geometry = read('src/geometry.ts');
    const outcome = await call('lsp_rename', { file_path: 'src/geometry.ts', line: 3, character: 1, new_name: 'nothing' });
    assert.equal(outcome.isError, true);
    assert.equal(outcome.code, 'LSP_ACTION_NO_SYMBOL', outcome.text);
    assert.match(outcome.text, /no symbol at that position/i);
    assert.equal(read('src/geometry.ts'), geometry);
  });

  it('a target changed on disk between the edit and the write: every file is left as it was', T, async (t) => {
    const racer = "import { factor } from './factor';\nexport const doubled = factor * 21; // changed by someone else\n";
    const written: string[] = [];
    let raced: string | undefined;
    const dispose = harness.ctx.on('fs/write-intent', async (target: FsTarget, _actor: object | undefined, next: () => FsWriteIntent | undefined | Promise<FsWriteIntent | undefined>) => {
      written.push(target.displayPath);
      // Deciding the first file's guard: the other file of the rename changes on disk now.
      if (raced === undefined) {
        raced = target.displayPath.endsWith('factor.ts') ? 'src/doubled.ts' : 'src/factor.ts';
        writeFileSync(join(root, raced), raced === 'src/doubled.ts' ? racer : 'export const factor = 3; // changed by someone else\n');
      }
      return next();
    }, { prepend: true }); // before the observation policy, which answers without asking further
    t.after(() => dispose());
    const original = { 'src/factor.ts': read('src/factor.ts'), 'src/doubled.ts': read('src/doubled.ts') };

    const outcome = await call<RenameToolValue>('lsp_rename', { file_path: 'src/factor.ts', line: 1, character: 14, new_name: 'multiplier' });
    t.diagnostic(`intents: ${written.join(', ')}; raced ${String(raced)}; model saw: ${outcome.text}`);
    assert.equal(written.length, 2, 'both guards were decided before any write');
    assert.ok(raced, 'the race ran');
    assert.equal(outcome.isError, true);
    assert.ok(outcome.code === 'LSP_ACTION_CONFLICT' || outcome.code === 'LSP_ACTION_WRITE_FAILED', String(outcome.code));
    const untouched = raced === 'src/doubled.ts' ? 'src/factor.ts' : 'src/doubled.ts';
    assert.equal(read(untouched), original[untouched], `${untouched} holds its old content (never written, or restored)`);
    assert.doesNotMatch(read(raced), /multiplier/, 'the racing change was not overwritten');
    assert.match(read(raced), /changed by someone else/);
    if (outcome.code === 'LSP_ACTION_WRITE_FAILED') {
      assert.match(outcome.text, new RegExp(`Restored to their previous content: .*${untouched.replace('.', '\\.')}`));
      assert.match(outcome.text, /Cause \(LSP_ACTION_CONFLICT\)/);
    } else {
      assert.match(outcome.text, /nothing was written/);
    }
  });
});
