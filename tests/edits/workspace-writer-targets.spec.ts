/**
 * FsWorkspaceWriter against the REAL harness services (variant A mount): which targets and
 * resource operations it accepts, all decided before the first write.
 */
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import type { WriteRequest } from '../../src/edits/write-types.ts';
import { type ActionError, isActionError } from '../../src/errors.ts';
import { type Harness, mountHarness } from '../support/harness-mount.ts';
import { fileEdits, makeWorkspace, replace, type Workspace, workspaceEdit } from './workspace-fixture.ts';

let ws: Workspace;
let h: Harness;
let writer: FsWorkspaceWriter;
let policy: SandboxExecutionPolicy;

beforeEach(async () => {
  ws = makeWorkspace({ 'a.ts': 'const a = 1;\r\nexport { a };\r\n', 'b.ts': 'import { a } from "./a";\nconsole.log(a);\n' });
  h = await mountHarness({ mode: 'workspace-write', workspace: ws.root });
  writer = new FsWorkspaceWriter(h.ctx, h.ctx.fs);
  policy = h.ctx.sandboxPolicy.resolve();
});

afterEach(async () => {
  await h.dispose();
  ws.remove();
});

function request(edit: WriteRequest['edit'], extra: Partial<WriteRequest> = {}): WriteRequest {
  return { root: ws.root, edit, policy, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<ActionError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isActionError(error), `expected an ActionError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the write to fail');
}

const renameA = () =>
  workspaceEdit(
    fileEdits(ws.path('a.ts'), replace(0, 6, 0, 7, 'value'), replace(1, 9, 1, 10, 'value')),
    fileEdits(ws.path('b.ts'), replace(0, 9, 0, 10, 'value'), replace(1, 12, 1, 13, 'value')),
  );

describe('FsWorkspaceWriter targets and resource operations', () => {

  it('refuses a target outside the workspace before any write', async () => {
    const outside = makeWorkspace({ 'x.ts': 'outside\n' });
    try {
      const edit = workspaceEdit(fileEdits(ws.path('a.ts'), replace(0, 0, 0, 5, 'let')), fileEdits(outside.path('x.ts'), replace(0, 0, 0, 0, '!')));
      const error = await failure(writer.apply(request(edit)));
      assert.equal(error.code, 'LSP_ACTION_CONFLICT');
      assert.equal(error.details.reason, 'outside-workspace');
      assert.equal(ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
      assert.equal(outside.read('x.ts'), 'outside\n');
    } finally {
      outside.remove();
    }
  });

  it('refuses a symlink inside the workspace that points outside it, before any write', async () => {
    const outside = makeWorkspace({ 'secret.ts': 'secret\n' });
    try {
      symlinkSync(outside.path('secret.ts'), ws.path('link.ts'));
      const edit = workspaceEdit(fileEdits(ws.path('a.ts'), replace(0, 0, 0, 5, 'let')), fileEdits(ws.path('link.ts'), replace(0, 0, 0, 6, 'pwned')));
      const error = await failure(writer.apply(request(edit)));
      assert.equal(error.code, 'LSP_ACTION_CONFLICT');
      assert.equal(error.details.reason, 'outside-workspace');
      assert.equal(outside.read('secret.ts'), 'secret\n');
      assert.equal(ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    } finally {
      outside.remove();
    }
  });

  it('refuses to create a file through a dangling symlink', async () => {
    symlinkSync(ws.path('missing-target.ts'), ws.path('dangling.ts'));
    const edit = workspaceEdit({ kind: 'create', path: ws.path('dangling.ts') }, fileEdits(ws.path('dangling.ts'), replace(0, 0, 0, 0, 'x')));
    const error = await failure(writer.apply(request(edit)));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(ws.exists('missing-target.ts'), false);
  });

  it('creates a file (createIfAbsent) and fills it in the same plan', async () => {
    const edit = workspaceEdit(
      { kind: 'create', path: ws.path('src/new.ts') },
      fileEdits(ws.path('src/new.ts'), replace(0, 0, 0, 0, 'export const n = 1;\n')),
      fileEdits(ws.path('b.ts'), replace(0, 0, 0, 0, '// touched\n')),
    );
    const result = await writer.apply(request(edit));
    assert.equal(ws.read('src/new.ts'), 'export const n = 1;\n');
    assert.deepEqual(result.files.find((file) => file.path === ws.path('src/new.ts')), {
      path: ws.path('src/new.ts'),
      operation: 'create',
      before: null,
      after: 'export const n = 1;\n',
      editCount: 1,
    });
  });

  it('honours ignoreIfExists and overwrite, and refuses a plain create of an existing file', async () => {
    await writer.apply(request(workspaceEdit({ kind: 'create', path: ws.path('a.ts'), ignoreIfExists: true })));
    assert.equal(ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    const error = await failure(writer.apply(request(workspaceEdit({ kind: 'create', path: ws.path('a.ts') }))));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    await writer.apply(request(workspaceEdit({ kind: 'create', path: ws.path('a.ts'), overwrite: true, ignoreIfExists: true })));
    assert.equal(ws.read('a.ts'), '');
  });

  it('writes creations last, so a failing update never leaves a created file behind', async () => {
    h.ctx.on(
      'fs/write-intent',
      async (target, _actor, next) => {
        if (target.displayPath === ws.path('b.ts')) ws.write('b.ts', 'changed\n');
        return next();
      },
      true,
    );
    const edit = workspaceEdit({ kind: 'create', path: ws.path('c.ts') }, fileEdits(ws.path('c.ts'), replace(0, 0, 0, 0, 'c')), renameA().steps[1]!);
    const error = await failure(writer.apply(request(edit)));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(ws.exists('c.ts'), false);
  });

  it('refuses a rename before any write, naming the operation', async () => {
    const edit = workspaceEdit(...renameA().steps, { kind: 'rename', oldPath: ws.path('a.ts'), newPath: ws.path('z.ts') });
    const error = await failure(writer.apply(request(edit)));
    assert.equal(error.code, 'LSP_ACTION_UNSUPPORTED');
    assert.equal(error.details.operation, 'rename');
    assert.equal(ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    assert.equal(ws.exists('z.ts'), false);
  });

  it('reports an edit of a missing file', async () => {
    const error = await failure(writer.apply(request(workspaceEdit(fileEdits(ws.path('gone.ts'), replace(0, 0, 0, 0, 'x'))))));
    assert.equal(error.code, 'LSP_ACTION_FILE_NOT_FOUND');
  });
});
