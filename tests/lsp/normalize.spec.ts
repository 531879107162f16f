import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPositionMapper } from '../../src/documents/position-mapping.ts';
import { isActionError } from '../../src/errors.ts';
import { identityMapper, type NormalizeContext } from '../../src/lsp/normalize-common.ts';
import { normalizeCodeActions } from '../../src/lsp/normalize-code-actions.ts';
import { normalizeCompletion } from '../../src/lsp/normalize-completion.ts';
import { normalizeDiagnostics, sortDiagnostics } from '../../src/lsp/normalize-diagnostics.ts';
import { normalizeLocations } from '../../src/lsp/normalize-locations.ts';
import { flattenMarkup, normalizeHover, normalizeInlayHints, normalizeSignatureHelp } from '../../src/lsp/normalize-markup.ts';
import { normalizeDocumentSymbols, normalizeWorkspaceSymbols } from '../../src/lsp/normalize-symbols.ts';
import { normalizeTextEdits, normalizeWorkspaceEdit } from '../../src/lsp/normalize-workspace-edit.ts';

const ctx: NormalizeContext = { serverId: 's', mapper: identityMapper };
const A = '/w/a.ts';
const B = '/w/b.ts';
const uri = (p: string): string => `file://${p}`;
const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

function malformed(fn: () => unknown): void {
  assert.throws(fn, (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_MALFORMED_RESPONSE');
}

describe('normalizeLocations', () => {
  it('accepts Location, Location[], LocationLink[] and null', () => {
    assert.deepEqual(normalizeLocations(ctx, null), []);
    assert.deepEqual(normalizeLocations(ctx, { uri: uri(A), range: r(1, 2, 1, 5) }), [{ path: A, range: r(1, 2, 1, 5) }]);
    assert.deepEqual(
      normalizeLocations(ctx, [
        { uri: uri(A), range: r(1, 2, 1, 5) },
        { uri: uri(A), range: r(1, 2, 1, 5) },
        { uri: uri(B), range: r(0, 0, 0, 1) },
      ]),
      [
        { path: A, range: r(1, 2, 1, 5) },
        { path: B, range: r(0, 0, 0, 1) },
      ],
      'duplicates are dropped',
    );
    assert.deepEqual(
      normalizeLocations(ctx, [{ originSelectionRange: r(9, 9, 9, 9), targetUri: uri(B), targetRange: r(3, 0, 8, 1), targetSelectionRange: r(3, 9, 3, 14) }]),
      [{ path: B, range: r(3, 9, 3, 14) }],
      'a LocationLink points at its targetSelectionRange',
    );
  });

  it('skips non-file targets and rejects malformed ones', () => {
    assert.deepEqual(normalizeLocations(ctx, [{ uri: 'jdt://contents/x', range: r(0, 0, 0, 0) }]), []);
    malformed(() => normalizeLocations(ctx, [{ uri: uri(A), range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } } }]));
    malformed(() => normalizeLocations(ctx, [{ uri: uri(A) }]));
    malformed(() => normalizeLocations(ctx, [42]));
  });

  it('converts utf-8 positions of other documents with their own text', () => {
    const texts: Record<string, string> = { [A]: 'x', [B]: 'é😀 name' };
    const utf8: NormalizeContext = { serverId: 's', mapper: createPositionMapper('utf-8', (p) => texts[p]) };
    assert.deepEqual(normalizeLocations(utf8, { uri: uri(B), range: r(0, 7, 0, 11) }), [{ path: B, range: r(0, 4, 0, 8) }]);
  });
});

