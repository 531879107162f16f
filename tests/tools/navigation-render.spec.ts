/**
 * What the navigation tools show the model (issue 22): places grouped by file in path order,
 * lines in position order, one-based, with the source line and the declaration marked; the note
 * of a snapped or resolved target; the item cap and the character budget counted; hover as the
 * signature plus the first documentation paragraph (typescript-language-server and pyright shapes).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallHierarchyGetResult, HoverGetResult, LocationsResult, WireLocation } from '../../src/actions/action-results.ts';
import { FRESH_NOTE, INDEXED_NOTE, renderCallHierarchy, renderHover, renderLocations, renderWorkspaceSymbols, splitHover, type WithRoot } from '../../src/tools/navigation-render.ts';

const ROOT = '/ws';
const loc = (filePath: string, line: number, character: number, lineText: string, declaration = false): WireLocation => ({
  filePath,
  range: { start: { line, character }, end: { line, character: character + 3 } },
  lineText,
  ...(declaration ? { declaration } : {}),
});

const item = (name: string, filePath: string, line: number) => ({ name, kind: 12, filePath, range: { start: { line, character: 0 }, end: { line, character: 9 } }, selectionRange: { start: { line, character: 16 }, end: { line, character: 24 } } });

function refs(locations: WireLocation[], extra: Partial<LocationsResult> = {}): WithRoot<LocationsResult> {
  return { kind: 'references', filePath: 'src/main.ts', position: { line: 8, character: 12 }, locations, truncated: false, total: locations.length, name: 'describe', workspaceRoot: ROOT, ...extra };
}

describe('renderLocations', () => {
  it('groups by file in path order, lines in order, one-based, source trimmed, declaration marked', () => {
    const text = renderLocations(
      refs([loc('src/main.ts', 8, 12, 'console.log(describe(x));'), loc('src/format.ts', 3, 16, 'export function describe() {', true), loc('src/main.ts', 3, 9, "  import { describe } from './format';")]),
      20_000,
    );
    assert.equal(
      text,
      [
        `References to \`describe\` at src/main.ts:9:13: 3 in 2 files (${FRESH_NOTE}; line:col one-based).`,
        'src/format.ts',
        '  4:17: export function describe() {   ← declaration',
        'src/main.ts',
        "  4:10: import { describe } from './format';",
        '  9:13: console.log(describe(x));',
      ].join('\n'),
    );
  });
  it('shows the note, and counts what the item cap and the character budget left out', () => {
    const many = Array.from({ length: 50 }, (_, i) => loc('src/many.ts', i + 2, 0, `tick(${i});`));
    const value = refs(many, { truncated: true, total: 502, note: 'tick is the function tick at src/tick.ts:1:17' });
    const text = renderLocations(value, 600);
    assert.ok(text.length <= 600, `${text.length}`);
    assert.match(text, /^References to `describe` at src\/main\.ts:9:13: 502 \(first 50 listed\) in 1 file/);
    assert.match(text, /\nNote: tick is the function tick at src\/tick\.ts:1:17\.\n/);
    const shown = text.split('\n').filter((line) => /^ {2}\d+:\d+: /.test(line)).length;
    assert.match(text, new RegExp(`… ${502 - shown} more references not shown$`));
  });
  it('says so when there is nothing, naming what was asked', () => {
    assert.equal(renderLocations({ ...refs([]), kind: 'implementation' }, 20_000), `No implementations found for \`describe\` at src/main.ts:9:13 (${FRESH_NOTE}).`);
  });
});

describe('renderCallHierarchy', () => {
  it('lists call sites with the caller (incoming) or the callee (outgoing)', () => {
    const value: WithRoot<CallHierarchyGetResult> = {
      kind: 'callHierarchy',
      direction: 'incoming',
      filePath: 'src/format.ts',
      position: { line: 3, character: 16 },
      items: [item('describe', 'src/format.ts', 3)],
      calls: [{ ...loc('src/cart.ts', 13, 33, 'return describe(s);'), other: item('summary', 'src/cart.ts', 12) }],
      truncated: false,
      total: 1,
      workspaceRoot: ROOT,
    };
    assert.equal(
      renderCallHierarchy(value, 20_000),
      [`Calls to function describe (src/format.ts:4:17): 1 call site in 1 file (${FRESH_NOTE}; line:col one-based).`, 'src/cart.ts', '  14:34: return describe(s);   ← in summary'].join('\n'),
    );
    const outgoing = renderCallHierarchy({ ...value, direction: 'outgoing', calls: [{ ...loc('src/format.ts', 4, 9, 's.area()'), other: item('area', 'src/shapes.ts', 3) }] }, 20_000);
    assert.match(outgoing, /^Calls from function describe /);
    assert.match(outgoing, /\n {2}5:10: s\.area\(\) {3}→ function area \(src\/shapes\.ts:4:17\)$/);
  });
  it('says when nothing callable is there', () => {
    const value: WithRoot<CallHierarchyGetResult> = { kind: 'callHierarchy', direction: 'incoming', filePath: 'a.ts', position: { line: 0, character: 0 }, items: [], calls: [], truncated: false, total: 0, workspaceRoot: ROOT };
    assert.match(renderCallHierarchy(value, 20_000), /^Nothing callable at a\.ts:1:1 /);
  });
});

describe('hover', () => {
  it('splits typescript-language-server and pyright hovers into signature and first paragraph', () => {
    assert.deepEqual(splitHover('```typescript\n(method) Cart.total(): number\n```\nSum of the areas.\nStill the first paragraph.\n\n*@returns* cents'), {
      signature: '(method) Cart.total(): number',
      doc: 'Sum of the areas.\nStill the first paragraph.',
    });
    assert.deepEqual(splitHover('```python\n(method) def total(self) -> float\n```\n---\nSum of the areas.\n\nMore.'), { signature: '(method) def total(self) -> float', doc: 'Sum of the areas.' });
    assert.deepEqual(splitHover('int x\n\nA counter.'), { signature: 'int x', doc: 'A counter.' });
  });
  it('renders what was asked, the note, signature and doc; or that nothing is there', () => {
    const value: WithRoot<HoverGetResult> = { kind: 'hover', filePath: 'src/cart.ts', position: { line: 9, character: 2 }, found: true, contents: '```ts\nfoo(): void\n```\nDoes foo.', name: 'foo', note: 'Cart.foo is the method', workspaceRoot: ROOT };
    assert.equal(renderHover(value, 20_000), [`Hover for \`foo\` at src/cart.ts:10:3 (${FRESH_NOTE}):`, 'Note: Cart.foo is the method.', 'foo(): void', 'Does foo.'].join('\n'));
    assert.match(renderHover({ ...value, found: false, contents: '', note: undefined } as never, 20_000), /^No hover information for `foo` at src\/cart\.ts:10:3/);
  });
});

const symbol = (name: string, kind: number, filePath: string, line: number, containerName?: string) => ({
  name,
  kind,
  filePath,
  range: { start: { line, character: 0 }, end: { line, character: 9 } },
  selectionRange: { start: { line, character: 6 }, end: { line, character: 10 } },
  ...(containerName ? { containerName } : {}),
});

describe('renderWorkspaceSymbols', () => {
  it('lists kind, name, container and place, and says the search covers what the server has indexed', () => {
    const text = renderWorkspaceSymbols(
      { kind: 'symbols', scope: 'workspace', query: 'Cart', symbols: [symbol('Cart', 5, 'src/cart.ts', 3), symbol('total', 6, 'src/cart.ts', 9, 'Cart')], truncated: true, total: 3, workspaceRoot: ROOT },
      20_000,
    );
    assert.equal(
      text,
      [`Symbols matching "Cart": 2 of 3 (path:line:col one-based; ${INDEXED_NOTE}).`, 'class Cart — src/cart.ts:4:7', 'method total in Cart — src/cart.ts:10:7', '… 1 more symbols not shown'].join('\n'),
    );
  });
});
