/**
 * Confinement through a real `serve` (real typescript-language-server), in every sandbox
 * mode: for every action of the catalog, requests whose root or file leaves the served
 * workspace — a root outside, `/` as root, a symbolic link to a file outside, a path through a
 * linked directory, a root reached through a link — are refused with
 * `LSP_ACTION_OUTSIDE_WORKSPACE` (`error.code` stays the v1 `LSP_ACTION_INVALID_ARGS`), and the
 * canary outside is neither read (its access time, set older than its modification time, does
 * not move under `relatime`) nor written (bytes and mtime unchanged). A control request inside
 * the workspace is served, so the refusals are not a server that answers nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, realpath, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ServeProcess } from '../cli/serve-process.ts';

const SECRET = 'CANARY_SECRET_7f3a';
const CANARY_TEXT = `export const secret: number = "${SECRET}";\n`;
let base: string;
let ws: string;
let outside: string;
let canary: string;
let control: string;

before(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'confinement-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(ws, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(ws, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true},"include":["src"]}');
  await writeFile(join(ws, 'src', 'a.ts'), 'export const a: number = "x";\n');
  await writeFile(join(outside, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true}}');
  canary = join(outside, 'canary.ts');
  await writeFile(canary, CANARY_TEXT);
  // the links live outside the project's `include`: a server loads its own project as its
  // configuration says (a link inside `include` is the user's choice), which is not a request
  await mkdir(join(ws, 'links'));
  await symlink(canary, join(ws, 'links', 'link.ts'));
  await symlink(outside, join(ws, 'linkdir'));
  // a control file whose access time the test itself moves, to prove the detector works here
  control = join(outside, 'control.txt');
  await writeFile(control, 'control\n');
  await ageAccessTime(canary);
  await ageAccessTime(control);
});
after(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Sets the access time well before the modification time, so `relatime` records the next read. */
async function ageAccessTime(path: string): Promise<void> {
  const info = await stat(path);
  await utimes(path, new Date(2001, 0, 1), info.mtime);
}

/** Every escape, for one action. */
function escapes(): Array<{ name: string; params: Record<string, unknown> }> {
  return [
    { name: 'root outside', params: { workspaceRoot: outside, filePath: 'canary.ts' } },
    { name: 'root "/"', params: { workspaceRoot: '/', filePath: canary } },
    { name: 'absolute file outside the root', params: { workspaceRoot: ws, filePath: canary } },
    { name: 'relative ../ file', params: { workspaceRoot: ws, filePath: '../outside/canary.ts' } },
    { name: 'symlinked file', params: { workspaceRoot: ws, filePath: 'links/link.ts' } },
    { name: 'file through a linked directory', params: { workspaceRoot: ws, filePath: 'linkdir/canary.ts' } },
    { name: 'root through a linked directory', params: { workspaceRoot: join(ws, 'linkdir'), filePath: 'canary.ts' } },
  ];
}

/** Params every action accepts, so each request reaches the confinement check. */
function paramsFor(action: string, base_: Record<string, unknown>): Record<string, unknown> {
  const position = { line: 0, character: 14 };
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 10 } };
  switch (action) {
    case 'diagnostics.get':
      return { ...base_, includeSource: true };
    case 'diagnostics.workspace': {
      const { filePath, ...rest } = base_;
      return { ...rest, filePaths: [filePath] };
    }
    case 'rename':
    case 'rename.edits':
      return { ...base_, position, newName: 'renamed' };
    case 'codeActions.list':
    case 'quickfix.apply':
    case 'inlayHints.get':
      return { ...base_, range };
    case 'codeAction.apply':
      return { ...base_, range, index: 0 };
    case 'symbols.get':
    case 'format':
    case 'format.edits':
    case 'organizeImports':
      return base_;
    default:
      return { ...base_, position };
  }
}

for (const mode of ['read-only', 'workspace-write', 'danger-full-access'] as const) {
  describe(`confinement under --sandbox ${mode}`, { timeout: 300_000 }, () => {
    let serve: ServeProcess;
    before(() => {
      serve = new ServeProcess(['--workspace', ws, '--sandbox', mode]);
    });
    after(async () => {
      serve.child.stdin.end();
      await serve.exited;
    });

    it('refuses every escape of every action with LSP_ACTION_OUTSIDE_WORKSPACE; the canary is neither read nor written', async () => {
      serve.send({ jsonrpc: '2.0', id: 'list', method: 'lsp.actions.list', params: {} });
      const actions = ((await serve.response('list'))['result'].actions as Array<{ action: string }>).map((a) => a.action);
      assert.ok(actions.length >= 10, `catalog: ${actions.join(', ')}`);
      const canaryBefore = await stat(canary);
      let n = 0;
      const refusals: string[] = [];
      for (const action of actions) {
        for (const escape of escapes()) {
          const id = `${mode}-${n++}`;
          const envelope = await serve.run(id, action, paramsFor(action, escape.params));
          const where = `${action} / ${escape.name}: ${JSON.stringify(envelope)}`;
          assert.equal(envelope['status'], 'failed', where);
          assert.equal(envelope['error'].code, 'LSP_ACTION_INVALID_ARGS', where);
          assert.equal(envelope['error'].reason, 'LSP_ACTION_OUTSIDE_WORKSPACE', where);
          assert.ok(!JSON.stringify(envelope).includes(SECRET), where);
          refusals.push(id);
        }
      }
      assert.equal(refusals.length, actions.length * escapes().length);
      assert.ok(!serve.stdout.includes(SECRET), 'no frame carries the canary');

      // the control request inside the workspace is served by the real server
      const inside = await serve.run(`${mode}-inside`, 'diagnostics.get', { workspaceRoot: ws, filePath: 'src/a.ts' });
      assert.equal(inside['status'], 'succeeded', JSON.stringify(inside));
      assert.equal(inside['result'].state, 'fresh');
      assert.equal(inside['result'].diagnostics.length, 1);

      const canaryAfter = await stat(canary);
      assert.equal(await readFile(canary, 'utf8'), CANARY_TEXT, '0 writes');
      assert.equal(canaryAfter.mtimeMs, canaryBefore.mtimeMs, '0 writes');
      assert.equal(canaryAfter.atimeMs, canaryBefore.atimeMs, '0 reads (access time unchanged)');
      await readFile(control);
      const moved = (await stat(control)).atimeMs !== new Date(2001, 0, 1).getTime();
      assert.ok(moved, 'the access-time detector works on this file system (a read of the control file moved it)');
      await ageAccessTime(control);
    });
  });
}
