/**
 * Issue 22's addressing, on the stub engine: positions snap to the nearest name on their line
 * (keyword, whitespace, past the end) with a note, or fail listing candidates (blank line, tie,
 * past the last line); `symbol` resolves through the outline (with file_path) or a workspace
 * search, qualified names through containers (or the outlines of the files found when the server
 * leaves `containerName` out); ambiguity and misses are `LSP_ACTION_NO_SYMBOL` with candidates.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { identifiersOnLine, snapToIdentifier } from '../../src/actions/identifier-at.ts';
import { resolveNavigationTarget } from '../../src/actions/navigation-target.ts';
import { matchInOutline, matchInSearch, parseSymbolPath } from '../../src/actions/symbol-path.ts';
import { ActionParams } from '../../src/actions/action-params.ts';
import { readNavigationTarget } from '../../src/actions/navigation-target.ts';
import type { SymbolNode } from '../../src/lsp/engine-types.ts';
import { actionError, invocation, makeServices, range, ROOT } from './support/action-fixtures.ts';

const CART = ['export class Cart {', '  total(): number {', '    return a + b;', '  }', '', '}'].join('\n');

function sym(name: string, path: string, line: number, character: number, extra: Partial<SymbolNode> = {}): SymbolNode {
  const r = range(line, character, line, character + name.length);
  return { name, kind: 6, location: { path, range: r }, selectionRange: r, children: [], ...extra };
}

describe('snapToIdentifier', () => {
  it('keeps a position on a name, with no note', () => {
    assert.deepEqual(snapToIdentifier(CART, { line: 1, character: 4 }), { position: { line: 1, character: 4 }, name: 'total' });
  });
  it('moves off a keyword to the nearest name and says so (one-based)', () => {
    const snapped = snapToIdentifier(CART, { line: 0, character: 1 });
    assert.deepEqual(snapped.position, { line: 0, character: 13 });
    assert.equal(snapped.name, 'Cart');
    assert.equal(snapped.note, '1:2 is on the keyword `export`; used `Cart` at 1:14, the nearest name on that line');
  });
  it('moves from whitespace or past the line end to the nearest name', () => {
    assert.equal(snapToIdentifier(CART, { line: 1, character: 0 }).name, 'total');
    const past = snapToIdentifier(CART, { line: 1, character: 40 });
    assert.equal(past.name, 'number');
    assert.match(past.note ?? '', /is not on a name; used `number` at 2:12/);
  });
  it('refuses a tie, listing both names', () => {
    assert.throws(() => snapToIdentifier(CART, { line: 2, character: 13 }), actionError('LSP_ACTION_NO_SYMBOL', /a at 3:12, b at 3:16 are equally near/));
  });
  it('refuses a blank line, listing names on the nearest lines', () => {
    assert.throws(
      () => snapToIdentifier(CART, { line: 4, character: 0 }),
      (error: unknown) => {
        assert.ok(actionError('LSP_ACTION_NO_SYMBOL', /there is no name on line 5 .* Names on nearby lines: /)(error));
        const candidates = (error as { details: { candidates: Array<{ name: string }> } }).details.candidates;
        assert.ok(candidates.length > 0);
        return true;
      },
    );
  });
  it('refuses a line past the end', () => {
    assert.throws(() => snapToIdentifier(CART, { line: 9, character: 0 }), actionError('LSP_ACTION_NO_SYMBOL', /line 10 is past the end of the file \(6 lines\)/));
  });
  it('finds Unicode identifiers', () => {
    assert.deepEqual(identifiersOnLine('const größe = 𝑥;', 0).map((s) => s.name), ['const', 'größe', '𝑥']);
  });
});

describe('symbol paths', () => {
  it('parses qualified names with ., #, :: and a trailing call', () => {
    assert.deepEqual(parseSymbolPath('Cart.total'), { name: 'total', containers: ['Cart'] });
    assert.deepEqual(parseSymbolPath('ns::Cart#total()'), { name: 'total', containers: ['ns', 'Cart'] });
    assert.equal(parseSymbolPath(' . '), undefined);
  });
  it('matches an outline by name and container suffix', () => {
    const outline = [sym('Cart', '/ws/a.ts', 0, 13, { kind: 5, children: [sym('total', '/ws/a.ts', 1, 2)] }), sym('total', '/ws/a.ts', 9, 16, { kind: 12 })];
    assert.deepEqual(matchInOutline(outline, { name: 'total', containers: ['Cart'] }).map((m) => m.symbol.selectionRange.start.line), [1]);
    assert.equal(matchInOutline(outline, { name: 'total', containers: [] }).length, 2);
  });
  it('matches search results by exact name and containerName', () => {
    const found = [sym('total', '/ws/a.py', 3, 8, { containerName: 'Cart' }), sym('totals', '/ws/b.py', 1, 4), sym('total', '/ws/c.py', 1, 4, { containerName: 'Other' })];
    assert.deepEqual(matchInSearch(found, { name: 'total', containers: ['Cart'] }).map((m) => m.symbol.location.path), ['/ws/a.py']);
  });
});

describe('resolveNavigationTarget', () => {
  it('with nearest, snaps through the file text the engine has', async () => {
    const services = makeServices();
    services.engine.files.set('/ws/a.ts', CART);
    const resolved = await resolveNavigationTarget({ workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 0 }, nearest: true }, services, invocation());
    assert.deepEqual([resolved.position, resolved.name], [{ line: 0, character: 13 }, 'Cart']);
    assert.match(resolved.note ?? '', /used `Cart`/);
  });
  it('without nearest, uses the position as given', async () => {
    const resolved = await resolveNavigationTarget({ workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 0 } }, makeServices(), invocation());
    assert.deepEqual([resolved.position, resolved.note], [{ line: 0, character: 0 }, undefined]);
  });
  it('resolves a symbol in a file through its outline, at the name inside the declaration', async () => {
    const services = makeServices();
    services.engine.files.set('/ws/a.ts', CART);
    // a server whose range starts at the declaration, not at the name
    services.engine.symbols = [sym('Cart', '/ws/a.ts', 0, 0, { kind: 5, children: [sym('total', '/ws/a.ts', 1, 0)] })];
    const resolved = await resolveNavigationTarget({ workspaceRoot: ROOT, symbol: 'Cart.total', filePath: 'a.ts' }, services, invocation());
    assert.deepEqual(resolved.position, { line: 1, character: 2 });
    assert.equal(resolved.file.filePath, 'a.ts');
    assert.equal(resolved.note, 'Cart.total is the method Cart.total at a.ts:2:3');
  });
  it('resolves a qualified name through outlines when the search leaves containerName out', async () => {
    const services = makeServices();
    services.engine.files.set('/ws/a.ts', CART);
    services.engine.workspaceSymbolResult = [sym('total', '/ws/a.ts', 1, 2), sym('total', '/ws/node_modules/x/index.d.ts', 0, 0)];
    services.engine.symbols = [sym('Cart', '/ws/a.ts', 0, 13, { kind: 5, children: [sym('total', '/ws/a.ts', 1, 2)] })];
    const resolved = await resolveNavigationTarget({ workspaceRoot: ROOT, symbol: 'Cart.total' }, services, invocation());
    assert.equal(resolved.file.path, '/ws/a.ts');
    assert.deepEqual(resolved.position, { line: 1, character: 2 });
  });
  it('prefers the project over dependency folders, and lists every declaration when ambiguous', async () => {
    const services = makeServices();
    services.engine.workspaceSymbolResult = [sym('area', '/ws/b.ts', 4, 2), sym('area', '/ws/a.ts', 3, 2), sym('area', '/ws/node_modules/x.d.ts', 1, 1)];
    await assert.rejects(
      resolveNavigationTarget({ workspaceRoot: ROOT, symbol: 'area' }, services, invocation()),
      (error: unknown) => {
        assert.ok(actionError('LSP_ACTION_NO_SYMBOL', /area matches 2 declarations: method area at a\.ts:4:3; method area at b\.ts:5:3\. Qualify it/)(error));
        assert.equal((error as { details: { candidates: unknown[] } }).details.candidates.length, 2);
        return true;
      },
    );
  });
  it('asks the search again while it finds no symbol of the name (a server still parsing after start)', async () => {
    const services = makeServices();
    services.engine.files.set('/ws/fmt.py', 'def describe(s):\n    pass\n');
    const answers = [[], [sym('describer', '/ws/x.py', 0, 4)], [sym('describe', '/ws/fmt.py', 0, 4, { kind: 12 })]];
    let asked = 0;
    services.engine.workspaceSymbols = async () => answers[Math.min(asked++, answers.length - 1)] ?? [];
    const resolved = await resolveNavigationTarget({ workspaceRoot: ROOT, symbol: 'describe' }, services, invocation());
    assert.equal(asked, 3);
    assert.deepEqual([resolved.file.path, resolved.position], ['/ws/fmt.py', { line: 0, character: 4 }]);
  });
  it('says when nothing matches', async () => {
    await assert.rejects(resolveNavigationTarget({ workspaceRoot: ROOT, symbol: 'nope' }, makeServices(), invocation()), actionError('LSP_ACTION_NO_SYMBOL', /no symbol named nope in the workspace/));
  });
  it('reads params: symbol or filePath + position, not both', () => {
    assert.throws(() => readNavigationTarget(new ActionParams({ workspaceRoot: ROOT, symbol: 'a', position: { line: 0, character: 0 } })), actionError('LSP_ACTION_INVALID_ARGS'));
    assert.throws(() => readNavigationTarget(new ActionParams({ workspaceRoot: ROOT, filePath: 'a.ts' })), actionError('LSP_ACTION_INVALID_ARGS'));
    assert.deepEqual(readNavigationTarget(new ActionParams({ workspaceRoot: ROOT, symbol: 'Cart.total' })), { workspaceRoot: ROOT, symbol: 'Cart.total' });
  });
});
