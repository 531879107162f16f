/**
 * Read actions on the stub engine: wire shapes (v1 diagnostics with LSP severity numbers and
 * freshness), caps with `truncated`/`total`, outline capping, location paths and ordering.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { definitionGetAction } from '../../src/actions/definition-get.ts';
import { diagnosticsGetAction } from '../../src/actions/diagnostics-get.ts';
import { hoverGetAction } from '../../src/actions/hover-get.ts';
import { inlayHintsGetAction } from '../../src/actions/inlay-hints-get.ts';
import { referencesGetAction } from '../../src/actions/references-get.ts';
import { signatureGetAction } from '../../src/actions/signature-get.ts';
import { symbolsGetAction } from '../../src/actions/symbols-get.ts';
import type { SymbolNode } from '../../src/lsp/engine-types.ts';
import { ROOT, diag, invocation, makeServices, range } from './support/action-fixtures.ts';

const pos = { line: 0, character: 1 };
const loc = (path: string, line: number) => ({ path, range: range(line, 0, line, 3) });
const sym = (name: string, children: SymbolNode[] = []): SymbolNode => ({
  name,
  kind: 12,
  location: { path: '/ws/a.ts', range: range(0, 0, 1, 0) },
  selectionRange: range(0, 0, 0, 1),
  children,
});

describe('diagnostics.get', () => {
  it('returns the v1 shape plus state/version/servers, LSP severities, capped by config maxItems', async () => {
    const services = makeServices({ config: { maxItems: 2 } });
    services.engine.docs.set('/ws/a.ts', 'source text');
    services.engine.diagnosticsFor = (t) => ({
      path: t.path,
      version: 4,
      state: 'stale',
      diagnostics: [
        { ...diag('error', range(0, 0), 'e'), source: 'ts', code: 2304 },
        diag('warning', range(1, 0), 'w'),
        { ...diag('hint', range(2, 0), 'h'), tags: [1] },
      ],
      servers: [{ serverId: 'ts', mode: 'push', state: 'stale', version: 4, diagnostics: [] }],
    });
    const result = await diagnosticsGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', includeSource: true }, services, invocation());
    assert.deepEqual(result, {
      kind: 'diagnostics',
      filePath: 'a.ts',
      diagnostics: [
        { severity: 1, range: range(0, 0), message: 'e', serverId: 'ts', source: 'ts', code: 2304 },
        { severity: 2, range: range(1, 0), message: 'w', serverId: 'ts' },
      ],
      truncated: true,
      total: 3,
      state: 'stale',
      version: 4,
      servers: [{ serverId: 'ts', mode: 'push', state: 'stale' }],
      source: 'source text',
    });
    const more = await diagnosticsGetAction.run({ workspaceRoot: ROOT, filePath: '/ws/a.ts', maxItems: 5, waitMs: 10 }, services, invocation());
    assert.equal(more.truncated, false);
    assert.equal(more.diagnostics[2]?.severity, 4);
    assert.deepEqual(more.diagnostics[2]?.tags, [1]);
    assert.equal(more.source, undefined);
    assert.equal(more.filePath, '/ws/a.ts');
    const opts = services.engine.callsOf('diagnostics')[1]?.args[1] as { waitMs?: number } | undefined;
    assert.equal(opts?.waitMs, 10);
  });

  it('an empty pending result is not reported as fresh', async () => {
    const services = makeServices();
    services.engine.diagnosticsFor = (t) => ({ path: t.path, version: 1, state: 'pending', diagnostics: [], servers: [] });
    const result = await diagnosticsGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation());
    assert.equal(result.state, 'pending');
    assert.equal(result.total, 0);
  });
});

describe('symbols.get', () => {
  it('caps an outline in pre-order and counts every node', async () => {
    const services = makeServices();
    services.engine.symbols = [sym('A', [sym('a1'), sym('a2', [sym('deep')])]), sym('B')];
    const result = await symbolsGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', maxItems: 3 }, services, invocation());
    assert.equal(result.scope, 'document');
    assert.equal(result.total, 5);
    assert.equal(result.truncated, true);
    assert.deepEqual(result.symbols.map((s) => [s.name, s.children?.map((c) => c.name)]), [['A', ['a1', 'a2']]]);
    assert.deepEqual(result.symbols[0]?.children?.[1]?.children, []);
    assert.equal(result.symbols[0]?.filePath, 'a.ts');
  });

  it('with a query searches the workspace (flat), anchored on filePath when given', async () => {
    const services = makeServices();
    services.engine.workspaceSymbolResult = [{ ...sym('Foo', [sym('x')]), containerName: 'mod', location: { path: '/lib/x.d.ts', range: range(3, 0) } }];
    const result = await symbolsGetAction.run({ workspaceRoot: ROOT, query: 'Foo', filePath: 'a.ts' }, services, invocation());
    assert.deepEqual(services.engine.callsOf('workspaceSymbols')[0]?.args, [ROOT, 'Foo', '/ws/a.ts']);
    assert.deepEqual(result.symbols, [{ name: 'Foo', kind: 12, filePath: '/lib/x.d.ts', range: range(3, 0), selectionRange: range(0, 0, 0, 1), containerName: 'mod' }]);
    assert.equal(result.scope, 'workspace');
  });
});

describe('locations', () => {
  it('references: deduplicated, relative inside the root, ordered, capped', async () => {
    const services = makeServices();
    services.engine.referencesResult = [loc('/ws/b.ts', 4), loc('/ws/a.ts', 9), loc('/ws/a.ts', 2), loc('/ws/b.ts', 4), loc('/ws/a.ts', 5)];
    const result = await referencesGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: pos, maxItems: 3 }, services, invocation());
    assert.deepEqual(result.locations.map((l) => `${l.filePath}:${l.range.start.line}`), ['a.ts:2', 'a.ts:5', 'a.ts:9']);
    assert.equal(result.total, 4);
    assert.equal(result.truncated, true);
    assert.equal(services.engine.callsOf('references')[0]?.args[2], true, 'includeDeclaration defaults to true');
  });

  it('definition: outside paths stay absolute', async () => {
    const services = makeServices();
    services.engine.definitionResult = [{ path: '/usr/lib/node_modules/x/index.d.ts', range: range(1, 2) }];
    const result = await definitionGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: pos }, services, invocation());
    assert.deepEqual(result, { kind: 'definition', filePath: 'a.ts', position: pos, locations: [{ filePath: '/usr/lib/node_modules/x/index.d.ts', range: range(1, 2) }], truncated: false, total: 1 });
  });
});

describe('hover, signature, inlay hints', () => {
  it('hover: nothing there is found:false', async () => {
    const services = makeServices();
    assert.deepEqual(await hoverGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: pos }, services, invocation()), {
      kind: 'hover', filePath: 'a.ts', position: pos, found: false, contents: '',
    });
    services.engine.hoverResult = { serverId: 'ts', contents: '```ts\nconst a: number\n```', range: range(0, 0, 0, 1) };
    const found = await hoverGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: pos, text: 'a' }, services, invocation());
    assert.equal(found.found, true);
    assert.equal(found.serverId, 'ts');
    assert.deepEqual(services.engine.callsOf('hover')[1]?.args[0], { root: ROOT, path: '/ws/a.ts', text: 'a' });
  });

  it('signature: no call is an empty list', async () => {
    const services = makeServices();
    const none = await signatureGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: pos }, services, invocation());
    assert.deepEqual(none.signatures, []);
    services.engine.signature = { serverId: 'ts', activeSignature: 0, activeParameter: 1, signatures: [{ label: 'f(a, b)', parameters: [{ label: 'a' }, { label: 'b', documentation: 'the b' }] }] };
    const some = await signatureGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: pos }, services, invocation());
    assert.deepEqual(some.signatures, [{ label: 'f(a, b)', parameters: [{ label: 'a' }, { label: 'b', documentation: 'the b' }] }]);
    assert.equal(some.activeParameter, 1);
  });

  it('inlay hints: whole document without a range, sorted and capped', async () => {
    const services = makeServices();
    services.engine.hints = [
      { position: { line: 2, character: 0 }, label: ': c' },
      { position: { line: 0, character: 5 }, label: ': a', kind: 1 },
      { position: { line: 1, character: 0 }, label: 'b:', kind: 2, paddingRight: true },
    ];
    const result = await inlayHintsGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', maxItems: 2 }, services, invocation());
    assert.equal(services.engine.callsOf('inlayHints')[0]?.args[1], undefined);
    assert.deepEqual(result.hints.map((h) => h.label), [': a', 'b:']);
    assert.deepEqual(result.hints[1], { position: { line: 1, character: 0 }, label: 'b:', kind: 2, paddingRight: true });
    assert.equal(result.total, 3);
    assert.equal(result.range, undefined);
  });
});
