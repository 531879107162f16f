/**
 * FsWorkspaceWriter against the REAL harness services (variant A mount): which targets and
 * resource operations it accepts, all decided before the first write.
 */
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileEdits, makeWorkspace, replace, workspaceEdit } from './workspace-fixture.ts';
import { failure, useWriterBed } from './writer-bed.ts';

const bed = useWriterBed();

describe('FsWorkspaceWriter targets and resource operations', () => {

  it('refuses a target outside the workspace before any write', async () => {
    const outside = makeWorkspace({ 'x.ts': 'outside\n' });
    try {
      const edit = workspaceEdit(fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 5, 'let')), fileEdits(outside.path('x.ts'), replace(0, 0, 0, 0, '!')));
      const error = await failure(bed.writer.apply(bed.request(edit)));
      assert.equal(error.code, 'LSP_ACTION_CONFLICT');
      assert.equal(error.details.reason, 'outside-workspace');
      assert.equal(bed.ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
      assert.equal(outside.read('x.ts'), 'outside\n');
    } finally {
      outside.remove();
    }
  });

  it('refuses a symlink inside the workspace that points outside it, before any write', async () => {
    const outside = makeWorkspace({ 'secret.ts': 'secret\n' });
    try {
      symlinkSync(outside.path('secret.ts'), bed.ws.path('link.ts'));
      const edit = workspaceEdit(fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 5, 'let')), fileEdits(bed.ws.path('link.ts'), replace(0, 0, 0, 6, 'pwned')));
      const error = await failure(bed.writer.apply(bed.request(edit)));
      assert.equal(error.code, 'LSP_ACTION_CONFLICT');
      assert.equal(error.details.reason, 'outside-workspace');
      assert.equal(outside.read('secret.ts'), 'secret\n');
      assert.equal(bed.ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    } finally {
      outside.remove();
    }
  });

  it('refuses to create a file through a dangling symlink', async () => {
    symlinkSync(bed.ws.path('missing-target.ts'), bed.ws.path('dangling.ts'));
    const edit = workspaceEdit({ kind: 'create', path: bed.ws.path('dangling.ts') }, fileEdits(bed.ws.path('dangling.ts'), replace(0, 0, 0, 0, 'x')));
    const error = await failure(bed.writer.apply(bed.request(edit)));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(bed.ws.exists('missing-target.ts'), false);
  });

  it('creates a file (createIfAbsent) and fills it in the same plan', async () => {
    const edit = workspaceEdit(
      { kind: 'create', path: bed.ws.path('src/new.ts') },
      fileEdits(bed.ws.path('src/new.ts'), replace(0, 0, 0, 0, 'export const n = 1;\n')),
      fileEdits(bed.ws.path('b.ts'), replace(0, 0, 0, 0, '// touched\n')),
    );
    const result = await bed.writer.apply(bed.request(edit));
    assert.equal(bed.ws.read('src/new.ts'), 'export const n = 1;\n');
    assert.deepEqual(result.files.find((file) => file.path === bed.ws.path('src/new.ts')), {
      path: bed.ws.path('src/new.ts'),
      operation: 'create',
      before: null,
      after: 'export const n = 1;\n',
      editCount: 1,
    });
  });

  it('honours ignoreIfExists and overwrite, and refuses a plain create of an existing file', async () => {
    await bed.writer.apply(bed.request(workspaceEdit({ kind: 'create', path: bed.ws.path('a.ts'), ignoreIfExists: true })));
    assert.equal(bed.ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    const error = await failure(bed.writer.apply(bed.request(workspaceEdit({ kind: 'create', path: bed.ws.path('a.ts') }))));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    await bed.writer.apply(bed.request(workspaceEdit({ kind: 'create', path: bed.ws.path('a.ts'), overwrite: true, ignoreIfExists: true })));
    assert.equal(bed.ws.read('a.ts'), '');
  });

  it('writes creations last, so a failing update never leaves a created file behind', async () => {
    bed.saveBeforeWrite('b.ts', 'changed\n');
    const edit = workspaceEdit({ kind: 'create', path: bed.ws.path('c.ts') }, fileEdits(bed.ws.path('c.ts'), replace(0, 0, 0, 0, 'c')), bed.renameA().steps[1]!);
    const error = await failure(bed.writer.apply(bed.request(edit)));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(bed.ws.exists('c.ts'), false);
  });

  it('refuses a rename before any write, naming the operation', async () => {
    const edit = workspaceEdit(...bed.renameA().steps, { kind: 'rename', oldPath: bed.ws.path('a.ts'), newPath: bed.ws.path('z.ts') });
    const error = await failure(bed.writer.apply(bed.request(edit)));
    assert.equal(error.code, 'LSP_ACTION_UNSUPPORTED');
    assert.equal(error.details.operation, 'rename');
    assert.equal(bed.ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    assert.equal(bed.ws.exists('z.ts'), false);
  });

  it('reports an edit of a missing file', async () => {
    const error = await failure(bed.writer.apply(bed.request(workspaceEdit(fileEdits(bed.ws.path('gone.ts'), replace(0, 0, 0, 0, 'x'))))));
    assert.equal(error.code, 'LSP_ACTION_FILE_NOT_FOUND');
  });
});