describe('normalizeWorkspaceEdit', () => {
  it('prefers documentChanges over changes when both are present', () => {
    const edit = normalizeWorkspaceEdit(ctx, {
      changes: { [uri(A)]: [{ range: r(0, 0, 0, 0), newText: 'from changes' }] },
      documentChanges: [{ textDocument: { uri: uri(A), version: 3 }, edits: [{ range: r(0, 0, 0, 0), newText: 'from documentChanges' }] }],
    });
    assert.deepEqual(edit, { steps: [{ kind: 'edit', path: A, version: 3, edits: [{ range: r(0, 0, 0, 0), newText: 'from documentChanges' }] }] });
  });

  it('keeps resource operations in order with their options, and null versions', () => {
    const edit = normalizeWorkspaceEdit(ctx, {
      documentChanges: [
        { kind: 'create', uri: uri(B), options: { ignoreIfExists: true } },
        { textDocument: { uri: uri(B), version: null }, edits: [{ range: r(0, 0, 0, 0), newText: 'x' }] },
        { kind: 'rename', oldUri: uri(A), newUri: uri('/w/c.ts'), options: { overwrite: false } },
        { kind: 'delete', uri: uri('/w/d'), options: { recursive: true } },
      ],
    });
    assert.deepEqual(edit.steps, [
      { kind: 'create', path: B, ignoreIfExists: true },
      { kind: 'edit', path: B, version: null, edits: [{ range: r(0, 0, 0, 0), newText: 'x' }] },
      { kind: 'rename', oldPath: A, newPath: '/w/c.ts', overwrite: false },
      { kind: 'delete', path: '/w/d', recursive: true },
    ]);
  });

  it('reads changes when there are no documentChanges; rejects malformed edits', () => {
    assert.deepEqual(normalizeWorkspaceEdit(ctx, { changes: { [uri(A)]: [{ range: r(1, 1, 1, 2), newText: '' }] } }).steps, [
      { kind: 'edit', path: A, edits: [{ range: r(1, 1, 1, 2), newText: '' }] },
    ]);
    assert.deepEqual(normalizeWorkspaceEdit(ctx, null), { steps: [] });
    malformed(() => normalizeWorkspaceEdit(ctx, { documentChanges: [{ kind: 'explode', uri: uri(A) }] }));
    malformed(() => normalizeWorkspaceEdit(ctx, { changes: { 'untitled:1': [] } }));
    malformed(() => normalizeTextEdits(ctx, [{ range: r(0, 0, 0, 0) }], A));
  });
});

describe('normalizeCodeActions', () => {
  const fix = {
    title: 'Fix it',
    kind: 'quickfix',
    isPreferred: true,
    diagnostics: [{ range: r(0, 1, 0, 2), message: 'bad', severity: 1 }],
    edit: { changes: { [uri(A)]: [{ range: r(0, 1, 0, 2), newText: 'good' }] } },
    command: { title: 'After', command: 'x.after', arguments: [1] },
  };

  it('keeps the edit of a CodeAction that also carries a command', () => {
    const [item] = normalizeCodeActions(ctx, [fix], A, true);
    assert.equal(item?.title, 'Fix it');
    assert.equal(item?.isPreferred, true);
    assert.deepEqual(item?.edit?.steps, [{ kind: 'edit', path: A, edits: [{ range: r(0, 1, 0, 2), newText: 'good' }] }]);
    assert.deepEqual(item?.command, { title: 'After', command: 'x.after', arguments: [1] });
    assert.equal(item?.needsResolve, false, 'it already has an edit');
    assert.equal(item?.diagnostics?.[0]?.message, 'bad');
    assert.equal(item?.raw, fix);
  });

  it('turns a bare Command into an item with only a command', () => {
    const [item] = normalizeCodeActions(ctx, [{ title: 'Run', command: 'x.run', arguments: ['a'] }], A, true);
    assert.deepEqual({ ...item, raw: undefined }, { serverId: 's', title: 'Run', command: { title: 'Run', command: 'x.run', arguments: ['a'] }, needsResolve: false, raw: undefined });
  });

  it('marks data-only actions as needing resolve only when the server resolves', () => {
    const lazy = { title: 'Lazy', data: { id: 1 } };
    assert.equal(normalizeCodeActions(ctx, [lazy], A, true)[0]?.needsResolve, true);
    assert.equal(normalizeCodeActions(ctx, [lazy], A, false)[0]?.needsResolve, false);
    assert.equal(normalizeCodeActions(ctx, [{ title: 'Off', disabled: { reason: 'not here' } }], A, false)[0]?.disabled, 'not here');
    assert.deepEqual(normalizeCodeActions(ctx, null, A, false), []);
    malformed(() => normalizeCodeActions(ctx, [{ kind: 'quickfix' }], A, false));
    malformed(() => normalizeCodeActions(ctx, { title: 'x' }, A, false));
  });
});

