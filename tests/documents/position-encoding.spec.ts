import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TextLines,
  columnFromUtf16,
  columnToUtf16,
  negotiatedEncoding,
  positionFromUtf16,
  positionToUtf16,
} from '../../src/documents/position-encoding.ts';

describe('position encoding', () => {
  // "a😀é𝄞b": a(1 unit, 1 byte) 😀(2 units, 4 bytes) é(1 unit, 2 bytes) 𝄞(2 units, 4 bytes) b
  const line = 'a😀é𝄞b';

  it('converts UTF-16 columns to utf-8 and utf-32 and back, per code point', () => {
    const cases: Array<[number, number, number]> = [
      // utf16, utf8, utf32
      [0, 0, 0],
      [1, 1, 1],
      [3, 5, 2],
      [4, 7, 3],
      [6, 11, 4],
      [7, 12, 5],
    ];
    for (const [u16, u8, u32] of cases) {
      assert.equal(columnFromUtf16(line, u16, 'utf-8'), u8, `utf16 ${u16} → utf8`);
      assert.equal(columnFromUtf16(line, u16, 'utf-32'), u32, `utf16 ${u16} → utf32`);
      assert.equal(columnToUtf16(line, u8, 'utf-8'), u16, `utf8 ${u8} → utf16`);
      assert.equal(columnToUtf16(line, u32, 'utf-32'), u16, `utf32 ${u32} → utf16`);
      assert.equal(columnFromUtf16(line, u16, 'utf-16'), u16);
    }
  });

  it('never splits a surrogate pair or a multi-byte character: rounds down to its start', () => {
    assert.equal(columnFromUtf16(line, 2, 'utf-8'), 1, 'inside 😀 (UTF-16)');
    assert.equal(columnToUtf16(line, 3, 'utf-8'), 1, 'inside 😀 (UTF-8 byte 3 of 4)');
    assert.equal(columnToUtf16(line, 6, 'utf-8'), 3, 'inside é');
  });

  it('clamps columns past the line end to the line length', () => {
    assert.equal(columnFromUtf16(line, 99, 'utf-8'), 12);
    assert.equal(columnToUtf16(line, 99, 'utf-8'), line.length);
    assert.equal(columnToUtf16(line, 99, 'utf-16'), line.length);
  });

  it('splits lines on \\n, \\r\\n and \\r and never counts the line break as a column', () => {
    const lines = new TextLines('x😀\r\nsecond é\rthird\n');
    assert.equal(lines.lineCount, 4);
    assert.equal(lines.lineText(0), 'x😀');
    assert.equal(lines.lineText(1), 'second é');
    assert.equal(lines.lineText(2), 'third');
    assert.equal(lines.lineText(3), '');
    assert.equal(lines.lineText(9), '');
    assert.deepEqual(positionFromUtf16(lines, { line: 0, character: 3 }, 'utf-8'), { line: 0, character: 5 });
    // a column beyond the CRLF line's end must not land on \r
    assert.deepEqual(positionFromUtf16(lines, { line: 0, character: 40 }, 'utf-8'), { line: 0, character: 5 });
    assert.deepEqual(positionToUtf16(lines, { line: 1, character: 9 }, 'utf-8'), { line: 1, character: 8 });
  });

  it('round-trips every code-point boundary of a mixed line in every encoding', () => {
    const text = 'id😀 = "é𝄞" + `x` // ✓ 中文';
    const lines = new TextLines(text);
    for (let u16 = 0; u16 <= text.length; u16++) {
      const code = text.charCodeAt(u16 - 1);
      if (code >= 0xd800 && code <= 0xdbff) continue; // inside a pair
      for (const enc of ['utf-8', 'utf-16', 'utf-32'] as const) {
        const server = positionFromUtf16(lines, { line: 0, character: u16 }, enc);
        assert.deepEqual(positionToUtf16(lines, server, enc), { line: 0, character: u16 }, `${enc} at ${u16}`);
      }
    }
  });

  it('negotiates utf-16 unless the server picked utf-8 or utf-32', () => {
    assert.equal(negotiatedEncoding('utf-8'), 'utf-8');
    assert.equal(negotiatedEncoding('utf-32'), 'utf-32');
    assert.equal(negotiatedEncoding(undefined), 'utf-16');
    assert.equal(negotiatedEncoding('latin1'), 'utf-16');
  });
});
