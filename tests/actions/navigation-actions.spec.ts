/**
 * The navigation actions on the stub engine (issue 22): `references.get` marks declarations and
 * attaches source lines (for listed places only), `implementation.get` orders by file and
 * position, `callHierarchy.get` flattens edges to call sites in a stable order, and the tools'
 * addressing turns one-based arguments into wire targets.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callHierarchyGetAction } from '../../src/actions/call-hierarchy-get.ts';
import { implementationGetAction } from '../../src/actions/implementation-get.ts';
import { referencesGetAction } from '../../src/actions/references-get.ts';
import { toTargetParams } from '../../src/tools/navigation-tool-specs.ts';
import { actionError, invocation, makeServices, range, ROOT } from './support/action-fixtures.ts';

const node = (name: string, path: string, line: number) => ({ name, kind: 6, path, range: range(line, 0, line + 2, 1), selectionRange: range(line, 2, line, 2 + name.length) });
const at = (path: string, line: number, character: number) => ({ path, range: range(line, character, line, character + 4) });

describe('navigation actions', () => {
  it('references.get with markDeclarations and withSource: declaration marked, lines read once per file, capped first', async () => {
    const services = makeServices();
    services.engine.files.set('/ws/b.ts', 'import { f } from "./a";\nf();\nf();\n');
    services.engine.files.set('/ws/a.ts', 'export function f() {}\n');
    services.engine.referencesResult = [at('/ws/b.ts', 2, 0), at('/ws/a.ts', 0, 16), at('/ws/b.ts', 1, 0), at('/ws/b.ts', 0, 9)];
    services.engine.definitionResult = [at('/ws/a.ts', 0, 16)];
    const params = referencesGetAction.parse({ workspaceRoot: ROOT, filePath: 'b.ts', position: { line: 1, character: 0 }, markDeclarations: true, withSource: true, maxItems: 3 });
    const result = await referencesGetAction.run(params, services, invocation());
    assert.deepEqual(
      result.locations.map((l) => [l.filePath, l.range.start.line, l.lineText, l.declaration ?? false]),
      [
        ['a.ts', 0, 'export function f() {}', true],
        ['b.ts', 0, 'import { f } from "./a";', false],
        ['b.ts', 1, 'f();', false],
      ],
    );
    assert.deepEqual([result.truncated, result.total], [true, 4]);
    assert.deepEqual(services.engine.callsOf('fileText').map((c) => c.args[0]).sort(), ['/ws/a.ts', '/ws/b.ts']);
  });

  it('implementation.get orders by file and position and keeps the plain shape without withSource', async () => {
    const services = makeServices();
    services.engine.implementationResult = [at('/ws/square.ts', 4, 2), at('/ws/circle.ts', 4, 2)];
    const result = await implementationGetAction.run(implementationGetAction.parse({ workspaceRoot: ROOT, filePath: 'shapes.ts', position: { line: 3, character: 2 } }), services, invocation());
    assert.equal(result.kind, 'implementation');
    assert.deepEqual(result.locations, [
      { filePath: 'circle.ts', range: range(4, 2, 4, 6) },
      { filePath: 'square.ts', range: range(4, 2, 4, 6) },
    ]);
  });

  it('callHierarchy.get flattens edges into call sites ordered by place, then callee', async () => {
    const services = makeServices();
    services.engine.callHierarchyResult = {
      serverId: 'ts',
      direction: 'outgoing',
      items: [node('summary', '/ws/cart.ts', 12)],
      edges: [
        { node: node('map', '/lib/lib.d.ts', 100), sitesPath: '/ws/cart.ts', sites: [range(13, 11, 13, 20)] },
        { node: node('join', '/lib/lib.d.ts', 90), sitesPath: '/ws/cart.ts', sites: [range(13, 11, 13, 40)] },
        { node: node('describe', '/ws/format.ts', 3), sitesPath: '/ws/cart.ts', sites: [range(13, 33, 13, 41)] },
      ],
    };
    const params = callHierarchyGetAction.parse({ workspaceRoot: ROOT, filePath: 'cart.ts', position: { line: 12, character: 2 }, direction: 'outgoing' });
    const result = await callHierarchyGetAction.run(params, services, invocation());
    assert.deepEqual(
      result.calls.map((c) => `${c.filePath}:${c.range.start.line}:${c.range.start.character} ${c.other.name} ${c.other.filePath}`),
      ['cart.ts:13:11 join /lib/lib.d.ts', 'cart.ts:13:11 map /lib/lib.d.ts', 'cart.ts:13:33 describe format.ts'],
    );
    assert.deepEqual(result.items.map((i) => i.name), ['summary']);
    assert.throws(() => callHierarchyGetAction.parse({ workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 0 }, direction: 'up' }), actionError('LSP_ACTION_INVALID_ARGS', /direction/));
  });

  it('the tools address by one-based position (snapped) or by symbol, never both', () => {
    assert.deepEqual(toTargetParams({ file_path: 'src/a.ts', line: 3, character: 5 }, ROOT), { filePath: '/ws/src/a.ts', position: { line: 2, character: 4 }, nearest: true });
    assert.deepEqual(toTargetParams({ symbol: ' Cart.total ' }, ROOT), { symbol: 'Cart.total' });
    assert.deepEqual(toTargetParams({ symbol: 'total', file_path: 'a.ts' }, ROOT), { symbol: 'total', filePath: '/ws/a.ts' });
    assert.throws(() => toTargetParams({ symbol: 'total', line: 3 }, ROOT), actionError('LSP_ACTION_INVALID_ARGS', /not both/));
    assert.throws(() => toTargetParams({ file_path: 'a.ts', line: 3 }, ROOT), actionError('LSP_ACTION_INVALID_ARGS', /line and character, or symbol/));
    assert.throws(() => toTargetParams({ file_path: 'a.ts', line: 0, character: 1 }, ROOT), actionError('LSP_ACTION_INVALID_ARGS', /one-based/));
  });
});
