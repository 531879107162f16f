import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyContentChange, computeContentChange } from '../../src/documents/content-change.ts';
import { TextLines } from '../../src/documents/position-encoding.ts';

function check(oldText: string, newText: string): void {
  const change = computeContentChange(oldText, newText);
  if (oldText === newText) {
    assert.equal(change, undefined);
    return;
  }
  assert.ok(change);
  assert.equal(applyContentChange(oldText, change), newText, `${JSON.stringify(oldText)} → ${JSON.stringify(newText)}`);
  const lines = new TextLines(oldText);
  for (const pos of [change.range.start, change.range.end]) {
    const offset = lines.offsetAt(pos);
    const before = oldText.charCodeAt(offset - 1);
    const after = oldText.charCodeAt(offset);
    assert.ok(!(before === 13 && after === 10), 'range boundary splits a CRLF');
    assert.ok(!(before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff), 'range boundary splits a surrogate pair');
  }
}

describe('computeContentChange', () => {
  it('returns undefined for equal texts and the minimal single range otherwise', () => {
    assert.equal(computeContentChange('abc', 'abc'), undefined);
    assert.deepEqual(computeContentChange('let a = 1;\nlet b = 2;\n', 'let a = 1;\nlet b = 3;\n'), {
      range: { start: { line: 1, character: 8 }, end: { line: 1, character: 9 } },
      text: '3',
    });
    assert.deepEqual(computeContentChange('x\n', '\n\nx\n'), {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      text: '\n\n',
    });
  });

  it('keeps CRLF pairs and surrogate pairs whole at the range boundaries', () => {
    check('a\r\nb', 'a\rb');
    check('a\r\nb', 'a\r\r\nb');
    check('a\rb', 'a\r\nb');
    check('x😀y', 'x😁y'); // same high surrogate, different low one
    check('😀', '😀😀');
    check('ab\r\n', 'ab\n');
  });

  it('round-trips random edits on text with CRLF, lone CR, emoji and CJK', () => {
    const alphabet = ['a', 'b', '\n', '\r\n', '\r', '😀', '😁', 'é', '中', ' '];
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const randomText = (n: number): string => Array.from({ length: n }, () => alphabet[rand(alphabet.length)]).join('');
    for (let i = 0; i < 2000; i++) {
      const base = randomText(rand(12));
      const cut = rand(base.length + 1);
      const cutEnd = cut + rand(base.length - cut + 1);
      check(base, base.slice(0, cut) + randomText(rand(4)) + base.slice(cutEnd));
    }
  });
});