describe('markup, hover, signature help, inlay hints', () => {
  it('flattens MarkupContent, MarkedString and MarkedString[]', () => {
    assert.equal(flattenMarkup({ kind: 'markdown', value: '**b**' }), '**b**');
    assert.equal(flattenMarkup('plain'), 'plain');
    assert.equal(flattenMarkup({ language: 'ts', value: 'let x' }), '```ts\nlet x\n```');
    assert.equal(flattenMarkup(['a', { language: 'py', value: 'x' }, '']), 'a\n\n```py\nx\n```');
  });

  it('normalises hover with its range, and empty hover to null', () => {
    assert.deepEqual(normalizeHover(ctx, { contents: { kind: 'plaintext', value: 'doc' }, range: r(0, 1, 0, 3) }, A), { serverId: 's', contents: 'doc', range: r(0, 1, 0, 3) });
    assert.equal(normalizeHover(ctx, { contents: [] }, A), null);
    assert.equal(normalizeHover(ctx, null, A), null);
    malformed(() => normalizeHover(ctx, 'x', A));
  });

  it('slices parameter labels given as offsets', () => {
    const help = normalizeSignatureHelp(ctx, {
      signatures: [{ label: 'f(a: number, b: string)', parameters: [{ label: [2, 11] }, { label: 'b: string', documentation: 'the b' }] }],
      activeParameter: 1,
    });
    assert.deepEqual(help?.signatures[0]?.parameters, [{ label: 'a: number' }, { label: 'b: string', documentation: 'the b' }]);
    assert.equal(help?.activeParameter, 1);
    assert.equal(help?.activeSignature, 0);
    assert.equal(normalizeSignatureHelp(ctx, null), null);
  });

  it('joins inlay hint label parts', () => {
    assert.deepEqual(normalizeInlayHints(ctx, [{ position: { line: 0, character: 3 }, label: [{ value: ': ' }, { value: 'number' }], kind: 1, paddingLeft: true }], A), [
      { position: { line: 0, character: 3 }, label: ': number', kind: 1, paddingLeft: true },
    ]);
  });
});

describe('symbols', () => {
  it('keeps DocumentSymbol hierarchy', () => {
    const [cls] = normalizeDocumentSymbols(ctx, [{ name: 'C', kind: 5, range: r(0, 0, 5, 1), selectionRange: r(0, 6, 0, 7), children: [{ name: 'm', kind: 6, detail: '()', range: r(1, 2, 2, 3), selectionRange: r(1, 2, 1, 3) }] }], A);
    assert.equal(cls?.name, 'C');
    assert.deepEqual(cls?.location, { path: A, range: r(0, 0, 5, 1) });
    assert.deepEqual(cls?.selectionRange, r(0, 6, 0, 7));
    assert.equal(cls?.children[0]?.name, 'm');
    assert.equal(cls?.children[0]?.detail, '()');
  });

  it('turns flat SymbolInformation and range-less WorkspaceSymbols into leaves', () => {
    assert.deepEqual(normalizeDocumentSymbols(ctx, [{ name: 'f', kind: 12, containerName: 'C', location: { uri: uri(B), range: r(2, 0, 3, 0) } }], A), [
      { name: 'f', kind: 12, containerName: 'C', location: { path: B, range: r(2, 0, 3, 0) }, selectionRange: r(2, 0, 3, 0), children: [] },
    ]);
    assert.deepEqual(normalizeWorkspaceSymbols(ctx, [{ name: 'g', kind: 12, location: { uri: uri(B) } }])[0]?.location, { path: B, range: r(0, 0, 0, 0) });
    malformed(() => normalizeWorkspaceSymbols(ctx, [{ name: 'g', kind: 12, range: r(0, 0, 0, 0), selectionRange: r(0, 0, 0, 0) }]));
  });
});

