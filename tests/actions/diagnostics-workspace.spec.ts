/**
 * `diagnostics.workspace`: which files are looked at (explicit first, then open documents, up
 * to `workspaceMaxFiles`), which are listed (problems, not fresh, failed), ordering and caps.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosticsWorkspaceAction } from '../../src/actions/diagnostics-workspace.ts';
import { ActionError } from '../../src/errors.ts';
import type { EngineDiagnostic, FileDiagnostics } from '../../src/lsp/engine-types.ts';
import { ROOT, actionError, diag, invocation, makeServices, range } from './support/action-fixtures.ts';

const report = (path: string, diagnostics: EngineDiagnostic[], state: FileDiagnostics['state'] = 'fresh'): FileDiagnostics => ({ path, version: 2, state, diagnostics, servers: [] });

describe('diagnostics.workspace', () => {
  it('lists problem, pending and failed files worst-first and caps diagnostics across files', async () => {
    const services = makeServices({ config: { workspaceMaxFiles: 5 } });
    const reports: Record<string, FileDiagnostics> = {
      '/ws/clean.ts': report('/ws/clean.ts', []),
      '/ws/warn.ts': report('/ws/warn.ts', [diag('warning', range(0, 0)), diag('hint', range(1, 0))]),
      '/ws/err.ts': report('/ws/err.ts', [diag('error', range(0, 0)), diag('error', range(2, 0)), diag('warning', range(3, 0))]),
      '/ws/slow.ts': report('/ws/slow.ts', [], 'pending'),
    };
    services.engine.open = ['/ws/warn.ts', '/ws/err.ts', '/ws/slow.ts', '/ws/extra1.ts', '/ws/extra2.ts'];
    services.engine.diagnosticsFor = (t) => {
      const r = reports[t.path];
      if (!r) throw new ActionError('LSP_ACTION_UNAVAILABLE', `no server for ${t.path}`);
      return r;
    };
    const result = await diagnosticsWorkspaceAction.run({ workspaceRoot: ROOT, filePaths: ['clean.ts', 'nosrv.txt'], maxItems: 4 }, services, invocation());
    assert.equal(result.filesChecked, 5);
    assert.equal(result.filesSkipped, 2);
    assert.deepEqual(result.files.map((f) => f.filePath), ['nosrv.txt', 'err.ts', 'warn.ts', 'slow.ts']);
    assert.deepEqual(result.files[0]?.error, { code: 'LSP_ACTION_UNAVAILABLE', message: 'no server for /ws/nosrv.txt' });
    assert.deepEqual(result.counts, { error: 2, warning: 2, information: 0, hint: 1 });
    assert.equal(result.total, 5);
    assert.equal(result.truncated, true);
    assert.deepEqual(result.files.map((f) => [f.diagnostics.length, f.total, f.truncated]), [[0, 0, false], [3, 3, false], [1, 2, true], [0, 0, false]]);
    assert.equal(result.files[1]?.diagnostics[0]?.severity, 1);
    assert.equal(result.files[3]?.state, 'pending');
  });

  it('refuses explicit paths outside the root', async () => {
    await assert.rejects(
      diagnosticsWorkspaceAction.run({ workspaceRoot: ROOT, filePaths: ['../x.ts'] }, makeServices(), invocation()),
      actionError('LSP_ACTION_OUTSIDE_WORKSPACE', /params\.filePaths\[0\]/),
    );
  });

  it('a cancelled run is cancelled, not a per-file error', async () => {
    const services = makeServices();
    const controller = new AbortController();
    services.engine.open = ['/ws/a.ts'];
    services.engine.diagnosticsFor = () => {
      controller.abort();
      throw new ActionError('LSP_ACTION_CANCELLED', 'cancelled');
    };
    await assert.rejects(diagnosticsWorkspaceAction.run({ workspaceRoot: ROOT }, services, invocation(false, controller.signal)), actionError('LSP_ACTION_CANCELLED'));
  });
});
