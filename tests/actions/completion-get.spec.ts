/**
 * Completion: typed prefix, filtering and `sortText` ordering before the cap, resolve of the
 * top items only, wire shape.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterAndSortCompletions, lineBeforeCursor, typedPrefix } from '../../src/actions/completion-filter.ts';
import { COMPLETION_RESOLVE_TOP, completionGetAction } from '../../src/actions/completion-get.ts';
import type { CompletionItemInfo } from '../../src/lsp/engine-types.ts';
import { ROOT, edit, invocation, makeServices, range } from './support/action-fixtures.ts';

const item = (label: string, extra: Partial<CompletionItemInfo> = {}): CompletionItemInfo => ({ serverId: 'ts', label, raw: null, ...extra });

describe('typedPrefix', () => {
  it('takes the identifier characters before the cursor', () => {
    assert.equal(typedPrefix('foo.barB', { line: 0, character: 8 }), 'barB');
    assert.equal(typedPrefix('x = $el_2', { line: 0, character: 9 }), '$el_2');
    assert.equal(typedPrefix('a(', { line: 0, character: 2 }), '');
    assert.equal(typedPrefix('one\r\ntwo thr', { line: 1, character: 7 }), 'thr');
    assert.equal(typedPrefix('abc', { line: 0, character: 99 }), 'abc', 'clamped to the line');
    assert.equal(typedPrefix('abc', { line: 5, character: 1 }), '', 'past the end');
  });
  it('counts UTF-16 code units and keeps surrogate pairs whole', () => {
    assert.equal(typedPrefix('x 𝒜bc', { line: 0, character: 6 }), '𝒜bc');
    assert.equal(typedPrefix('é', { line: 0, character: 1 }), 'é');
  });
  it('lineBeforeCursor strips the CR of a CRLF line', () => {
    assert.equal(lineBeforeCursor('ab\r\ncd', { line: 0, character: 5 }), 'ab');
  });
});

describe('filterAndSortCompletions', () => {
  it('filters case-insensitively on filterText/label and orders by sortText, then label, then server order', () => {
    const items = [
      item('getB', { sortText: '1' }),
      item('other', { sortText: '0' }),
      item('GetA', { sortText: '1' }),
      item('zzz', { filterText: 'getZ', sortText: '0' }),
      item('getC'),
    ];
    const { items: out, prefix } = filterAndSortCompletions(items, 'x.get', { line: 0, character: 5 });
    assert.equal(prefix, 'get');
    assert.deepEqual(out.map((i) => i.label), ['zzz', 'GetA', 'getB', 'getC']);
  });
  it('uses the textEdit range start as the prefix start', () => {
    const items = [item('#priv', { textEdit: edit(range(0, 5, 0, 7), '#priv') }), item('other'), item('priv2')];
    const { items: out } = filterAndSortCompletions(items, 'this.#p', { line: 0, character: 7 });
    assert.deepEqual(out.map((i) => i.label), ['#priv', 'priv2'], 'without a textEdit the identifier prefix "p" applies');
  });
  it('keeps everything for an empty prefix', () => {
    assert.equal(filterAndSortCompletions([item('b'), item('a')], 'f(', { line: 0, character: 2 }).items.length, 2);
  });
});

describe('completion.get', () => {
  it('filters and orders before the cap, resolves only the top items, shapes the wire items', async () => {
    const services = makeServices({ config: { maxItems: 7 } });
    const labels = Array.from({ length: 12 }, (_, i) => `val${String(11 - i).padStart(2, '0')}`);
    services.engine.completionResult = {
      serverId: 'ts',
      isIncomplete: true,
      items: [item('nope'), ...labels.map((label) => item(label, { kind: 6 }))],
    };
    services.engine.resolveCompletionImpl = (i) => ({ ...i, detail: `detail of ${i.label}`, documentation: 'docs' });
    const result = await completionGetAction.run(
      { workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 12 }, text: 'const x = va' },
      services,
      invocation(),
    );
    assert.equal(result.prefix, 'va');
    assert.equal(result.total, 12);
    assert.equal(result.truncated, true);
    assert.deepEqual(result.items.map((i) => i.label), ['val00', 'val01', 'val02', 'val03', 'val04', 'val05', 'val06']);
    assert.equal(services.engine.callsOf('resolveCompletion').length, COMPLETION_RESOLVE_TOP);
    assert.deepEqual(result.items[0], { label: 'val00', serverId: 'ts', kind: 6, detail: 'detail of val00', documentation: 'docs' });
    assert.deepEqual(result.items[6], { label: 'val06', serverId: 'ts', kind: 6 });
    assert.equal(result.isIncomplete, true);
    assert.deepEqual(result.position, { line: 0, character: 12 });
    assert.equal(result.kind, 'completion');
    assert.equal(result.filePath, 'a.ts');
    assert.deepEqual(services.engine.callsOf('completion')[0]?.args[0], { root: ROOT, path: '/ws/a.ts', text: 'const x = va' });
  });

  it('params maxItems overrides the config cap; a failed resolve keeps the item', async () => {
    const services = makeServices();
    services.engine.docs.set('/ws/a.ts', 'ab');
    services.engine.completionResult = { serverId: 'ts', isIncomplete: false, items: [item('abc'), item('abd')] };
    services.engine.resolveCompletionImpl = () => {
      throw new Error('resolve failed');
    };
    const result = await completionGetAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 2 }, maxItems: 1 }, services, invocation());
    assert.deepEqual(result.items, [{ label: 'abc', serverId: 'ts' }]);
    assert.equal(result.total, 2);
    assert.equal(result.truncated, true);
  });
});
