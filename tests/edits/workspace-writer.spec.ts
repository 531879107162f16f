/**
 * FsWorkspaceWriter against the REAL harness services (variant A mount): dsh-fs-sandbox,
 * dsh-sandbox-policy, dsh-fs-observation-policy, dsh-tools, … Writes are agentless here (editor
 * writes); agent observations are covered in write-observations.spec.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FsWriteIntent } from '@deepseek-ai/dsh-fs';
import { fileEdits, replace, workspaceEdit } from './workspace-fixture.ts';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { mountHarness } from '../support/harness-mount.ts';
import { failure, useWriterBed } from './writer-bed.ts';

const bed = useWriterBed();

describe('FsWorkspaceWriter with the real harness services', () => {
  it('applies a multi-file edit under workspace-write, CRLF kept byte for byte', async () => {
    const result = await bed.writer.apply(bed.request(bed.renameA()));
    assert.equal(bed.ws.read('a.ts'), 'const value = 1;\r\nexport { value };\r\n');
    assert.equal(bed.ws.read('b.ts'), 'import { value } from "./a";\nconsole.log(value);\n');
    assert.deepEqual(
      result.files.map((file) => [file.path, file.operation, file.editCount]),
      [
        [bed.ws.path('a.ts'), 'update', 2],
        [bed.ws.path('b.ts'), 'update', 2],
      ],
    );
    assert.equal(result.files[0]?.before, 'const a = 1;\r\nexport { a };\r\n');
    assert.equal(result.files[0]?.after, 'const value = 1;\r\nexport { value };\r\n');
  });

  it('composes several steps for one file in order and skips files the edit leaves unchanged', async () => {
    const edit = workspaceEdit(
      fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 5, 'let')),
      fileEdits(bed.ws.path('b.ts'), replace(0, 0, 0, 0, '')),
      fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 3, 'var')),
    );
    const result = await bed.writer.apply(bed.request(edit));
    assert.equal(bed.ws.read('a.ts'), 'var a = 1;\r\nexport { a };\r\n');
    assert.deepEqual(result.files.map((file) => [file.path, file.editCount]), [[bed.ws.path('a.ts'), 2]]);
  });

  it('keeps a UTF-8 byte order mark', async () => {
    bed.ws.write('bom.ts', '\uFEFFlet x = 1;\r\n');
    await bed.writer.apply(bed.request(workspaceEdit(fileEdits(bed.ws.path('bom.ts'), replace(0, 4, 0, 5, 'y')))));
    assert.equal(bed.ws.read('bom.ts'), '\uFEFFlet y = 1;\r\n');
  });

  it('refuses under a read-only policy with the sandbox marker, writing nothing', async () => {
    const readOnly = bed.h.ctx.sandboxPolicy.resolve({ mode: 'read-only' });
    const error = await failure(bed.writer.apply(bed.request(bed.renameA(), { policy: readOnly })));
    assert.equal(error.code, 'LSP_ACTION_READ_ONLY');
    assert.match(error.message, /\[sandbox: file access denied under read-only mode\]/);
    assert.equal(bed.ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
  });

  it("maps the fs fence's own denial (FS_SANDBOX_DENIED) to READ_ONLY with the marker", async () => {
    const ro = await mountHarness({ mode: 'read-only', workspace: bed.ws.root });
    try {
      const roWriter = new FsWorkspaceWriter(ro.ctx, ro.ctx.fs);
      const error = await failure(roWriter.apply({ root: bed.ws.root, edit: bed.renameA() }));
      assert.equal(error.code, 'LSP_ACTION_READ_ONLY');
      assert.match(error.message, /\[sandbox: file access denied under read-only mode\]/);
      assert.equal(error.details.fsCode, 'FS_SANDBOX_DENIED');
      assert.equal(bed.ws.read('b.ts'), 'import { a } from "./a";\nconsole.log(a);\n');
    } finally {
      await ro.dispose();
    }
  });

  it('reports a file changed between read and write as a conflict and keeps the other writer\'s content', async () => {
    bed.saveBeforeWrite('a.ts', 'someone else\n');
    const error = await failure(bed.writer.apply(bed.request(workspaceEdit(fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 5, 'let'))))));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.match(error.message, /Re-read the file and re-run the action/);
    assert.equal(bed.ws.read('a.ts'), 'someone else\n');
  });

  it('refuses a file whose text differs from the basis the server saw', async () => {
    const basis = new Map([[bed.ws.path('a.ts'), 'const a = 2;\r\nexport { a };\r\n']]);
    const error = await failure(bed.writer.apply(bed.request(bed.renameA(), { basis })));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(bed.ws.read('b.ts'), 'import { a } from "./a";\nconsole.log(a);\n');
  });

  it('leaves every file as it was when the second target changes mid-way (rollback)', async () => {
    bed.saveBeforeWrite('b.ts', 'changed by the user\n');
    const error = await failure(bed.writer.apply(bed.request(bed.renameA())));
    assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
    assert.equal(error.details.causeCode, 'LSP_ACTION_CONFLICT');
    assert.deepEqual(error.details.restored, [bed.ws.path('a.ts')]);
    assert.deepEqual(error.details.unrestored, []);
    assert.match(error.message, /Restored to their previous content: .*No file is left changed by this edit/);
    assert.equal(bed.ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    assert.equal(bed.ws.read('b.ts'), 'changed by the user\n');
  });

  it('does not clobber a file changed after our write; it is reported as not restored', async () => {
    const fs = bed.h.ctx.fs;
    let writes = 0;
    const racing = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          const outcome = await fs.writeText(...args);
          writes += 1;
          if (writes === 1) {
            bed.ws.write('a.ts', 'user edit after ours\n');
            bed.ws.write('b.ts', 'user edit of b\n');
          }
          return outcome;
        },
      },
    }) as typeof fs;
    const error = await failure(new FsWorkspaceWriter(bed.h.ctx, racing).apply(bed.request(bed.renameA())));
    assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
    assert.deepEqual(error.details.restored, []);
    assert.deepEqual(
      (error.details.unrestored as Array<{ path: string }>).map((file) => file.path),
      [bed.ws.path('a.ts')],
    );
    assert.match(error.message, /Could NOT be restored: .*changed by someone else after our write/);
    assert.equal(bed.ws.read('a.ts'), 'user edit after ours\n');
    assert.equal(bed.ws.read('b.ts'), 'user edit of b\n');
  });

  it('rolls back when the signal aborts between two writes', async () => {
    const controller = new AbortController();
    const fs = bed.h.ctx.fs;
    const aborting = Object.create(fs, {
      writeText: {
        value: async (...args: Parameters<typeof fs.writeText>) => {
          const outcome = await fs.writeText(...args);
          controller.abort();
          return outcome;
        },
      },
    }) as typeof fs;
    const error = await failure(new FsWorkspaceWriter(bed.h.ctx, aborting).apply(bed.request(bed.renameA(), { signal: controller.signal })));
    assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
    assert.equal(error.details.causeCode, 'LSP_ACTION_CANCELLED');
    assert.deepEqual(error.details.restored, [bed.ws.path('a.ts')]);
    assert.equal(bed.ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    assert.equal(bed.ws.read('b.ts'), 'import { a } from "./a";\nconsole.log(a);\n');
  });

  it('writes nothing when the signal aborts before the first write', async () => {
    const controller = new AbortController();
    bed.h.ctx.on(
      'fs/write-intent',
      async (_target, _actor, next) => {
        controller.abort();
        return next();
      },
      true,
    );
    const error = await failure(bed.writer.apply(bed.request(bed.renameA(), { signal: controller.signal })));
    assert.equal(error.code, 'LSP_ACTION_CANCELLED');
    assert.equal(bed.ws.read('a.ts'), 'const a = 1;\r\nexport { a };\r\n');
    const pre = new AbortController();
    pre.abort();
    assert.equal((await failure(bed.writer.apply(bed.request(bed.renameA(), { signal: pre.signal })))).code, 'LSP_ACTION_CANCELLED');
  });

  it('passes the explicit replaceIfVersion guard for agentless writes, not the policy\'s createIfAbsent', async () => {
    const seen: Array<FsWriteIntent | undefined> = [];
    const fs = bed.h.ctx.fs;
    const spy = Object.create(fs, {
      writeText: {
        value: (...args: Parameters<typeof fs.writeText>) => {
          seen.push(args[2]);
          return fs.writeText(...args);
        },
      },
    }) as typeof fs;
    await new FsWorkspaceWriter(bed.h.ctx, spy).apply(bed.request(bed.renameA()));
    assert.deepEqual(seen.map((intent) => intent?.kind), ['replaceIfVersion', 'replaceIfVersion']);
  });
});
