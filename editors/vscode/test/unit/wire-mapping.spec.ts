import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  disabledReason,
  fromRange,
  orderCodeActions,
  toCodeActionKind,
  toDiagnostic,
  toRange,
  toSeverity,
} from '../../src/wire-mapping.ts';
import { vs } from './vscode-stand-in.ts';

const range = { start: { line: 4, character: 9 }, end: { line: 4, character: 17 } };

describe('wire ↔ VS Code mapping', () => {
  it('keeps positions as they are: both sides are zero-based UTF-16', () => {
    const mapped = toRange(vs, { start: { line: 0, character: 3 }, end: { line: 2, character: 0 } });
    assert.deepEqual([mapped.start.line, mapped.start.character, mapped.end.line, mapped.end.character], [0, 3, 2, 0]);
    assert.deepEqual(fromRange(mapped), { start: { line: 0, character: 3 }, end: { line: 2, character: 0 } });
  });

  it('maps LSP severities 1..4 onto VS Code 0..3, a missing or unknown one onto Error', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((s) => toSeverity(vs, s)),
      [vs.DiagnosticSeverity.Error, vs.DiagnosticSeverity.Warning, vs.DiagnosticSeverity.Information, vs.DiagnosticSeverity.Hint],
    );
    assert.equal(toSeverity(vs, undefined), vs.DiagnosticSeverity.Error);
    assert.equal(toSeverity(vs, 9), vs.DiagnosticSeverity.Error);
  });

  it('carries message, code, source, tags and related information faithfully', () => {
    const d = toDiagnostic(
      vs,
      {
        severity: 2,
        range,
        message: "Cannot find name 'distance'.",
        source: 'typescript',
        code: 2304,
        tags: [1, 2, 7],
        relatedInformation: [
          { filePath: 'src/geometry.ts', range, message: 'declared here' },
          { filePath: '/abs/other.ts', range, message: 'and here' },
        ],
      },
      '/ws',
    );
    assert.equal(d.message, "Cannot find name 'distance'.");
    assert.equal(d.severity, vs.DiagnosticSeverity.Warning);
    // Shown as tsc prints it; a bare number would also pull in the built-in extension's fixes.
    assert.equal(d.code, 'TS2304');
    assert.equal(d.source, 'typescript');
    assert.deepEqual(d.tags, [vs.DiagnosticTag.Unnecessary, vs.DiagnosticTag.Deprecated]);
    assert.deepEqual(
      d.relatedInformation?.map((r) => [r.location.uri.fsPath, r.location.range.start.line, r.message]),
      [
        ['/ws/src/geometry.ts', 4, 'declared here'],
        ['/abs/other.ts', 4, 'and here'],
      ],
    );
  });

  it('keeps other servers’ codes as they are', () => {
    assert.equal(toDiagnostic(vs, { range, message: 'm', source: 'Pyright', code: 'reportMissingImports' }, '/ws').code, 'reportMissingImports');
    assert.equal(toDiagnostic(vs, { range, message: 'm', source: 'eslint', code: 12 }, '/ws').code, 12);
  });

  it('leaves absent optional fields absent', () => {
    const d = toDiagnostic(vs, { range, message: 'm' }, '/ws');
    assert.equal(d.code, undefined);
    assert.equal(d.source, undefined);
    assert.equal(d.tags, undefined);
    assert.equal(d.relatedInformation, undefined);
  });

  it("uses the LSP kind string as VS Code's hierarchical kind; a kindless action is a quick fix", () => {
    assert.equal(toCodeActionKind(vs, 'refactor.extract.function').value, 'refactor.extract.function');
    assert.equal(toCodeActionKind(vs, 'source.organizeImports').value, 'source.organizeImports');
    assert.equal(toCodeActionKind(vs, undefined).value, 'quickfix');
  });

  it('orders preferred actions first, keeps the backend order otherwise, disabled last', () => {
    const ordered = orderCodeActions([
      { index: 0, title: 'a' },
      { index: 1, title: 'b', disabled: { reason: 'no' } },
      { index: 2, title: 'c', isPreferred: true },
      { index: 3, title: 'd' },
    ]);
    assert.deepEqual(
      ordered.map((a) => a.title),
      ['c', 'a', 'd', 'b'],
    );
    assert.equal(disabledReason({ reason: 'no' }), 'no');
    assert.equal(disabledReason('why'), 'why');
    assert.equal(disabledReason(undefined), undefined);
  });
});
