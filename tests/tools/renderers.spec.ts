import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireCodeAction, WireSymbol } from '../../src/actions/action-results.ts';
import { renderCodeAction, type CodeActionToolValue } from '../../src/tools/lsp-code-action-tool.ts';
import { formatCompletionItem, renderCompletion, type CompletionToolValue } from '../../src/tools/lsp-completion-tool.ts';
import { renderFormat } from '../../src/tools/lsp-format-tool.ts';
import { renderInlayHints } from '../../src/tools/lsp-inlay-hints-tool.ts';
import { renderOrganizeImports } from '../../src/tools/lsp-organize-imports-tool.ts';
import { renderRename } from '../../src/tools/lsp-rename-tool.ts';
import { markActiveParameter, renderSignature, type SignatureToolValue } from '../../src/tools/lsp-signature-tool.ts';
import { renderSymbols } from '../../src/tools/lsp-symbols-tool.ts';
import { renderWrite } from '../../src/tools/write-render.ts';
import { WS, wellFormed } from './tool-fixtures.ts';

const pos = (line: number, character: number) => ({ line, character });
const range = (l1: number, c1: number, l2: number, c2: number) => ({ start: pos(l1, c1), end: pos(l2, c2) });

describe('lsp_completion text', () => {
  const base: CompletionToolValue = {
    kind: 'completion', filePath: `${WS}/src/a.ts`, position: pos(4, 7), prefix: 'ma', isIncomplete: false, truncated: true, total: 12, workspaceRoot: WS,
    items: [
      { label: 'map', kind: 2, detail: '(method) Array<number>.map<U>(cb): U[]', documentation: 'Calls a defined callback function on each element.\n\nMore text.', serverId: 'ts' },
      { label: 'max', kind: 6, serverId: 'ts' },
    ],
  };

  it('says it is reference-only, shows the prefix, the count and one line per item', () => {
    assert.equal(
      renderCompletion(base, 10_000),
      [
        'Completions at src/a.ts:5:8 for "ma": 2 of 12, best first. Reference only; nothing was inserted.',
        'map — method — (method) Array<number>.map<U>(cb): U[] · Calls a defined callback function on each element.',
        'max — variable',
        '… 10 more completions not shown',
      ].join('\n'),
    );
  });

  it('keeps the first line of a multi-line detail', () => {
    const item = { label: 'AbortController', kind: 6, detail: 'interface AbortController\nvar AbortController: {\n  new (): AbortController;\n}', serverId: 'ts' };
    assert.equal(formatCompletionItem(item), 'AbortController — variable — interface AbortController');
  });

  it('says when there are none, and when the server has more', () => {
    assert.equal(
      renderCompletion({ ...base, items: [], total: 0, truncated: false, isIncomplete: true }, 10_000),
      'No completions at src/a.ts:5:8 for "ma". (the server has more; type more of the name to narrow) Reference only; nothing was inserted.',
    );
  });
});

const action = (index: number, extra: Partial<WireCodeAction> = {}): WireCodeAction => ({
  index, title: `Fix ${index}`, isPreferred: false, serverId: 'ts', diagnostics: [], ...extra,
});

