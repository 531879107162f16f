import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextLines } from '../../src/documents/position-encoding.ts';
import { createPositionMapper } from '../../src/documents/position-mapping.ts';
import { tsserverEndOfText } from '../../src/documents/tsserver-end-of-text.ts';
import { overlappingDiagnostics } from '../../src/lsp/normalize-diagnostics.ts';

const at = (line: number, character: number) => ({ line, character });

describe("tsserver's end-of-text positions", () => {
  // What tsserver 5.9.3 answers for an open "export const a = 1;\nfoo(\n": {line: 2, offset: 6}.
  const lf = new TextLines('export const a = 1;\nfoo(\n');

  it('a column through the last line break is the start of the empty last line (LF, CRLF, CR)', () => {
    assert.deepEqual(tsserverEndOfText(lf, at(1, 5)), at(2, 0));
    assert.deepEqual(tsserverEndOfText(new TextLines('export const a = 1;\r\nfoo(\r\n'), at(1, 6)), at(2, 0));
    assert.deepEqual(tsserverEndOfText(new TextLines('a\rfoo(\r'), at(1, 5)), at(2, 0));
  });

  it('a column past the text end stops at the text end', () => {
    assert.deepEqual(tsserverEndOfText(lf, at(1, 40)), at(2, 0));
  });

  it('every position the compiler can mean is unchanged', () => {
    for (const p of [at(0, 0), at(0, 19), at(1, 0), at(1, 4), at(2, 0)]) assert.deepEqual(tsserverEndOfText(lf, p), p);
    // inside a CRLF break: not past it
    assert.deepEqual(tsserverEndOfText(new TextLines('ab\r\ncd\r\n'), at(1, 3)), at(1, 3));
    // the last line has no break to run past
    const open = new TextLines('export const a = 1;\nfoo(');
    assert.deepEqual(tsserverEndOfText(open, at(1, 4)), at(1, 4));
    assert.deepEqual(tsserverEndOfText(open, at(1, 9)), at(1, 9));
  });

  it('the mapper applies it only for a tsserver-based server, before the encoding', () => {
    const texts: Record<string, string> = { '/w/a.ts': 'const s = "é";\nfoo(\n' };
    const textOf = (p: string): string | undefined => texts[p];
    assert.deepEqual(createPositionMapper('utf-16', textOf, { tsserver: true }).toUtf16('/w/a.ts', at(1, 5)), at(2, 0));
    assert.deepEqual(createPositionMapper('utf-16', textOf).toUtf16('/w/a.ts', at(1, 5)), at(1, 5));
    // a document whose text is not known passes through
    assert.deepEqual(createPositionMapper('utf-16', textOf, { tsserver: true }).toUtf16('/w/b.ts', at(1, 5)), at(1, 5));
    // the encoding conversion still runs after it
    assert.deepEqual(createPositionMapper('utf-8', textOf, { tsserver: true }).toUtf16('/w/a.ts', at(0, 14)), at(0, 13));
  });

  it('code action context: a raw diagnostic is matched where it points', () => {
    const raw = [{ range: { start: at(1, 5), end: at(1, 5) }, message: "')' expected." }];
    const eof = { start: at(2, 0), end: at(2, 0) };
    assert.deepEqual(overlappingDiagnostics(raw, eof), []);
    assert.deepEqual(
      overlappingDiagnostics(raw, eof, (p) => tsserverEndOfText(lf, p)),
      raw,
    );
  });
});
