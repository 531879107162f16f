import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isActionError } from '../../src/errors.ts';
import { cursorSuffix, rangeSuffix, toWirePath, toWirePosition, toWireRange, zeroBased } from '../../src/tools/tool-args.ts';

const invalid = (fn: () => unknown, pattern: RegExp): void => {
  assert.throws(fn, (error: unknown) => isActionError(error) && error.code === 'LSP_ACTION_INVALID_ARGS' && pattern.test(error.message));
};

describe('tool args: one-based schema → zero-based wire', () => {
  it('converts a cursor', () => {
    assert.deepEqual(toWirePosition(1, 1), { line: 0, character: 0 });
    assert.deepEqual(toWirePosition(12, 7), { line: 11, character: 6 });
  });

  it('refuses zero, negative and fractional coordinates, naming the argument', () => {
    invalid(() => toWirePosition(0, 1), /^line must be .*one-based.*got 0/);
    invalid(() => toWirePosition(1, -3), /^character must/);
    invalid(() => zeroBased(1.5, 'start_line'), /^start_line must/);
    invalid(() => zeroBased(Number.NaN, 'line'), /^line must/);
  });

  it('has no range without start_line', () => {
    assert.equal(toWireRange({}), undefined);
    invalid(() => toWireRange({ end_line: 3 }), /needs start_line/);
    invalid(() => toWireRange({ start_character: 2 }), /needs start_line/);
  });

  it('makes whole lines end at the start of the next line', () => {
    assert.deepEqual(toWireRange({ start_line: 3 }), { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } });
    assert.deepEqual(toWireRange({ start_line: 3, end_line: 5 }), { start: { line: 2, character: 0 }, end: { line: 5, character: 0 } });
  });

  it('keeps exact columns (end exclusive)', () => {
    assert.deepEqual(toWireRange({ start_line: 2, start_character: 5, end_line: 2, end_character: 9 }), {
      start: { line: 1, character: 4 },
      end: { line: 1, character: 8 },
    });
    // An empty range at one spot is allowed.
    assert.deepEqual(toWireRange({ start_line: 2, start_character: 5, end_character: 5 }), {
      start: { line: 1, character: 4 },
      end: { line: 1, character: 4 },
    });
  });

  it('refuses inverted ranges', () => {
    invalid(() => toWireRange({ start_line: 5, end_line: 4 }), /ends before it starts/);
    invalid(() => toWireRange({ start_line: 5, start_character: 8, end_character: 3 }), /ends before it starts/);
    invalid(() => toWireRange({ start_line: 5, end_character: 0 }), /^end_character must/);
  });

  it('resolves relative paths against the workspace and keeps absolute ones', () => {
    assert.equal(toWirePath('/ws', 'src/a.ts'), '/ws/src/a.ts');
    assert.equal(toWirePath('/ws', './src/../b.ts'), '/ws/b.ts');
    assert.equal(toWirePath('/ws', '/elsewhere/c.ts'), '/elsewhere/c.ts');
    assert.equal(toWirePath('/ws', '  src/a.ts '), '/ws/src/a.ts');
    invalid(() => toWirePath('/ws', '   '), /file_path is empty/);
  });

  it('formats title suffixes for cards', () => {
    assert.equal(cursorSuffix({ line: 3, character: 9 }), ':3:9');
    assert.equal(cursorSuffix({ line: 3 }), ':3');
    assert.equal(cursorSuffix({}), '');
    assert.equal(rangeSuffix({ start_line: 3, end_line: 7 }), ':3-7');
    assert.equal(rangeSuffix({ start_line: 3, end_line: 3 }), ':3');
    assert.equal(rangeSuffix({}), '');
  });
});
