/**
 * The write path's metadata rules with an INJECTED probe (docs/decisions/0041-write-metadata.md):
 * a read-only or hard-linked file refuses the whole edit before anything (journal included) is
 * written; an unknown probe writes as before; an owner that cannot be put back is a warning, not
 * a failed edit. The real local probe is covered by write-metadata-local.spec.ts.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { FsTarget } from '@deepseek-ai/dsh-fs';
import type { OwnerOps } from '../../src/edits/keep-owner.ts';
import type { LocalFileMetadata, LocalFileMetadataProbe } from '../../src/edits/local-file-metadata.ts';
import { unknownFileMetadata } from '../../src/edits/local-file-metadata.ts';
import { FsWorkspaceWriter, type WriterOptions } from '../../src/edits/workspace-writer.ts';
import { fileEdits, replace, workspaceEdit } from './workspace-fixture.ts';
import { failure, useWriterBed } from './writer-bed.ts';

const bed = useWriterBed();

const ORIGINAL = { 'a.ts': 'const a = 1;\r\nexport { a };\r\n', 'b.ts': 'import { a } from "./a";\nconsole.log(a);\n', 'c.ts': 'let c = 3;\n' };

/** A writable file with one name, owned by 1000:1000. */
function plain(): LocalFileMetadata {
  return { mode: 0o100644, uid: 1000, gid: 1000, nlink: 1, ino: 1, dev: 1 };
}

/** A probe answering from a table by file name; names not listed are unknown. */
function fakeProbe(table: Record<string, LocalFileMetadata>): LocalFileMetadataProbe {
  return (target: FsTarget) => Promise.resolve(table[String(target.displayPath).split('/').at(-1) ?? '']);
}

function writer(options: WriterOptions): FsWorkspaceWriter {
  return new FsWorkspaceWriter(bed.h.ctx, bed.h.ctx.fs, options);
}

/** Changes the first character of a.ts, b.ts and c.ts. */
function threeFileEdit(): ReturnType<typeof workspaceEdit> {
  bed.ws.write('c.ts', ORIGINAL['c.ts']);
  return workspaceEdit(
    fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 5, 'let')),
    fileEdits(bed.ws.path('b.ts'), replace(1, 0, 1, 0, '// x\n')),
    fileEdits(bed.ws.path('c.ts'), replace(0, 0, 0, 3, 'var')),
  );
}

function assertNothingWritten(): void {
  for (const [name, text] of Object.entries(ORIGINAL)) assert.equal(bed.ws.read(name), text, `${name} was written`);
  assert.deepEqual(existsSync(bed.store.directory) ? readdirSync(bed.store.directory) : [], [], 'the journal was written');
}

describe('write metadata with an injected probe', () => {
  it('refuses a read-only file (one of three): LSP_ACTION_CONFLICT read-only-file, nothing written, no journal', async () => {
    const probe = fakeProbe({ 'a.ts': plain(), 'b.ts': { ...plain(), mode: 0o100444 }, 'c.ts': plain() });
    const error = await failure(writer({ metadata: probe }).apply(bed.request(threeFileEdit())));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(error.details['reason'], 'read-only-file');
    assert.deepEqual(error.details.paths, [bed.ws.path('b.ts')]);
    assert.match(error.message, /read-only .*0444/);
    assertNothingWritten();
  });

  it('names every read-only file, and a write bit for anyone (0464) is not read-only', async () => {
    const probe = fakeProbe({ 'a.ts': { ...plain(), mode: 0o100400 }, 'b.ts': { ...plain(), mode: 0o100464 }, 'c.ts': { ...plain(), mode: 0o100555 } });
    const error = await failure(writer({ metadata: probe }).apply(bed.request(threeFileEdit())));
    assert.equal(error.details['reason'], 'read-only-file');
    assert.deepEqual(error.details.paths, [bed.ws.path('a.ts'), bed.ws.path('c.ts')]);
    assertNothingWritten();
  });

  it('refuses a hard-linked file: LSP_ACTION_CONFLICT hard-link, nothing written', async () => {
    const probe = fakeProbe({ 'a.ts': plain(), 'b.ts': plain(), 'c.ts': { ...plain(), nlink: 2 } });
    const error = await failure(writer({ metadata: probe }).apply(bed.request(threeFileEdit())));
    assert.equal(error.code, 'LSP_ACTION_CONFLICT');
    assert.equal(error.details['reason'], 'hard-link');
    assert.deepEqual(error.details.paths, [bed.ws.path('c.ts')]);
    assertNothingWritten();
  });

  it('does not refuse a read-only file the edit leaves unchanged', async () => {
    const probe = fakeProbe({ 'a.ts': plain(), 'b.ts': { ...plain(), mode: 0o100444 } });
    const edit = workspaceEdit(fileEdits(bed.ws.path('a.ts'), replace(0, 0, 0, 5, 'let')), fileEdits(bed.ws.path('b.ts'), replace(0, 0, 0, 0, '')));
    const result = await writer({ metadata: probe }).apply(bed.request(edit));
    assert.deepEqual(result.files.map((file) => file.path), [bed.ws.path('a.ts')]);
  });

  it('writes as before when the metadata is unknown (even a file that is 0444 on disk)', async () => {
    chmodSync(bed.ws.path('a.ts'), 0o444);
    const result = await writer({ metadata: unknownFileMetadata }).apply(bed.request(bed.renameA()));
    assert.equal(result.files.length, 2);
    assert.equal(bed.ws.read('a.ts'), 'const value = 1;\r\nexport { value };\r\n');
    assert.equal(statSync(bed.ws.path('a.ts')).mode & 0o777, 0o444, 'the seam keeps the mode');
  });

  it('an owner that cannot be put back is a warning; the edit succeeds and reads back', async () => {
    // a.ts: owned by 1000 when planned, by 0 (the writer) once replaced; b.ts: 1000 throughout
    const probed = new Map<string, number>();
    const probe: LocalFileMetadataProbe = (target, size) => {
      const calls = (probed.get(target.displayPath) ?? 0) + 1;
      probed.set(target.displayPath, calls);
      const replaced = target.displayPath === bed.ws.path('a.ts') && calls > 1;
      return Promise.resolve(size === undefined ? undefined : { ...plain(), uid: replaced ? 0 : 1000 });
    };
    const chowns: Array<[string, number, number]> = [];
    const ops: OwnerOps = {
      probe,
      chown: (path, uid, gid) => {
        chowns.push([path, uid, gid]);
        return Promise.reject(Object.assign(new Error('EPERM: operation not permitted, chown'), { code: 'EPERM' }));
      },
      chmod: () => Promise.reject(new Error('chmod must not run')),
    };
    const warnings: string[] = [];
    const result = await writer({ metadata: probe, ownerOps: ops, onMetadataWarning: (warning) => warnings.push(warning) }).apply(bed.request(bed.renameA()));
    assert.equal(result.files.length, 2);
    assert.equal(bed.ws.read('a.ts'), 'const value = 1;\r\nexport { value };\r\n');
    assert.deepEqual(chowns, [[bed.ws.path('a.ts'), 1000, 1000]]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /a\.ts: the edit was written, but its owner could not be set back to 1000:1000 \(it is now 0:1000\): EPERM/);
  });
});
