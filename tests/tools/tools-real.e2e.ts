/**
 * The read tools and `lsp_format` against the REAL typescript-language-server (the plugin's
 * embedded default), executed through `ctx.tools.execute` for a live agent whose session cwd is a
 * fresh temp TypeScript project, with the real harness services mounted (workspace-write) and the
 * plugin from `src/index.ts`. One plugin (one server) serves the whole suite.
 *
 * Each test checks what the model reads (one-based `path:line:col` text), what a program gets
 * (the zero-based structured value) and, for writes, the file on disk.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Agent } from '@deepseek-ai/dsh-agent';
import type { CompletionToolValue } from '../../src/tools/lsp-completion-tool.ts';
import type { DiagnosticsToolValue } from '../../src/tools/diagnostics-render.ts';
import type { FormatToolValue } from '../../src/tools/lsp-format-tool.ts';
import type { InlayHintsToolValue } from '../../src/tools/lsp-inlay-hints-tool.ts';
import type { SignatureToolValue } from '../../src/tools/lsp-signature-tool.ts';
import type { SymbolsToolValue } from '../../src/tools/lsp-symbols-tool.ts';
import { ScriptedAgentHarness } from '../support/scripted-agent.ts';
import { toolCaller } from './tool-caller.ts';

const T = { timeout: 90_000 };

const GEOMETRY = [
  'export interface Point { x: number; y: number }',
  'export function distance(from: Point, to: Point): number {',
  '  return Math.hypot(to.x - from.x, to.y - from.y);',
  '}',
  'export class Shape {',
  '  area(): number { return 0; }',
  '  perimeter(): number { return 0; }',
  '}',
  '',
].join('\n');
const MAIN = [
  "import { distance, type Point } from './geometry';",
  'export const a: Point = { x: 0, y: 0 };',
  'export const b: Point = { x: 3, y: 4 };',
  'export const label: string = distance(a, b);',
  'export const far = distance(b, a) > 1;',
  '',
].join('\n');
const OTHER = "export const count: number = 'one';\n";
/** 60 type errors, more than the default `maxItems` (50). */
const MANY = Array.from({ length: 60 }, (_, i) => `export const v${i}: number = 'x';`).join('\n') + '\n';
const COMPLETE = "export const word = 'abc';\nexport const lower = word.toL\n";
const UGLY = ['export function  add(a:number,b:number){', 'return a+b}', 'export const x=add(1,2)', 'export const   y=add(3,4)', ''].join('\n');
const UGLY_FORMATTED = [
  'export function add(a: number, b: number) {',
  '  return a + b',
  '}',
  'export const x = add(1, 2)',
  'export const y = add(3, 4)',
  '',
].join('\n');

let root: string;
let harness: ScriptedAgentHarness;
let agent: Agent;

const { ok } = toolCaller(() => harness, () => agent, 'tools-real');

/** @returns the workspace file's content */
function read(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

/** Writes a workspace file (as the user or another tool would). */
function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/**
 * @param text a file's content
 * @param needle text on one line
 * @param offset characters into the needle
 * @returns the one-based line and column of `needle` (+ offset)
 */
function locate(text: string, needle: string, offset = 0): { line: number; col: number } {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `${JSON.stringify(needle)} is in the fixture`);
  const lines = text.slice(0, index + offset).split('\n');
  return { line: lines.length, col: (lines.at(-1) ?? '').length + 1 };
}

before(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-tools-real-')));
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', noEmit: true }, include: ['src'] }),
    'src/geometry.ts': GEOMETRY,
    'src/main.ts': MAIN,
    'src/other.ts': OTHER,
    'src/many.ts': MANY,
    'src/complete.ts': COMPLETE,
    'src/ugly.ts': UGLY,
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  harness = await ScriptedAgentHarness.start({ workspace: root, sandboxMode: 'workspace-write' });
  agent = await harness.createAgent(root);
});

