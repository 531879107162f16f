import assert from 'node:assert/strict';
import { isAbsolute, relative, sep } from 'node:path';
import { unlink } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { resolveConfig } from '../../src/config.ts';
import { ServerRouter, extensionCandidates, workspaceRelative } from '../../src/lsp/server-routing.ts';
import { createHarnessServices, type HarnessServices } from '../support/harness-services.ts';
import { makeWorkspace, type Workspace } from './engine-fixture.ts';

const config = resolveConfig({
  servers: {
    tsls: { command: 'x', extensionToLanguage: { '.ts': 'typescript', '.TSX': 'typescriptreact', '.js': 'javascript' }, rootMarkers: ['tsconfig.json', 'package.json'] },
    dts: { command: 'x', extensionToLanguage: { 'd.ts': 'typescript-declarations' } },
    eslint: { command: 'x', extensionToLanguage: { '.ts': 'typescript', '.js': 'javascript' } },
    docker: { command: 'x', fileGlobs: { '**/Dockerfile': 'dockerfile', 'docker/*.conf': 'dockerfile' } },
    yaml: { command: 'x', extensionToLanguage: { '.yml': 'yaml' }, fileGlobs: { '.github/**/*.yml': 'github-actions' } },
  },
});
const router = new ServerRouter(config.servers);