describe('lsp_code_action text', () => {
  it('numbers actions from 1 with kind, what they fix and a preview of their edits', () => {
    const value: CodeActionToolValue = {
      kind: 'codeActions', filePath: `${WS}/src/a.ts`, range: range(2, 4, 2, 9), truncated: false, total: 3, workspaceRoot: WS,
      actions: [
        action(0, {
          title: 'Add import from "./b"', kind: 'quickfix', isPreferred: true, diagnostics: ["Cannot find name 'b'."],
          preview: { editCount: 1, resourceOperations: [], files: [{ filePath: 'src/a.ts', edits: [{ range: range(0, 0, 0, 0), newText: 'import { b } from "./b";\n' }], diff: '@@ -1,1 +1,3 @@\n+import { b } from "./b";\n+\n const x = b;' }] },
        }),
        action(1, { title: 'Extract to function', kind: 'refactor.extract.function', command: { title: 'Extract', command: '_typescript.applyRefactoring' } }),
        action(2, { title: 'Convert to named export', kind: 'refactor.rewrite', disabled: 'This file already has a default export' }),
      ],
    };
    assert.equal(
      renderCodeAction(value, 10_000),
      [
        'Code actions at src/a.ts:3:5 (3:5-10): 3.',
        '[1] Add import from "./b" — quickfix, preferred; fixes: Cannot find name \'b\'.',
        '    src/a.ts: 1 edit',
        '      +import { b } from "./b";',
        '[2] Extract to function — refactor.extract.function',
        '    (a server command computes its edits when applied; they are saved too)',
        '[3] Convert to named export — refactor.rewrite (disabled: This file already has a default export)',
        'To apply one, call lsp_code_action again with the same file_path and range plus its title or index.',
      ].join('\n'),
    );
  });

  it('shows edits without a diff, caps long previews, and says when there are none', () => {
    const edits = Array.from({ length: 12 }, (_, i) => ({ range: range(i, 0, i, 3), newText: i % 2 ? '' : 'x' }));
    const value: CodeActionToolValue = {
      kind: 'codeActions', filePath: 'src/a.ts', range: range(0, 0, 3, 0), truncated: false, total: 1, workspaceRoot: WS,
      actions: [action(0, { preview: { editCount: 12, resourceOperations: [{ kind: 'rename', oldFilePath: 'a.ts', newFilePath: 'b.ts' }], files: [{ filePath: 'src/a.ts', edits }] } })],
    };
    const text = renderCodeAction(value, 10_000);
    assert.match(text, /^Code actions at src\/a\.ts:1:1 \(lines 1-3\): 1\./);
    assert.match(text, /\n      at 1:1-4 replace with "x"\n      at 2:1-4 delete\n/);
    assert.match(text, /\n {6}… 6 more lines\n/);
    assert.equal(renderCodeAction({ ...value, actions: [], total: 0 }, 10_000), 'No code actions at src/a.ts:1:1 (lines 1-3).');
  });

  it("carries the listing's note (a quick fix the server lacks), with or without actions", () => {
    const note = "TypeScript 7's language server (tsc --lsp 7.0.2) offers no quick fix for TS2552 here.";
    const value: CodeActionToolValue = { kind: 'codeActions', filePath: 'src/a.ts', range: range(1, 17, 1, 23), truncated: false, total: 0, workspaceRoot: WS, actions: [], note };
    assert.equal(renderCodeAction(value, 10_000), `No code actions at src/a.ts:2:18 (2:18-24).\nNote: ${note}`);
    const one = renderCodeAction({ ...value, total: 1, actions: [action(0, { title: 'Remove unused declaration' })] }, 10_000);
    assert.match(one, /^Code actions at src\/a\.ts:2:18 \(2:18-24\): 1\.\nNote: TypeScript 7's language server .*\n\[1\] Remove unused declaration/);
  });

  it('reports an applied action, a refused command edit, and an unchanged outcome', () => {
    const applied: CodeActionToolValue = {
      kind: 'codeActionApplied', filePath: 'src/a.ts', title: 'Add import', actionKind: 'quickfix', serverId: 'ts', applied: true, commandExecuted: false,
      files: [{ filePath: 'src/a.ts', editCount: 1 }], filesChanged: 1, appliedEdits: 1,
      diffs: [{ filePath: 'src/a.ts', before: 'const x = b;\n', after: 'import { b } from "./b";\nconst x = b;\n' }], workspaceRoot: WS,
    };
    assert.equal(
      renderCodeAction(applied, 10_000),
      'Applied: Add import (quickfix) — 1 edit in 1 file.\nsrc/a.ts: 1 edit; changed lines 1\nLine numbers are in the new text; re-read those lines before editing them.',
    );
    const refused = { ...applied, applied: false, commandExecuted: true, failureReason: 'the file changed', diffs: [], files: [], filesChanged: 0, appliedEdits: 0 };
    assert.match(renderCodeAction(refused, 10_000), /\nThe action's server command ran, but its edit was not applied: the file changed\. Nothing was changed\.$/);
    assert.match(renderCodeAction({ ...applied, commandExecuted: true, diffs: [], files: [] }, 10_000), /\nThe action ran a language-server command; no file content changed\.$/);
    assert.equal(renderCodeAction({ kind: 'unchanged', filePath: `${WS}/src/a.ts`, reason: 'no edit', workspaceRoot: WS }, 10_000), 'Nothing changed in src/a.ts: no edit');
  });
});

describe('write tools text', () => {
  it('lsp_format: counts and the changed lines, or why nothing changed', () => {
    const before = 'const   x = 1;\nlet y=2\n';
    const after = 'const x = 1;\nlet y = 2;\n';
    assert.equal(
      renderFormat({ kind: 'formatted', filePath: `${WS}/a.ts`, appliedEdits: 3, linesChanged: 2, before, after, workspaceRoot: WS }, 10_000),
      'Formatted a.ts: 3 edits, 2 lines changed.\na.ts: 3 edits; changed lines 1-2\nLine numbers are in the new text; re-read those lines before editing them.',
    );
    assert.equal(renderFormat({ kind: 'unchanged', filePath: `${WS}/a.ts`, workspaceRoot: WS }, 10_000), 'Nothing changed in a.ts: it is already formatted');
  });

  it('lsp_organize_imports and lsp_rename', () => {
    assert.match(
      renderOrganizeImports({ kind: 'importsOrganized', filePath: 'a.ts', title: 'Organize Imports', serverId: 'ts', linesChanged: 1, filesChanged: 1, appliedEdits: 2, diffs: [{ filePath: 'a.ts', before: 'import b;\nimport a;\n', after: 'import a;\nimport b;\n' }], workspaceRoot: WS }, 10_000),
      /^Organized imports in a\.ts: 2 edits, 1 line changed\.\na\.ts: changed lines 1-2\n/,
    );
    const text = renderRename({
      kind: 'renamed', filePath: `${WS}/a.ts`, position: pos(0, 6), oldName: 'foo', newName: 'bar', serverId: 'ts', filesChanged: 2, appliedEdits: 3,
      files: [{ filePath: 'a.ts', editCount: 2 }, { filePath: 'lib/b.ts', editCount: 1 }],
      diffs: [{ filePath: 'a.ts', before: 'foo\nfoo\n', after: 'bar\nbar\n' }, { filePath: 'lib/b.ts', before: 'x\nfoo\n', after: 'x\nbar\n' }], workspaceRoot: WS,
    }, 10_000);
    assert.equal(text, 'Renamed "foo" at a.ts:1:7 to "bar": 3 edits in 2 files.\na.ts: 2 edits; changed lines 1-2\nlib/b.ts: 1 edit; changed lines 2\nLine numbers are in the new text; re-read those lines before editing them.');
  });

  it('stays within tiny and exact limits, saying how many files were left out', () => {
    const diffs = Array.from({ length: 20 }, (_, i) => ({ filePath: `src/文件${i}.ts`, before: 'a\n', after: 'b\n' }));
    const outcome = { summary: 'Renamed 😀 everywhere.', diffs };
    const full = renderWrite(WS, outcome, 1_000_000);
    assert.equal(renderWrite(WS, outcome, full.length), full);
    for (const max of [0, 5, 50, 200, full.length - 1]) {
      const text = renderWrite(WS, outcome, max);
      assert.ok(text.length <= max && wellFormed(text), `max ${max}`);
    }
    assert.match(renderWrite(WS, outcome, 300), /… \d+ more changed files not shown\nLine numbers/);
  });
});

const sym = (name: string, kind: number, line: number, children?: WireSymbol[]): WireSymbol => ({
  name, kind, filePath: 'src/a.ts', range: range(line, 0, line + 1, 0), selectionRange: range(line, 6, line, 6 + name.length), ...(children ? { children } : {}),
});

describe('read tools text', () => {
  it('lsp_symbols: an indented outline, and workspace hits as path:line:col', () => {
    const outline = renderSymbols({ kind: 'symbols', scope: 'document', filePath: `${WS}/src/a.ts`, symbols: [sym('Foo', 5, 0, [sym('bar', 6, 1)])], truncated: false, total: 2, workspaceRoot: WS }, 10_000);
    assert.equal(outline, 'Outline of src/a.ts (2 symbols; line:col one-based):\nclass Foo 1:7\n  method bar 2:7');
    const found = renderSymbols({ kind: 'symbols', scope: 'workspace', query: 'ba', symbols: [{ ...sym('bar', 6, 1), containerName: 'Foo' }], truncated: true, total: 9, workspaceRoot: WS }, 10_000);
    assert.equal(found, 'Symbols matching "ba": 1 of 9 (path:line:col one-based).\nmethod bar in Foo — src/a.ts:2:7\n… 8 more symbols not shown');
  });

  it('lsp_signature: marks the active parameter and lists other overloads', () => {
    const sig = { label: 'f(a: number, b: string): void', parameters: [{ label: 'a: number' }, { label: 'b: string', documentation: 'the name' }], documentation: 'Does f.' };
    assert.equal(markActiveParameter(sig, 1), 'f(a: number, «b: string»): void');
    assert.equal(markActiveParameter(sig, 5), sig.label);
    const value: SignatureToolValue = { kind: 'signature', filePath: 'a.ts', position: pos(3, 4), signatures: [sig, { label: 'f(): void', parameters: [] }], activeSignature: 0, activeParameter: 1, workspaceRoot: WS };
    assert.equal(renderSignature(value, 10_000), 'Signature at a.ts:4:5:\nf(a: number, «b: string»): void\nParameter b: string: the name\nDoes f.\noverload: f(): void');
    assert.equal(renderSignature({ ...value, signatures: [] }, 10_000), "No call at a.ts:4:5; put the cursor inside a call's parentheses.");
  });

  it('lsp_inlay_hints: one line per hint, range described in one-based lines', () => {
    const text = renderInlayHints({
      kind: 'inlayHints', filePath: 'a.ts', serverId: 'ts', range: range(0, 0, 3, 0), truncated: false, total: 2, workspaceRoot: WS,
      hints: [{ position: pos(0, 7), label: ': number', kind: 1 }, { position: pos(2, 2), label: 'a:', kind: 2 }],
    }, 10_000);
    assert.equal(text, 'Inlay hints in a.ts (lines 1-3): 2 (line:col one-based, the hint shows at that spot).\n1:8 type: number\n3:3 parameter: a');
  });
});