describe('completion', () => {
  it('reads a CompletionList with isIncomplete and itemDefaults.editRange', () => {
    const result = normalizeCompletion(
      ctx,
      {
        isIncomplete: true,
        itemDefaults: { editRange: { insert: r(0, 0, 0, 2), replace: r(0, 0, 0, 4) } },
        items: [
          { label: 'alpha', kind: 6, documentation: { kind: 'markdown', value: '*a*' } },
          { label: 'beta', textEdit: { range: r(0, 1, 0, 2), newText: 'betaValue' } },
          { label: 'gamma', textEdit: { newText: 'g', insert: r(0, 0, 0, 1), replace: r(0, 0, 0, 3) } },
        ],
      },
      A,
    );
    assert.equal(result.isIncomplete, true);
    assert.deepEqual(result.items[0]?.textEdit, { range: r(0, 0, 0, 2), newText: 'alpha' });
    assert.equal(result.items[0]?.documentation, '*a*');
    assert.deepEqual(result.items[1]?.textEdit, { range: r(0, 1, 0, 2), newText: 'betaValue' });
    assert.deepEqual(result.items[2]?.textEdit, { range: r(0, 0, 0, 1), newText: 'g' }, 'InsertReplaceEdit uses insert');
  });

  it('reads a bare CompletionItem[] and null', () => {
    assert.deepEqual(normalizeCompletion(ctx, [{ label: 'x', insertText: 'x()' }], A).items.map((i) => [i.label, i.insertText]), [['x', 'x()']]);
    assert.deepEqual(normalizeCompletion(ctx, null, A), { serverId: 's', isIncomplete: false, items: [] });
    malformed(() => normalizeCompletion(ctx, [{ kind: 1 }], A));
    malformed(() => normalizeCompletion(ctx, 'x', A));
  });
});

describe('diagnostics', () => {
  it('maps severities (missing = error), codes, tags and related information', () => {
    const [d, e] = normalizeDiagnostics(
      ctx,
      [
        { range: r(0, 0, 0, 1), message: 'm', code: 2304, tags: [1], relatedInformation: [{ location: { uri: uri(B), range: r(1, 1, 1, 2) }, message: 'here' }] },
        { range: r(0, 0, 0, 1), message: 'n', severity: 4, source: 'ts' },
      ],
      A,
    );
    assert.equal(d?.severity, 'error');
    assert.equal(d?.code, 2304);
    assert.deepEqual(d?.tags, [1]);
    assert.deepEqual(d?.relatedInformation, [{ location: { path: B, range: r(1, 1, 1, 2) }, message: 'here' }]);
    assert.equal(e?.severity, 'hint');
    assert.equal(e?.source, 'ts');
    malformed(() => normalizeDiagnostics(ctx, [{ range: r(0, 0, 0, 1) }], A));
  });

  it('sorts by position, then severity', () => {
    const sorted = sortDiagnostics([
      { serverId: 'b', range: r(1, 0, 1, 1), severity: 'error', message: '3' },
      { serverId: 'a', range: r(0, 5, 0, 6), severity: 'warning', message: '2' },
      { serverId: 'a', range: r(0, 5, 0, 6), severity: 'error', message: '1' },
    ]);
    assert.deepEqual(sorted.map((x) => x.message), ['1', '2', '3']);
  });
});
