/**
 * tsserver's positions at the end of a text that ends in a line break, through the real
 * typescript-language-server 5.3.0 + TypeScript 5.9.3 (issue 21): an open document's syntax
 * error after its final line break and a quick fix that appends to the file come back one line
 * early (tsserver's line index); the engine — what `lsp_diagnostics`, `serve` and `check` read —
 * reports them where the compiler does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyTextEdits } from '../../src/edits/apply-text-edits.ts';
import { TSLS_ENTRY } from '../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

const T = { timeout: 120_000 };
let ws: Workspace;
let f: EngineFixture;

before(async () => {
  ws = await makeWorkspace('tsls-eot-');
  await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
  f = await startEngine(makeConfig({ tsls: TSLS_ENTRY }));
});
after(async () => {
  await f.close();
  await ws.remove();
});

const where = (d: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; code?: unknown }): string =>
  `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${String(d.code)}`;

describe('tsserver at the end of a text that ends in a line break (real typescript-language-server)', () => {
  it("an unclosed call on the last line: ')' expected at the start of the empty last line, as tsc says (3,1)", T, async () => {
    const path = await ws.write('call.ts', 'export const a = 1;\nexport const m = Math.max(a,\n');
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.equal(d.state, 'fresh');
    assert.equal(d.servers[0]?.strategy, 'tsserver');
    assert.deepEqual(d.diagnostics.map(where), ['2:0-2:0 1005']);
  });

  it('the same with CRLF line breaks', T, async () => {
    const path = await ws.write('crlf.ts', 'export const a = 1;\r\nexport const m = Math.max(a,\r\n');
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.equal(d.state, 'fresh');
    assert.deepEqual(d.diagnostics.map(where), ['2:0-2:0 1005']);
  });

  it('a file with no final line break keeps its end on the last line', T, async () => {
    const path = await ws.write('nobreak.ts', 'export const a = 1;\nexport const m = Math.max(a,');
    const d = await f.engine.diagnostics({ root: ws.root, path });
    assert.equal(d.state, 'fresh');
    assert.deepEqual(d.diagnostics.map(where), ['1:28-1:28 1005']);
  });

  it('a quick fix that appends to the file inserts after the final line break', T, async () => {
    const text = 'export {};\nfoo(1);\n';
    const path = await ws.write('append.ts', text);
    const t = { root: ws.root, path };
    const d = await f.engine.diagnostics(t);
    assert.deepEqual(d.diagnostics.map(where), ['1:0-1:3 2304']);
    const actions = await f.engine.codeActions(t, { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } });
    const add = actions.find((a) => /Add missing function declaration 'foo'/.test(a.title));
    assert.ok(add?.edit, actions.map((a) => a.title).join(', '));
    const edits = add.edit.steps.flatMap((s) => (s.kind === 'edit' && s.path === path ? s.edits : []));
    assert.deepEqual(
      edits.map((e) => `${e.range.start.line}:${e.range.start.character}`),
      ['2:0'],
    );
    const applied = applyTextEdits(text, edits, path);
    assert.ok(applied.startsWith('export {};\nfoo(1);\n\nfunction foo('), JSON.stringify(applied));
    assert.ok(applied.endsWith('}\n'), JSON.stringify(applied));
  });
});
