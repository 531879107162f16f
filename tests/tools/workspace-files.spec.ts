import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Context } from '@deepseek-ai/cordis';
import { CallId } from '@deepseek-ai/dsh-llm';
import type { ActionRunner } from '../../src/actions/action-runner.ts';
import { resolveConfig } from '../../src/config.ts';
import type { WriteAuthorizer } from '../../src/permission/write-authorizer-types.ts';
import { registerLspTools } from '../../src/tools/register-lsp-tools.ts';
import { parseIgnoredNames } from '../../src/tools/gitignore-names.ts';
import { listWorkspaceFiles, workspaceFileLister } from '../../src/tools/workspace-files.ts';
import { mountHarness, type Harness } from '../support/harness-mount.ts';
import { fakeAgent, stubRunner, toolDeps } from './tool-fixtures.ts';

const TREE = ['z.ts', 'a.ts', 'README.md', 'src/c.ts', 'src/deep/d.ts', 'node_modules/x/e.ts', '.git/f.ts', '.hidden/g.ts', 'dist/h.ts', 'lib/i.ts', 'src/out/j.ts', 'out/k.ts'];
const SERVERS = resolveConfig({ embeddedTypeScript: false, servers: { ts: { command: 'node', extensionToLanguage: { '.ts': 'typescript' } } } }).servers;

let workspace: string;
let harness: Harness;
before(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'lsp-tools-walk-')));
  for (const file of TREE) {
    await mkdir(dirname(join(workspace, file)), { recursive: true });
    await writeFile(join(workspace, file), 'export {};\n');
  }
  // what the project says is build output: dist/ anywhere, out/ only at the root
  await writeFile(join(workspace, '.gitignore'), '# build\ndist/\n/out\n*.log\n!keep/\n');
  harness = await mountHarness({ mode: 'workspace-write', workspace });
});
after(async () => {
  await harness.dispose();
  await rm(workspace, { recursive: true, force: true });
});

describe('workspace files for a workspace check', () => {
  it('walks the harness fs breadth-first, keeping routed files, skipping dependency and hidden directories and what the root .gitignore names — not lib/ by name', async () => {
    const list = workspaceFileLister(harness.ctx.fs, SERVERS);
    const found = await list(workspace, 100, new AbortController().signal);
    assert.deepEqual(found, { files: ['a.ts', 'z.ts', 'lib/i.ts', 'src/c.ts', 'src/deep/d.ts', 'src/out/j.ts'].map((f) => join(workspace, f)), more: false });
  });

  it('reads only plain names from a .gitignore (wildcards, negations and inner slashes are left alone)', () => {
    const names = parseIgnoredNames('dist\n/build/\n# c\n*.js\n!lib\nsrc/gen\n  out/  \n');
    assert.deepEqual([...names.anywhere].sort(), ['dist', 'out']);
    assert.deepEqual([...names.atRoot], ['build']);
  });

  it('stops at the file limit and says there is more', async () => {
    const found = await listWorkspaceFiles(harness.ctx.fs, workspace, (p) => p.endsWith('.ts'), 2, new AbortController().signal);
    assert.deepEqual(found, { files: [join(workspace, 'a.ts'), join(workspace, 'z.ts')], more: true });
  });

  it('stops on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(listWorkspaceFiles(harness.ctx.fs, workspace, () => true, 10, controller.signal), { code: 'LSP_ACTION_CANCELLED' });
  });

  it('lsp_diagnostics without paths passes the walked files and a wait that fits the call budget', async () => {
    const runner = stubRunner(() => ({ kind: 'workspaceDiagnostics', files: [], filesChecked: 6, filesSkipped: 0, truncated: false, total: 0, counts: { error: 0, warning: 0, information: 0, hint: 0 } }));
    const deps = toolDeps(runner, { config: { embeddedTypeScript: false, servers: { ts: { command: 'node', extensionToLanguage: { '.ts': 'typescript' } } }, timeoutMs: 8_000 } });
    const fiber = harness.ctx.plugin({
      name: 'walk-test',
      inject: ['tools', 'fs'],
      apply: (c: Context) => registerLspTools(c, { runner: deps.runner as ActionRunner, authorizer: deps.authorizer as WriteAuthorizer, config: deps.config }),
    });
    await fiber;
    const result = await harness.ctx.tools.execute({ callId: CallId('w1'), name: 'lsp_diagnostics', arguments: {}, agent: fakeAgent(workspace), signal: new AbortController().signal });
    assert.equal(result.isError, false);
    assert.deepEqual(runner.requests[0]?.params, {
      maxItems: 50,
      // 6 files, 4 at a time: two rounds share half of the 8 s budget.
      waitMs: 2_000,
      filePaths: ['a.ts', 'z.ts', 'lib/i.ts', 'src/c.ts', 'src/deep/d.ts', 'src/out/j.ts'].map((f) => join(workspace, f)),
      workspaceRoot: workspace,
    });
    assert.equal(result.content.map((b) => ('text' in b ? b.text : '')).join(''), 'Workspace: 6 files checked, none with problems.');
    await fiber.dispose();
  });
});