after(async () => {
  await harness?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('lsp_symbols (real typescript-language-server)', () => {
  it('a workspace query by name alone, before any file is open, finds the class', T, async () => {
    assert.deepEqual(harness.ctx.get('lspActions')?.engine.openDocuments(), [], 'no document is open yet');
    const { text, value } = await ok<SymbolsToolValue>('lsp_symbols', { query: 'Shape' });
    const shape = value.symbols.find((s) => s.name === 'Shape');
    assert.ok(shape, `the query alone finds class Shape; the model saw: ${text}`);
    assert.equal(value.scope, 'workspace');
    assert.equal(shape.filePath, 'src/geometry.ts');
    assert.equal(shape.range.start.line, 4, 'zero-based');
    assert.match(text, /^class Shape — src\/geometry\.ts:5:\d+$/m);
  });

  it("a file's outline is hierarchical: the class with its methods, one-based line:col", T, async () => {
    const { text, value } = await ok<SymbolsToolValue>('lsp_symbols', { file_path: 'src/geometry.ts' });
    assert.equal(value.scope, 'document');
    const shape = value.symbols.find((s) => s.name === 'Shape');
    assert.deepEqual(shape?.children?.map((c) => c.name), ['area', 'perimeter']);
    assert.deepEqual(shape?.selectionRange.start, { line: 4, character: 13 }, 'zero-based name position');
    const lines = text.split('\n');
    assert.match(lines[0] ?? '', /^Outline of src\/geometry\.ts \(\d+ symbols; line:col one-based\):$/);
    const at = lines.indexOf('class Shape 5:14');
    assert.ok(at > 0, `class Shape 5:14 is listed:\n${text}`);
    assert.deepEqual(lines.slice(at + 1, at + 3), ['  method area 6:3', '  method perimeter 7:3'], 'methods indented under their class');
    assert.ok(lines.includes('function distance 2:17'));
  });

  it('a workspace query for part of a name finds the method', T, async () => {
    const { text, value } = await ok<SymbolsToolValue>('lsp_symbols', { query: 'perim' });
    assert.deepEqual(value.symbols.map((s) => s.name), ['perimeter']);
    assert.match(text, /^Symbols matching "perim": 1 \(path:line:col one-based\)\.\nmethod perimeter( in Shape)? — src\/geometry\.ts:7:3$/);
  });
});

describe('lsp_diagnostics (real typescript-language-server)', () => {
  const error = locate(MAIN, 'label');

  it('one file: the real type error, fresh, at one-based path:line:col', T, async () => {
    const { text, value } = await ok<DiagnosticsToolValue>('lsp_diagnostics', { file_path: 'src/main.ts' });
    assert.equal(
      text,
      `src/main.ts — 1 error (fresh)\nsrc/main.ts:${error.line}:${error.col} error typescript(2322): Type 'number' is not assignable to type 'string'.`,
    );
    assert.equal(value.scope, 'file');
    const [file] = value.files;
    assert.equal(file?.state, 'fresh');
    assert.equal(file?.diagnostics.length, 1);
    assert.deepEqual(file?.diagnostics[0]?.range.start, { line: error.line - 1, character: error.col - 1 }, 'zero-based');
    assert.equal(file?.diagnostics[0]?.code, 2322);
  });

  it('several files: each with its own header and freshness, a clean one included', T, async () => {
    const { text, value } = await ok<DiagnosticsToolValue>('lsp_diagnostics', { file_paths: ['src/main.ts', 'src/other.ts', 'src/geometry.ts'] });
    assert.equal(value.scope, 'files');
    assert.deepEqual(value.files.map((f) => [f.filePath, f.state, f.diagnostics.map((d) => d.code)]), [
      [join(root, 'src/main.ts'), 'fresh', [2322]],
      [join(root, 'src/other.ts'), 'fresh', [2322]],
      [join(root, 'src/geometry.ts'), 'fresh', []],
    ]);
    assert.match(text, /^src\/other\.ts:1:14 error typescript\(2322\): Type 'string' is not assignable to type 'number'\.$/m);
    assert.match(text, /^src\/geometry\.ts — no problems \(fresh\)$/m);
  });

  it('the workspace: capped at maxItems, with truncated and total, worst files first', T, async () => {
    const { text, value } = await ok<DiagnosticsToolValue>('lsp_diagnostics', {});
    assert.equal(value.scope, 'workspace');
    assert.equal(value.truncated, true);
    assert.ok(value.total >= 62, `60 + 1 + 1 errors at least, got ${value.total}`);
    const listed = value.files.reduce((sum, f) => sum + f.diagnostics.length, 0);
    assert.equal(listed, 50, 'the default maxItems');
    assert.ok(value.files.some((f) => f.filePath === 'src/many.ts' && f.truncated && f.total === 60), JSON.stringify(value.files.map((f) => [f.filePath, f.total])));
    assert.match(text, /^Workspace: \d+ files checked/);
    assert.match(text, new RegExp(`… ${value.total - 50} more diagnostics not shown`));
  });

  it('changes_only after an edit: the new and the resolved problem, nothing else', T, async (t) => {
    await ok('lsp_diagnostics', { file_path: 'src/main.ts' }); // the baseline, as the model last saw it
    const edited = MAIN.replace('export const label: string', 'export const label: number').replace('> 1;', "> '1';");
    write('src/main.ts', edited);
    t.after(() => write('src/main.ts', MAIN));
    const { text, value } = await ok<DiagnosticsToolValue>('lsp_diagnostics', { file_path: 'src/main.ts', changes_only: true });
    const added = locate(edited, "distance(b, a) > '1'");
    assert.equal(
      text,
      [
        'src/main.ts — since your last check: 1 new, 1 resolved, 0 unchanged; now 1 problem (fresh)',
        `+ src/main.ts:${added.line}:${added.col} error typescript(2365): Operator '>' cannot be applied to types 'number' and 'string'.`,
        `- src/main.ts:${error.line}:${error.col} error typescript(2322): Type 'number' is not assignable to type 'string'. (resolved)`,
      ].join('\n'),
    );
    const changes = value.files[0]?.changes;
    assert.equal(changes?.baseline, true);
    assert.deepEqual(changes?.added.map((d) => [d.code, d.range.start.line]), [[2365, added.line - 1]]);
    assert.deepEqual(changes?.resolved.map((d) => d.code), [2322]);
  });
});

describe('lsp_format (real typescript-language-server)', () => {
  it('a range: only those lines are formatted on disk; the card carries the diff', T, async () => {
    const { text, value, meta } = await ok<FormatToolValue>('lsp_format', { file_path: 'src/ugly.ts', start_line: 3, end_line: 3 });
    const expected = UGLY.replace('export const x=add(1,2)', 'export const x = add(1, 2)');
    assert.equal(read('src/ugly.ts'), expected, 'only line 3 changed on disk');
    assert.match(text, /^Formatted src\/ugly\.ts: \d+ edits, 1 line changed\.\nsrc\/ugly\.ts: \d+ edits; changed lines 3\n/);
    assert.equal(value.kind, 'formatted');
    assert.equal(value.kind === 'formatted' && value.after, expected);
    const diff = onlyDiff(meta);
    assert.equal(diff.path, 'src/ugly.ts');
    assert.match(diff.newText, /export const x = add\(1, 2\)/);
    assert.match(diff.oldText ?? '', /export const x=add\(1,2\)/);
  });

  it('the whole file: formatted on disk; formatting again changes nothing', T, async () => {
    const { text, value } = await ok<FormatToolValue>('lsp_format', { file_path: 'src/ugly.ts' });
    assert.equal(read('src/ugly.ts'), UGLY_FORMATTED);
    assert.equal(value.kind, 'formatted');
    assert.match(text, /^Formatted src\/ugly\.ts: \d+ edits, 4 lines changed\.\nsrc\/ugly\.ts: \d+ edits; changed lines 1-3, 5\nLine numbers are in the new text/);
    const again = await ok<FormatToolValue>('lsp_format', { file_path: 'src/ugly.ts' });
    assert.equal(again.value.kind, 'unchanged');
    assert.equal(again.text, 'Nothing changed in src/ugly.ts: it is already formatted');
    assert.deepEqual(again.meta, { diffs: [] });
  });
});

/** @returns the only hunk of a write tool's diff meta */
function onlyDiff(meta: unknown): { path: string; oldText: string | null; newText: string } {
  const diffs = (meta as { diffs?: Array<{ path: string; oldText: string | null; newText: string }> }).diffs;
  assert.equal(diffs?.length, 1, `one hunk: ${JSON.stringify(meta)}`);
  return diffs[0] as { path: string; oldText: string | null; newText: string };
}

describe('lsp_completion, lsp_signature, lsp_inlay_hints (real typescript-language-server)', () => {
  it('completion at a member access: filtered by the typed prefix, the member first-ish, reference only', T, async () => {
    const cursor = locate(COMPLETE, 'word.toL', 'word.toL'.length);
    const { text, value } = await ok<CompletionToolValue>('lsp_completion', { file_path: 'src/complete.ts', line: cursor.line, character: cursor.col });
    assert.equal(value.prefix, 'toL');
    assert.deepEqual(value.position, { line: cursor.line - 1, character: cursor.col - 1 }, 'zero-based');
    const labels = value.items.map((item) => item.label);
    assert.ok(labels.every((label) => label.startsWith('toL')), `only items matching the prefix: ${labels.join(', ')}`);
    assert.ok(labels.slice(0, 4).includes('toLowerCase'), `toLowerCase near the top: ${labels.join(', ')}`);
    assert.ok(!labels.includes('toUpperCase') && !labels.includes('charAt'));
    const lines = text.split('\n');
    assert.equal(lines[0], `Completions at src/complete.ts:${cursor.line}:${cursor.col} for "toL": ${value.total}, best first. Reference only; nothing was inserted.`);
    assert.ok(lines.some((line) => line.startsWith('toLowerCase — method')), text);
    assert.equal(read('src/complete.ts'), COMPLETE, 'nothing was inserted');
  });

  it('signature help inside a call: the active parameter marked', T, async () => {
    const cursor = locate(MAIN, 'distance(a, b)', 'distance(a, '.length);
    const { text, value } = await ok<SignatureToolValue>('lsp_signature', { file_path: 'src/main.ts', line: cursor.line, character: cursor.col });
    assert.equal(text.split('\n')[0], `Signature at src/main.ts:${cursor.line}:${cursor.col}:`);
    assert.equal(text.split('\n')[1], 'distance(from: Point, «to: Point»): number');
    assert.equal(value.activeParameter, 1);
    assert.deepEqual(value.signatures[0]?.parameters.map((p) => p.label), ['from: Point', 'to: Point']);
  });

  it('inlay hints for the whole file: parameter names at call sites and inferred variable types', T, async () => {
    const { text, value } = await ok<InlayHintsToolValue>('lsp_inlay_hints', { file_path: 'src/main.ts' });
    const from = locate(MAIN, 'distance(b, a)', 'distance('.length);
    const far = locate(MAIN, 'far', 'far'.length);
    assert.match(text, /^Inlay hints in src\/main\.ts: \d+ \(line:col one-based, the hint shows at that spot\)\.$/m);
    assert.match(text, new RegExp(`^${from.line}:${from.col} parameter: from$`, 'm'));
    assert.match(text, new RegExp(`^${far.line}:${far.col} type: boolean$`, 'm'));
    const hint = value.hints.find((h) => h.kind === 2 && h.position.line === from.line - 1 && h.position.character === from.col - 1);
    assert.equal(hint?.label, 'from:', 'zero-based position, the server label');
  });

  it('inlay hints for a range of lines: only hints on those lines', T, async () => {
    const line = locate(MAIN, 'export const label').line;
    const { text, value } = await ok<InlayHintsToolValue>('lsp_inlay_hints', { file_path: 'src/main.ts', start_line: line, end_line: line });
    assert.ok(value.hints.length >= 2, text);
    assert.ok(value.hints.every((h) => h.position.line === line - 1), JSON.stringify(value.hints));
    assert.deepEqual(value.hints.filter((h) => h.kind === 2).map((h) => h.label), ['from:', 'to:']);
    assert.match(text, new RegExp(`^Inlay hints in src/main\\.ts \\(lines? ${line}[^)]*\\): `));
  });
});
