/**
 * The one containment rule (src/workspace-containment.ts) over the REAL harness fs seam:
 * symbolic links are followed for files and roots; a missing file resolves through its nearest
 * existing ancestor; several served folders; over-long paths get a clear code.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isActionError } from '../src/errors.ts';
import { confinePath, confineRoot } from '../src/workspace-containment.ts';
import { createHarnessServices, type HarnessServices } from './support/harness-services.ts';

let base: string;
let services: HarnessServices;
const code = (expected: string) => (error: unknown) => isActionError(error) && error.code === expected;

before(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'containment-')));
  for (const dir of ['one/src', 'two', 'outside']) await mkdir(join(base, dir), { recursive: true });
  await writeFile(join(base, 'one/src/a.ts'), 'a');
  await writeFile(join(base, 'outside/secret.ts'), 's');
  await symlink(join(base, 'outside/secret.ts'), join(base, 'one/src/link.ts'));
  await symlink(join(base, 'outside'), join(base, 'one/linkdir'));
  await symlink(join(base, 'one'), join(base, 'one-alias'));
  services = await createHarnessServices(base);
});
after(async () => {
  await services.dispose();
  await rm(base, { recursive: true, force: true });
});

describe('confineRoot', () => {
  it('accepts roots inside any served folder, by their real location', async () => {
    const folders = [join(base, 'one'), join(base, 'two')];
    await confineRoot(services.fs, folders, join(base, 'one'));
    await confineRoot(services.fs, folders, join(base, 'one/src'));
    await confineRoot(services.fs, folders, join(base, 'two'));
    await confineRoot(services.fs, [join(base, 'one-alias')], join(base, 'one/src'));
    await confineRoot(services.fs, folders, join(base, 'one-alias/src'));
  });

  it('refuses roots outside every folder, "/" and roots reached through a link out', async () => {
    const folders = [join(base, 'one'), join(base, 'two')];
    for (const root of ['/', base, join(base, 'outside'), join(base, 'one/linkdir'), join(base, 'one/../outside')]) {
      await assert.rejects(confineRoot(services.fs, folders, root), code('LSP_ACTION_OUTSIDE_WORKSPACE'), root);
    }
  });
});

const oneRoot = (): string => join(base, 'one');

describe('confinePath', () => {

  it('accepts files inside the root, existing or not yet', async () => {
    assert.equal(await confinePath(services.fs, oneRoot(), 'src/a.ts', { field: 'f' }), join(base, 'one/src/a.ts'));
    assert.equal(await confinePath(services.fs, oneRoot(), join(base, 'one/src/new/deeper.ts'), { field: 'f' }), join(base, 'one/src/new/deeper.ts'));
  });

  it('refuses ../ paths, absolute paths outside, a linked file and paths through a linked directory (also not-yet-existing ones)', async () => {
    for (const filePath of ['../outside/secret.ts', join(base, 'outside/secret.ts'), 'src/link.ts', 'linkdir/secret.ts', 'linkdir/new.ts']) {
      await assert.rejects(confinePath(services.fs, oneRoot(), filePath, { field: 'params.filePath' }), (error: unknown) => {
        assert.ok(code('LSP_ACTION_OUTSIDE_WORKSPACE')(error), `${filePath}: ${String(error)}`);
        assert.match((error as Error).message, /params\.filePath/);
        return true;
      });
    }
  });

  it('a path too long for the file system is INVALID_ARGS with a clear message, not an uncoded ENAMETOOLONG', async () => {
    const long = `src/${'x'.repeat(5000)}.ts`;
    await assert.rejects(confinePath(services.fs, oneRoot(), long, { field: 'params.filePath' }), (error: unknown) => {
      assert.ok(code('LSP_ACTION_INVALID_ARGS')(error), String(error));
      assert.match((error as Error).message, /params\.filePath is \d+ bytes long; paths longer than 4096 bytes are refused/);
      return true;
    });
    const longName = `src/${'y'.repeat(300)}.ts`;
    await assert.rejects(confinePath(services.fs, oneRoot(), longName, { field: 'params.filePath' }), (error: unknown) => {
      assert.ok(code('LSP_ACTION_INVALID_ARGS')(error), String(error));
      assert.match((error as Error).message, /name too long/);
      return true;
    });
  });
});
