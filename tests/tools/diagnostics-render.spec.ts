import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffDiagnostics } from '../../src/tools/diagnostics-memory.ts';
import {
  fileHeader,
  formatDiagnostic,
  renderDiagnostics,
  severityCounts,
  type DiagnosticsFileEntry,
  type DiagnosticsToolValue,
} from '../../src/tools/diagnostics-render.ts';
import { diag, WS, wellFormed } from './tool-fixtures.ts';

const file = (extra: Partial<DiagnosticsFileEntry> = {}): DiagnosticsFileEntry => ({
  filePath: `${WS}/src/a.ts`,
  state: 'fresh',
  version: 1,
  diagnostics: [],
  truncated: false,
  total: 0,
  servers: [],
  ...extra,
});

const value = (files: DiagnosticsFileEntry[], extra: Partial<DiagnosticsToolValue> = {}): DiagnosticsToolValue => ({
  scope: files.length === 1 ? 'file' : 'files',
  workspaceRoot: WS,
  changesOnly: false,
  files,
  truncated: files.some((f) => f.truncated),
  total: files.reduce((n, f) => n + f.total, 0),
  ...extra,
});

describe('lsp_diagnostics rendering', () => {
  it('renders one-based, workspace-relative compiler-style lines', () => {
    assert.equal(formatDiagnostic(WS, `${WS}/src/a.ts`, diag(2, "Type 'string' is not assignable")), "src/a.ts:3:5 error typescript(2322): Type 'string' is not assignable");
    assert.equal(formatDiagnostic(WS, '/elsewhere/b.ts', diag(0, 'x', { source: undefined, code: undefined, severity: 2 })), '/elsewhere/b.ts:1:5 warning: x');
    assert.equal(formatDiagnostic(WS, 'src/rel.ts', diag(0, 'multi\nline', { code: undefined, severity: 4 })), 'src/rel.ts:1:5 hint typescript: multi ⏎ line');
  });

  it('counts by severity', () => {
    assert.equal(severityCounts([diag(0, 'a'), diag(1, 'b'), diag(2, 'c', { severity: 2 })]), '2 errors, 1 warning');
    assert.equal(severityCounts([]), 'no problems');
  });

  it('states freshness in every header and never shows pending as clean', () => {
    assert.equal(fileHeader(WS, file()), 'src/a.ts — no problems (fresh)');
    const pending = fileHeader(WS, file({ state: 'pending' }));
    assert.match(pending, /^src\/a\.ts — PENDING: .*not a clean result/);
    assert.doesNotMatch(pending, /\(fresh\)/);
    assert.match(fileHeader(WS, file({ state: 'stale', diagnostics: [diag(0, 'a')], total: 1 })), /^src\/a\.ts — STALE: from an earlier version.* 1 error\.$/);
  });

  it('names a failed server and a file that could not be checked', () => {
    const servers = [{ serverId: 'eslint', mode: 'pull' as const, state: 'fresh' as const, error: { code: 'LSP_ACTION_SERVER_CRASHED', message: 'exited' } }];
    assert.match(fileHeader(WS, file({ servers })), /\[eslint failed: exited\]$/);
    assert.equal(
      fileHeader(WS, file({ error: { code: 'LSP_ACTION_FILE_NOT_FOUND', message: 'no such file' } })),
      'src/a.ts — not checked: no such file (LSP_ACTION_FILE_NOT_FOUND)',
    );
  });

  it('lists a capped file with its total and says how many were left out', () => {
    const diagnostics = [diag(0, 'a'), diag(1, 'b')];
    const text = renderDiagnostics(value([file({ diagnostics, total: 39, truncated: true })]), 10_000);
    assert.equal(
      text,
      [
        'src/a.ts — 39 problems, the first 2 listed (2 errors) (fresh)',
        'src/a.ts:1:5 error typescript(2322): a',
        'src/a.ts:2:5 error typescript(2322): b',
        '… 37 more diagnostics not shown',
      ].join('\n'),
    );
  });

  it('shows only new (+) and resolved (-) problems with changes_only', () => {
    const before = [diag(1, 'old'), diag(4, 'kept')];
    const now = [diag(6, 'kept'), diag(8, 'new')];
    const changes = { baseline: true, ...diffDiagnostics(before, now) };
    const text = renderDiagnostics(value([file({ diagnostics: now, total: 2, changes })], { changesOnly: true }), 10_000);
    assert.equal(
      text,
      [
        'src/a.ts — since your last check: 1 new, 1 resolved, 1 unchanged; now 2 problems (fresh)',
        '+ src/a.ts:9:5 error typescript(2322): new',
        '- src/a.ts:2:5 error typescript(2322): old (resolved)',
      ].join('\n'),
    );
    const same = { baseline: true, ...diffDiagnostics(now, now) };
    assert.equal(
      renderDiagnostics(value([file({ diagnostics: now, total: 2, changes: same })], { changesOnly: true }), 10_000),
      'src/a.ts — no change since your last check; 2 errors (fresh)',
    );
  });

  it('lists everything on the first changes_only check of a file', () => {
    const text = renderDiagnostics(value([file({ diagnostics: [diag(0, 'a')], total: 1, changes: { baseline: false, added: [], resolved: [], unchanged: 0 } })], { changesOnly: true }), 10_000);
    assert.equal(text, 'src/a.ts — first check of this file, so everything is listed; 1 error (fresh)\nsrc/a.ts:1:5 error typescript(2322): a');
  });

  it('summarises a workspace check', () => {
    const files = [file({ diagnostics: [diag(0, 'a')], total: 1 }), file({ filePath: 'lib/b.ts', state: 'pending' })];
    const text = renderDiagnostics(value(files, { scope: 'workspace', filesChecked: 12, filesSkipped: 3 }), 10_000);
    assert.match(text, /^Workspace: 12 files checked, 2 with problems or not yet analysed, worst first, 3 files not checked \(limit reached\)\.\nUse file_paths to check specific files\.\n/);
    assert.equal(renderDiagnostics(value([], { scope: 'workspace', filesChecked: 0 }), 10_000), 'Workspace: 0 files checked, nothing to check.');
    assert.equal(
      renderDiagnostics(value([], { scope: 'workspace', filesChecked: 200, moreFiles: true }), 10_000),
      'Workspace: 200 files checked, none with problems; the workspace has more source files than one check looks at.\nUse file_paths to check specific files.',
    );
    assert.match(text, /\nlib\/b\.ts — PENDING/);
  });

  it('keeps the complete text within tiny and exact limits, multibyte included', () => {
    const diagnostics = Array.from({ length: 30 }, (_, i) => diag(i, `类型“字符串”不能赋给类型“数字” 😀 ${i}`));
    const v = value([file({ diagnostics, total: 45, truncated: true })]);
    const full = renderDiagnostics(v, 1_000_000);
    assert.equal(renderDiagnostics(v, full.length), full, 'exactly at the limit: complete');
    for (const max of [0, 1, 10, 60, 200, full.length - 1]) {
      const text = renderDiagnostics(v, max);
      assert.ok(text.length <= max, `max ${max}: ${text.length}`);
      assert.ok(wellFormed(text), `max ${max}`);
    }
    const cut = renderDiagnostics(v, 400);
    const shown = cut.split('\n').filter((l) => l.startsWith('src/a.ts:')).length;
    assert.ok(cut.endsWith(`… ${45 - shown} more diagnostics not shown`), cut);
  });
});
