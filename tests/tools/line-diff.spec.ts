import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changedLines, hunkDiffs } from '../../src/tools/line-diff.ts';

const lines = (n: number, f: (i: number) => string = (i) => `line ${i + 1}`): string =>
  Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n';

describe('line diff for cards', () => {
  it('is empty for equal texts', () => {
    assert.deepEqual(hunkDiffs('a.ts', 'x\n', 'x\n'), []);
    assert.deepEqual(changedLines('x\n', 'x\n'), []);
  });

  it('splits distant changes into hunks with three lines of context', () => {
    const before = lines(20);
    const after = before.replace('line 2\n', 'LINE 2\n').replace('line 18\n', 'LINE 18\n');
    assert.deepEqual(hunkDiffs('a.ts', before, after), [
      { path: 'a.ts', oldText: 'line 1\nline 2\nline 3\nline 4\nline 5', newText: 'line 1\nLINE 2\nline 3\nline 4\nline 5' },
      { path: 'a.ts', oldText: 'line 15\nline 16\nline 17\nline 18\nline 19\nline 20', newText: 'line 15\nline 16\nline 17\nLINE 18\nline 19\nline 20' },
    ]);
    assert.deepEqual(changedLines(before, after), [[2, 2], [18, 18]]);
  });

  it('joins changes closer than twice the context', () => {
    const before = lines(20);
    const after = before.replace('line 5\n', 'X\n').replace('line 10\n', 'Y\n');
    const hunks = hunkDiffs('a.ts', before, after);
    assert.equal(hunks.length, 1);
    assert.match(hunks[0]?.newText ?? '', /^line 2\nline 3\nline 4\nX\n.*\nY\nline 11\nline 12\nline 13$/s);
  });

  it('gives pure insertions a null old text and marks inserted lines', () => {
    assert.deepEqual(hunkDiffs('n.ts', '', 'a\nb\n'), [{ path: 'n.ts', oldText: null, newText: 'a\nb' }]);
    assert.deepEqual(changedLines('a\nb\n', 'a\nb\nc\nd\n'), [[3, 4]]);
  });

  it('marks the line that stands where deleted lines were', () => {
    assert.deepEqual(changedLines('a\nb\nc\n', 'a\nc\n'), [[2, 2]]);
    assert.deepEqual(changedLines('a\nb\n', ''), [[1, 1]]);
  });

  it('sees a line-ending change and shows the lines without \\r', () => {
    const hunks = hunkDiffs('w.ts', 'a\r\nb\r\n', 'a\nb\n');
    assert.equal(hunks.length, 1);
    assert.deepEqual(hunks[0], { path: 'w.ts', oldText: 'a\nb', newText: 'a\nb' });
    assert.deepEqual(changedLines('a\r\nb\r\n', 'a\nb\n'), [[1, 2]]);
  });

  it('shows a change of only the final newline', () => {
    assert.deepEqual(hunkDiffs('e.ts', 'a\nb', 'a\nb\n'), [{ path: 'e.ts', oldText: 'a\nb', newText: 'a\nb' }]);
  });

  it('falls back to one replaced block past the edit bound, still correct', () => {
    const before = lines(200, (i) => `old ${i}`);
    const after = lines(200, (i) => `new ${i}`);
    const hunks = hunkDiffs('big.ts', before, after, 10);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0]?.oldText, before.trimEnd());
    assert.equal(hunks[0]?.newText, after.trimEnd());
  });

  it('finds a minimal script: only the changed lines are marked', () => {
    const before = lines(500);
    const after = before.replace('line 100\n', 'line 100\ninserted\n').replace('line 400\n', '');
    // New numbering: the insertion shifts everything after line 100 down by one.
    assert.deepEqual(changedLines(before, after), [[101, 101], [401, 401]]);
    // Every hunk text appears verbatim in the texts it came from.
    for (const h of hunkDiffs('a.ts', before, after)) {
      assert.ok(`\n${before}`.includes(`\n${h.oldText}\n`));
      assert.ok(`\n${after}`.includes(`\n${h.newText}\n`));
    }
  });
});
