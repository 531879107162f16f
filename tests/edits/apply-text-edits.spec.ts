import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyTextEdits, formatRange } from '../../src/edits/apply-text-edits.ts';
import { isActionError } from '../../src/errors.ts';
import type { TextEdit } from '../../src/lsp/engine-types.ts';

function edit(sl: number, sc: number, el: number, ec: number, newText: string): TextEdit {
  return { range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, newText };
}

function insert(line: number, character: number, newText: string): TextEdit {
  return edit(line, character, line, character, newText);
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(isActionError(error), `expected an ActionError, got ${String(error)}`);
    return error.code;
  }
  assert.fail('expected a throw');
}

describe('applyTextEdits', () => {
  it('returns the text unchanged for no edits', () => {
    assert.equal(applyTextEdits('a\r\nb', [], '/w/a.ts'), 'a\r\nb');
  });

  it('applies several edits against the ORIGINAL positions, whatever their array order', () => {
    const text = 'one two three\nfour\n';
    const result = applyTextEdits(text, [edit(1, 0, 1, 4, 'FOUR'), edit(0, 4, 0, 7, '2'), insert(0, 0, '> ')], '/w/a.ts');
    assert.equal(result, '> one 2 three\nFOUR\n');
  });

  it('clamps a line past the end to the end of the document', () => {
    assert.equal(applyTextEdits('ab\ncd', [insert(99, 0, '!')], '/w/a.ts'), 'ab\ncd!');
    assert.equal(applyTextEdits('ab\ncd\n', [edit(1, 1, 42, 7, 'X')], '/w/a.ts'), 'ab\ncX');
  });

  it('clamps a character past the line length to the line end, which is before \\r\\n', () => {
    const text = 'ab\r\ncd\r\n';
    assert.equal(applyTextEdits(text, [insert(0, 50, '!')], '/w/a.ts'), 'ab!\r\ncd\r\n');
    // character 3 would sit between \r and \n: it is clamped before the \r
    assert.equal(applyTextEdits(text, [insert(0, 3, '!')], '/w/a.ts'), 'ab!\r\ncd\r\n');
    assert.equal(applyTextEdits('ab\ncd', [insert(0, 9, '!')], '/w/a.ts'), 'ab!\ncd');
  });

  it('treats a lone \\r as a line terminator, as the LSP spec does', () => {
    assert.equal(applyTextEdits('ab\rcd', [insert(1, 0, '>')], '/w/a.ts'), 'ab\r>cd');
  });

  it('keeps CRLF in untouched parts and inserts newText verbatim', () => {
    const text = 'const a = 1;\r\nconst b = 2;\r\n';
    const result = applyTextEdits(text, [edit(1, 6, 1, 7, 'c'), insert(2, 0, 'x\ny')], '/w/a.ts');
    assert.equal(result, 'const a = 1;\r\nconst c = 2;\r\nx\ny');
  });

  it('counts UTF-16 code units: an astral character is two', () => {
    const text = 'a😀b\n';
    assert.equal(applyTextEdits(text, [edit(0, 3, 0, 4, 'B')], '/w/a.ts'), 'a😀B\n');
    assert.equal(applyTextEdits(text, [edit(0, 1, 0, 3, '🙂')], '/w/a.ts'), 'a🙂b\n');
  });

  it('refuses a position inside a surrogate pair instead of corrupting the character', () => {
    assert.equal(code(() => applyTextEdits('a😀b', [insert(0, 2, 'x')], '/w/a.ts')), 'LSP_ACTION_MALFORMED_RESPONSE');
  });

  it('keeps the array order of several inserts at one position', () => {
    assert.equal(applyTextEdits('ab', [insert(0, 1, '1'), insert(0, 1, '2'), insert(0, 1, '3')], '/w/a.ts'), 'a123b');
  });

  it('allows inserts followed by one replace starting at the same position', () => {
    assert.equal(applyTextEdits('abcd', [insert(0, 1, '<'), edit(0, 1, 0, 3, 'X')], '/w/a.ts'), 'a<Xd');
  });

  it('allows touching ranges', () => {
    assert.equal(applyTextEdits('abcd', [edit(0, 2, 0, 4, 'Y'), edit(0, 0, 0, 2, 'X')], '/w/a.ts'), 'XY');
  });

  it('reports overlapping edits as a conflict naming the file and both ranges', () => {
    try {
      applyTextEdits('abcdef', [edit(0, 0, 0, 4, 'X'), edit(0, 2, 0, 5, 'Y')], '/w/a.ts');
      assert.fail('expected a conflict');
    } catch (error) {
      assert.ok(isActionError(error));
      assert.equal(error.code, 'LSP_ACTION_CONFLICT');
      assert.match(error.message, /\/w\/a\.ts/);
      assert.match(error.message, /0:0-0:4 and 0:2-0:5/);
      assert.deepEqual(error.details.paths, ['/w/a.ts']);
    }
  });

  it('treats a replace followed by an insert at its start as overlapping (the spec allows only inserts first)', () => {
    assert.equal(code(() => applyTextEdits('abcd', [edit(0, 1, 0, 3, 'X'), insert(0, 1, '<')], '/w/a.ts')), 'LSP_ACTION_CONFLICT');
  });

  it('detects an overlap with an earlier, longer edit', () => {
    const edits = [edit(0, 0, 2, 0, 'X'), edit(1, 0, 1, 1, 'Y'), edit(0, 1, 0, 2, 'Z')];
    assert.equal(code(() => applyTextEdits('ab\ncd\nef', edits, '/w/a.ts')), 'LSP_ACTION_CONFLICT');
  });

  it('reads a reversed range as its well-formed counterpart', () => {
    assert.equal(applyTextEdits('abcd', [edit(0, 3, 0, 1, 'X')], '/w/a.ts'), 'aXd');
  });

  it('refuses non-integer positions and a missing newText', () => {
    assert.equal(code(() => applyTextEdits('ab', [insert(0, Number.NaN, 'x')], '/w/a.ts')), 'LSP_ACTION_MALFORMED_RESPONSE');
    const broken = { range: edit(0, 0, 0, 0, '').range } as unknown as TextEdit;
    assert.equal(code(() => applyTextEdits('ab', [broken], '/w/a.ts')), 'LSP_ACTION_MALFORMED_RESPONSE');
  });

  it('formats ranges zero-based', () => {
    assert.equal(formatRange(edit(1, 2, 3, 4, '').range), '1:2-3:4');
  });
});
