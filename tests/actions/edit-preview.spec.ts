/**
 * Line diffs (`linesChanged`, unified-diff previews) and edit previews.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyTextEdits, buildEditPreview, textInRange } from '../../src/actions/edit-preview.ts';
import { countChangedLines, diffLines, unifiedDiff } from '../../src/actions/line-diff.ts';
import { ROOT, actionError, edit, range } from './support/action-fixtures.ts';

describe('countChangedLines', () => {
  it('counts lines that differ', () => {
    assert.equal(countChangedLines('a\nb\nc', 'a\nb\nc'), 0);
    assert.equal(countChangedLines('a\nb\nc', 'a\nB\nc'), 1);
    assert.equal(countChangedLines('a\nb\nc\nd', 'A\nb\nc\nD'), 2, 'two separate changes, not the span');
    assert.equal(countChangedLines('a\nc', 'a\nb\nc'), 1, 'an inserted line');
    assert.equal(countChangedLines('a\nb\nc', 'a'), 2, 'two deleted lines');
    assert.equal(countChangedLines('x\r\ny\r\n', 'x\ny\n'), 2, 'line endings count');
  });
  it('falls back to a block replace for huge middles', () => {
    const before = Array.from({ length: 1200 }, (_, i) => `l${i}`).join('\n');
    const after = Array.from({ length: 1200 }, (_, i) => (i % 2 ? `L${i}` : `l${i}`)).join('\n');
    assert.equal(countChangedLines(before, after), 1199);
    assert.ok(diffLines(before, after).length > 0);
  });
});

describe('unifiedDiff', () => {
  it('renders hunks with one-based headers and context', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj';
    const after = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nJ';
    assert.equal(unifiedDiff(before, after, 1), ['@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c', '@@ -9,2 +9,2 @@', ' i', '-j', '+J'].join('\n'));
    assert.equal(unifiedDiff('x', 'x'), '');
    assert.equal(unifiedDiff('a\nb', 'a\nc\nb', 0), ['@@ -2,0 +2,1 @@', '+c'].join('\n'));
  });
});

describe('applyTextEdits / textInRange', () => {
  it('applies UTF-16 edits in any order and refuses overlaps', () => {
    assert.equal(applyTextEdits('hello world', [edit(range(0, 6, 0, 11), 'there'), edit(range(0, 0, 0, 5), 'HELLO')]), 'HELLO there');
    assert.equal(applyTextEdits('a😀b', [edit(range(0, 3, 0, 4), 'c')]), 'a😀c');
    assert.throws(() => applyTextEdits('abcdef', [edit(range(0, 0, 0, 3), 'x'), edit(range(0, 2, 0, 4), 'y')]), actionError('LSP_ACTION_CONFLICT', /overlap/));
    assert.equal(textInRange('ab\ncdef', range(1, 1, 1, 3)), 'de');
  });
});

describe('buildEditPreview', () => {
  it('lists files (relative), edits, diffs for known texts, and resource operations', () => {
    const known = new Map([['/ws/a.ts', 'import b from "b";\nimport a from "a";\n']]);
    const preview = buildEditPreview(
      ROOT,
      {
        steps: [
          { kind: 'edit', path: '/ws/a.ts', edits: [edit(range(0, 0, 2, 0), 'import a from "a";\nimport b from "b";\n')] },
          { kind: 'edit', path: '/ws/unknown.ts', edits: [edit(range(0, 0), 'x'), edit(range(1, 0), 'y')] },
          { kind: 'create', path: '/ws/new.ts' },
          { kind: 'rename', oldPath: '/ws/old.ts', newPath: '/elsewhere/new.ts' },
        ],
      },
      (path) => known.get(path),
    );
    assert.equal(preview.editCount, 3);
    assert.deepEqual(preview.files.map((f) => f.filePath), ['a.ts', 'unknown.ts']);
    assert.equal(preview.files[0]?.diff, ['@@ -1,3 +1,3 @@', '-import b from "b";', ' import a from "a";', '+import b from "b";', ' '].join('\n'));
    assert.equal(preview.files[1]?.diff, undefined);
    assert.deepEqual(preview.resourceOperations, [
      { kind: 'create', filePath: 'new.ts' },
      { kind: 'rename', oldFilePath: 'old.ts', newFilePath: '/elsewhere/new.ts' },
    ]);
  });
});
