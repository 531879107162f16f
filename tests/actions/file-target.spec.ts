/**
 * File targets: relative and absolute `filePath`s, the workspace boundary, wire paths.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isInsideRoot, resolveFileTarget, resolveInsideRoot, wirePath } from '../../src/actions/file-target.ts';
import { ROOT, actionError } from './support/action-fixtures.ts';

describe('resolveFileTarget', () => {
  it('resolves a relative path against the root and echoes it verbatim', () => {
    const file = resolveFileTarget(ROOT, 'src/./a.ts');
    assert.equal(file.path, '/ws/src/a.ts');
    assert.equal(file.filePath, 'src/./a.ts');
    assert.deepEqual(file.target, { root: ROOT, path: '/ws/src/a.ts' });
  });

  it('accepts an absolute path inside the root, and carries the overlay text', () => {
    const file = resolveFileTarget(ROOT, '/ws/b.ts', 'let x = 1;');
    assert.deepEqual(file.target, { root: ROOT, path: '/ws/b.ts', text: 'let x = 1;' });
    assert.equal(file.filePath, '/ws/b.ts');
  });

  it('refuses paths outside the root with OUTSIDE_WORKSPACE', () => {
    for (const filePath of ['../etc/passwd', '/etc/passwd', 'a/../../x.ts', '/wsx/a.ts', '.']) {
      assert.throws(() => resolveFileTarget(ROOT, filePath), actionError('LSP_ACTION_OUTSIDE_WORKSPACE', /params\.filePath/), filePath);
    }
    assert.throws(() => resolveInsideRoot(ROOT, '../x', 'params.filePaths[2]'), actionError('LSP_ACTION_OUTSIDE_WORKSPACE', /params\.filePaths\[2\]/));
  });
});

describe('wirePath', () => {
  it('is workspace-relative with / inside the root, absolute outside', () => {
    assert.equal(wirePath(ROOT, '/ws/src/a.ts'), 'src/a.ts');
    assert.equal(wirePath(ROOT, '/usr/lib/node/x.d.ts'), '/usr/lib/node/x.d.ts');
    assert.equal(wirePath(ROOT, '/ws'), '.');
    assert.equal(isInsideRoot(ROOT, '/ws/..x'), true);
    assert.equal(isInsideRoot(ROOT, '/ws/../x'), false);
  });
});