/** What `workspaceRelative` answered before its fast case: `path.relative`, always. */
function reference(path: string, root: string): string | undefined {
  const rel = relative(root, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

describe('ServerRouter.route', () => {
  it('routes by extension in config order, case-insensitively', () => {
    assert.deepEqual(router.route('/w/src/a.ts', '/w').map((m) => [m.serverId, m.languageId]), [
      ['tsls', 'typescript'],
      ['eslint', 'typescript'],
    ]);
    assert.deepEqual(router.route('/w/A.TS', '/w').map((m) => m.serverId), ['tsls', 'eslint']);
    assert.deepEqual(router.route('/w/c.tsx', '/w').map((m) => [m.serverId, m.languageId]), [['tsls', 'typescriptreact']]);
  });

  it('matches the longest multi-dot suffix of each server', () => {
    assert.deepEqual(router.route('/w/types/index.d.ts', '/w').map((m) => [m.serverId, m.languageId]), [
      ['tsls', 'typescript'],
      ['dts', 'typescript-declarations'],
      ['eslint', 'typescript'],
    ]);
    assert.deepEqual(extensionCandidates('index.d.ts'), ['.d.ts', '.ts']);
    assert.deepEqual(extensionCandidates('.eslintrc.JSON'), ['.eslintrc.json', '.json']);
  });

  it('puts glob matches (workspace-relative, /-separated) before extension matches', () => {
    assert.deepEqual(router.route('/w/.github/workflows/ci.yml', '/w').map((m) => [m.serverId, m.languageId, m.via]), [['yaml', 'github-actions', 'glob']]);
    assert.deepEqual(router.route('/w/conf/x.yml', '/w').map((m) => [m.serverId, m.via]), [['yaml', 'extension']]);
    assert.deepEqual(router.route('/w/svc/Dockerfile', '/w').map((m) => m.serverId), ['docker']);
    assert.deepEqual(router.route('/w/Dockerfile', '/w').map((m) => m.serverId), ['docker']);
    assert.deepEqual(router.route('/w/docker/a.conf', '/w').map((m) => m.serverId), ['docker']);
    assert.deepEqual(router.route('/w/other/a.conf', '/w'), []);
  });

  it('ignores globs for files outside the workspace and knows what is outside', () => {
    assert.deepEqual(router.route('/elsewhere/Dockerfile', '/w'), []);
    assert.equal(workspaceRelative('/w/a/b.ts', '/w'), 'a/b.ts');
    assert.equal(workspaceRelative('/w', '/w'), undefined);
    assert.equal(workspaceRelative('/wx/a.ts', '/w'), undefined);
    assert.equal(workspaceRelative('/a.ts', '/w'), undefined);
  });

  it('answers as path.relative does for every shape of path and root (its fast case included)', () => {
    const roots = ['/w', '/w/', '/', '/w/x/..', '/w//v', '/w/./v', 'w', '/w/v'];
    const parts = ['', 'a', 'b.ts', '.', '..', '.hidden', '..x', 'x..', '', 'v'];
    let compared = 0;
    for (const root of roots) {
      for (const a of parts) {
        for (const b of parts) {
          for (const lead of ['/w/', '/w/v/', '/', '/wx/', '/w//', 'w/']) {
            const path = `${lead}${a}/${b}`;
            assert.equal(workspaceRelative(path, root), reference(path, root), `${path} under ${root}`);
            assert.equal(workspaceRelative(`${lead}${a}`, root), reference(`${lead}${a}`, root), `${lead}${a} under ${root}`);
            compared += 2;
          }
        }
      }
    }
    assert.ok(compared > 1000);
  });
});

describe('ServerRouter.findRoot (through the real harness fs)', () => {
  let ws: Workspace;
  let services: HarnessServices;
  before(async () => {
    ws = await makeWorkspace('lsp-routing-');
    services = await createHarnessServices();
    await ws.write('package.json', '{}');
    await ws.write('packages/app/tsconfig.json', '{}');
    await ws.write('packages/app/src/deep/x.ts', '');
    await ws.write('packages/lib/src/y.ts', '');
  });
  after(async () => {
    await services.dispose();
    await ws.remove();
  });

  it('picks the nearest ancestor holding a marker', async () => {
    assert.equal(await router.findRoot('tsls', ws.path('packages/app/src/deep/x.ts'), ws.root, services.fs), ws.path('packages/app'));
  });

  it('falls back to a marker higher up, bounded by the workspace root', async () => {
    assert.equal(await router.findRoot('tsls', ws.path('packages/lib/src/y.ts'), ws.root, services.fs), ws.root);
    // with the workspace set to packages/lib, the package.json above it is out of bounds
    assert.equal(await router.findRoot('tsls', ws.path('packages/lib/src/y.ts'), ws.path('packages/lib'), services.fs), ws.path('packages/lib'));
  });

  it('uses the workspace root for servers without markers', async () => {
    assert.equal(await router.findRoot('eslint', ws.path('packages/app/src/deep/x.ts'), ws.root, services.fs), ws.root);
  });
});

describe('ServerRouter.findRoot cache', () => {
  let ws: Workspace;
  let services: HarnessServices;
  before(async () => {
    ws = await makeWorkspace('lsp-routing-cache-');
    services = await createHarnessServices();
    await ws.write('package.json', '{}');
    await ws.write('packages/app/src/deep/x.ts', '');
    await ws.write('packages/app/src/z.ts', '');
    await ws.write('packages/lib/src/y.ts', '');
  });
  after(async () => {
    await services.dispose();
    await ws.remove();
  });

  /** The harness fs, counting `stat` calls. */
  const counting = () => {
    const fs = {
      stats: 0,
      resolve: services.fs.resolve.bind(services.fs),
      stat: (...args: Parameters<HarnessServices['fs']['stat']>) => {
        fs.stats++;
        return services.fs.stat(...args);
      },
    };
    return fs;
  };

  it('answers a directory again (and every directory walked) without touching the fs', async () => {
    const r = new ServerRouter(config.servers);
    const fs = counting();
    assert.equal(await r.findRoot('tsls', ws.path('packages/app/src/deep/x.ts'), ws.root, fs), ws.root);
    const first = fs.stats;
    assert.ok(first > 0);
    assert.equal(await r.findRoot('tsls', ws.path('packages/app/src/deep/x.ts'), ws.root, fs), ws.root);
    // packages/app/src was walked on the way up: same answer, no lookups
    assert.equal(await r.findRoot('tsls', ws.path('packages/app/src/z.ts'), ws.root, fs), ws.root);
    assert.equal(fs.stats, first);
    // keyed by workspace root too: another bound is looked up afresh
    assert.equal(await r.findRoot('tsls', ws.path('packages/app/src/z.ts'), ws.path('packages/app'), fs), ws.path('packages/app'));
    assert.ok(fs.stats > first);
  });

  it('honours a marker created or deleted once filesChanged reports it (invalidateRoots)', async () => {
    const r = new ServerRouter(config.servers);
    const fs = counting();
    const x = ws.path('packages/app/src/deep/x.ts');
    const y = ws.path('packages/lib/src/y.ts');
    assert.equal(await r.findRoot('tsls', x, ws.root, fs), ws.root);
    assert.equal(await r.findRoot('tsls', y, ws.root, fs), ws.root);
    await ws.write('packages/app/tsconfig.json', '{}');
    // not reported yet: the cached answer stands
    assert.equal(await r.findRoot('tsls', x, ws.root, fs), ws.root);
    // a non-marker file and a marker of another server change nothing
    assert.equal(r.invalidateRoots([ws.path('packages/app/src/deep/x.ts'), ws.path('packages/app/Dockerfile')]), 0);
    const cachedBefore = r.cachedRootCount();
    const dropped = r.invalidateRoots([ws.path('packages/app/tsconfig.json')]);
    assert.ok(dropped > 0);
    // only directories at or below packages/app are dropped; packages/lib stays cached
    assert.equal(r.cachedRootCount(), cachedBefore - dropped);
    const stats = fs.stats;
    assert.equal(await r.findRoot('tsls', y, ws.root, fs), ws.root);
    assert.equal(fs.stats, stats);
    assert.equal(await r.findRoot('tsls', x, ws.root, fs), ws.path('packages/app'));
    await unlink(ws.path('packages/app/tsconfig.json'));
    assert.equal(await r.findRoot('tsls', x, ws.root, fs), ws.path('packages/app'));
    r.invalidateRoots([ws.path('packages/app/tsconfig.json')]);
    assert.equal(await r.findRoot('tsls', x, ws.root, fs), ws.root);
    r.clearRoots();
    assert.equal(r.cachedRootCount(), 0);
  });

  it('does not cache a lookup that overlapped an invalidation', async () => {
    const r = new ServerRouter(config.servers);
    const x = ws.path('packages/app/src/deep/x.ts');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = {
      resolve: services.fs.resolve.bind(services.fs),
      stat: async (...args: Parameters<HarnessServices['fs']['stat']>) => {
        await gate;
        return services.fs.stat(...args);
      },
    };
    const pending = r.findRoot('tsls', x, ws.root, slow);
    await ws.write('packages/app/tsconfig.json', '{}');
    r.invalidateRoots([ws.path('packages/app/tsconfig.json')]);
    release();
    await pending;
    assert.equal(r.cachedRootCount(), 0);
    assert.equal(await r.findRoot('tsls', x, ws.root, services.fs), ws.path('packages/app'));
    await unlink(ws.path('packages/app/tsconfig.json'));
  });
});
