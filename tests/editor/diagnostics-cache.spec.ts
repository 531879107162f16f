/**
 * The bounded LRU diagnostics cache: bound, recency, freshness stamp, invalidation by
 * filesystem observations and by our own writes, and first-cached-error targeting.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiagnosticsCache, isCurrent, type CachedDiagnostics } from '../../src/editor/diagnostics-cache.ts';
import { startFake, v1Actions, type FakeAction } from './editor-harness.ts';

const R = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 1 } });
const entry = (path: string, over: Partial<CachedDiagnostics> = {}): CachedDiagnostics => ({
  path,
  root: '/ws',
  clientPath: path,
  diagnostics: [
    { severity: 2, range: R(0) },
    { severity: 1, range: R(4) },
    { severity: 1, range: R(9) },
  ],
  stamp: { engineVersion: 3, state: 'fresh' },
  ...over,
});

describe('DiagnosticsCache (unit)', () => {
  it('keeps at most maxFiles entries, evicting the least recently used', () => {
    const cache = new DiagnosticsCache(2);
    cache.set(entry('/a'));
    cache.set(entry('/b'));
    cache.get('/a'); // /a is now most recent
    assert.deepEqual(cache.set(entry('/c')), ['/b']);
    assert.deepEqual(cache.keys(), ['/a', '/c']);
    assert.equal(cache.size, 2);
    assert.throws(() => new DiagnosticsCache(0), RangeError);
  });

  it('invalidate and clear drop snapshots', () => {
    const cache = new DiagnosticsCache(3);
    cache.set(entry('/a'));
    cache.set(entry('/b'));
    assert.equal(cache.invalidate('/a'), true);
    assert.equal(cache.invalidate('/a'), false);
    cache.clear();
    assert.equal(cache.size, 0);
  });

  it('first current error: only a fresh snapshot of the same engine version whose text still matches the file', () => {
    const cache = new DiagnosticsCache(3);
    cache.set(entry('/a'));
    assert.deepEqual(cache.firstCurrentError('/a', { engineVersion: 3 }), R(4));
    assert.deepEqual(cache.firstCurrentError('/a', { engineVersion: 3, sourceMatches: true }), R(4));
    assert.equal(cache.firstCurrentError('/a', { engineVersion: 4 }), undefined);
    assert.equal(cache.firstCurrentError('/a', { engineVersion: 3, sourceMatches: false }), undefined);
    assert.equal(cache.firstCurrentError('/missing', { engineVersion: 3 }), undefined);
    assert.equal(isCurrent({ engineVersion: 3, state: 'stale' }, { engineVersion: 3 }), false);
    assert.equal(isCurrent({ state: 'fresh' }, { engineVersion: 3 }), false, 'a snapshot without a version never counts');
    cache.set(entry('/w', { diagnostics: [{ severity: 'warning', range: R(1) }] }));
    assert.equal(cache.firstCurrentError('/w', { engineVersion: 3 }), undefined);
  });
});

function diagnosticsAction(diagnostics: unknown[], version = 3): FakeAction {
  return {
    action: 'diagnostics.get',
    writes: false,
    description: 'd',
    run: async (req) => ({ kind: 'diagnostics', filePath: (req.params as { filePath: string }).filePath, diagnostics, truncated: false, total: diagnostics.length, state: 'fresh', version }),
  };
}

type Emit = (name: string, ...args: unknown[]) => void;
const ignore: Emit = () => {};

function backend(files: Record<string, { text: string; version: string }>, cap = 4, format?: (emit: Emit) => FakeAction['run']) {
  const fs = {
    resolve: async (path: string) => ({ targetKey: path, displayPath: path }),
    stat: async (t: { displayPath: string }) => ({ type: 'file', version: files[t.displayPath]?.version }),
    readText: async (t: { displayPath: string }) => files[t.displayPath]?.text ?? '',
    processPath: (t: { displayPath: string }) => t.displayPath,
  };
  let emit: Emit = ignore;
  const actions = v1Actions().map((a) => {
    if (a.action === 'diagnostics.get') return diagnosticsAction([{ severity: 2, range: R(0), message: 'w' }, { severity: 1, range: R(7), message: 'e' }]);
    if (a.action === 'format' && format) return { ...a, run: format((...args) => emit(...args)) };
    return a;
  });
  const fake = startFake({ actions, services: { fs }, config: { diagnosticsCacheMaxFiles: cap } });
  emit = fake.ctx.emit;
  fake.wire.send({ jsonrpc: '2.0', method: 'lsp.events', params: { subscribe: true } });
  const quickfixRange = async () => {
    const before = fake.runner.requests.length;
    await fake.run({ action: 'quickfix.apply', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    return (fake.runner.requests[before]?.params as { range?: unknown } | undefined)?.range;
  };
  return { ...fake, fs, quickfixRange };
}

describe('cache through the backend', () => {
  it('quickfix.apply without range targets the first cached error of the same source version', async () => {
    const files = { '/ws/a.ts': { text: 'const a = x;\n', version: 'v1' } };
    const b = backend(files);
    b.engine.docs.set('/ws/a.ts', { text: 'const a = x;\n', version: 3 });
    await b.run({ action: 'diagnostics.get', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    assert.deepEqual(await b.quickfixRange(), R(7));
    // the engine moved on: no targeting, the action finds the error itself
    b.engine.docs.set('/ws/a.ts', { text: 'const a = x;\n', version: 4 });
    assert.equal(await b.quickfixRange(), undefined);
    await b.dispose();
  });

  it('a file whose content no longer matches the analysed text is not targeted', async () => {
    const files = { '/ws/a.ts': { text: 'changed on disk\n', version: 'v2' } };
    const b = backend(files);
    b.engine.docs.set('/ws/a.ts', { text: 'const a = x;\n', version: 3 });
    await b.run({ action: 'diagnostics.get', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    assert.equal(await b.quickfixRange(), undefined);
    await b.dispose();
  });

  it('a snapshot of unsaved buffer text is never used for targeting', async () => {
    const b = backend({ '/ws/a.ts': { text: 'x', version: 'v1' } });
    b.engine.docs.set('/ws/a.ts', { text: 'x', version: 3 });
    await b.run({ action: 'diagnostics.get', params: { filePath: 'a.ts', workspaceRoot: '/ws', text: 'buffer' } });
    assert.equal(await b.quickfixRange(), undefined);
    await b.dispose();
  });

  it('fs/observed of another version (or absence) invalidates and announces file.changed; the same version does not', async () => {
    const files = { '/ws/a.ts': { text: 't', version: 'v1' } };
    const b = backend(files);
    b.engine.docs.set('/ws/a.ts', { text: 't', version: 3 });
    await b.run({ action: 'diagnostics.get', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    const target = { targetKey: '/ws/a.ts', displayPath: '/ws/a.ts' };
    b.ctx.emit('fs/observed', target, { kind: 'present', version: 'v1' }, undefined);
    assert.equal(b.wire.events('file.changed').length, 0);
    assert.deepEqual(await b.quickfixRange(), R(7));
    b.ctx.emit('fs/observed', target, { kind: 'present', version: 'v2' }, undefined);
    assert.deepEqual(b.wire.events('file.changed'), [{ kind: 'file.changed', filePath: 'a.ts', workspaceRoot: '/ws' }]);
    assert.equal(await b.quickfixRange(), undefined);
    b.ctx.emit('fs/observed', { targetKey: '/elsewhere', displayPath: '/elsewhere' }, { kind: 'absent' }, undefined);
    assert.equal(b.wire.events('file.changed').length, 1, 'uncached files are not announced');
    await b.dispose();
  });

  it('our own write invalidates the files it changed, and a change observed during the write is announced once', async () => {
    const files = { '/ws/a.ts': { text: 't', version: 'v1' } };
    const b = backend(files, 4, (emit) => async () => {
      emit('fs/observed', { targetKey: '/ws/a.ts', displayPath: '/ws/a.ts' }, { kind: 'present', version: 'v2' }, undefined);
      return { kind: 'formatted', filePath: 'a.ts', appliedEdits: 1, linesChanged: 1, before: 't', after: 'u' };
    });
    b.engine.docs.set('/ws/a.ts', { text: 't', version: 3 });
    await b.run({ action: 'diagnostics.get', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    await b.run({ action: 'format', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    assert.deepEqual(b.wire.events('file.changed'), [{ kind: 'file.changed', filePath: 'a.ts', workspaceRoot: '/ws' }], 'announced once, by the observation');
    assert.equal(await b.quickfixRange(), undefined, 'invalidated by the write');
    // a second write with no observation still announces (and invalidates) by itself
    await b.run({ action: 'format', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    assert.equal(b.wire.events('file.changed').length, 2);
    await b.dispose();
  });

  it('a change to another file (observed, written by us, or a non-fresh push) makes the snapshot non-current for targeting', async () => {
    const files = { '/ws/a.ts': { text: 't', version: 'v1' } };
    const b = backend(files, 4, () => async () => ({ kind: 'formatted', filePath: 'lib.ts', appliedEdits: 1, linesChanged: 1, before: 'l', after: 'm' }));
    b.engine.docs.set('/ws/a.ts', { text: 't', version: 3 });
    const ask = () => b.run({ action: 'diagnostics.get', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    const lib = { targetKey: '/ws/lib.ts', displayPath: '/ws/lib.ts' };

    await ask();
    b.ctx.emit('fs/observed', lib, { kind: 'present', version: 'l1' }, undefined);
    assert.deepEqual(await b.quickfixRange(), R(7), 'a first observation (a read) is no change');
    b.ctx.emit('fs/observed', lib, { kind: 'present', version: 'l2' }, undefined);
    assert.equal(await b.quickfixRange(), undefined, 'lib.ts seen at a new version: a.ts may have new errors');
    assert.equal(b.wire.events('file.changed').length, 0, 'uncached files are still not announced');

    await ask();
    assert.deepEqual(await b.quickfixRange(), R(7), 'a snapshot taken after the change counts again');
    b.ctx.emit('fs/observed', lib, { kind: 'absent' }, undefined);
    assert.equal(await b.quickfixRange(), undefined, 'lib.ts deleted');

    await ask();
    b.engine.push({ root: '/ws', path: '/ws/other.ts', serverId: 'ts', diagnostics: { path: '/ws/other.ts', version: 1, state: 'pending', diagnostics: [], servers: [] } });
    assert.equal(await b.quickfixRange(), undefined, 'a server re-analysing another file');

    await ask();
    await b.run({ action: 'format', params: { filePath: 'lib.ts', workspaceRoot: '/ws' } });
    assert.equal(await b.quickfixRange(), undefined, 'our own write to another file');

    await ask();
    assert.deepEqual(await b.quickfixRange(), R(7));
    b.engine.dependencyChange({ changes: [{ path: '/ws/lib.ts', kind: 'changed' }], affected: [{ root: '/ws', path: '/ws/a.ts', serverId: 'ts' }] });
    assert.equal(await b.quickfixRange(), undefined, 'the engine learned that a dependency changed');
    await b.dispose();
  });

  it('diagnostics.get is never answered from the cache: every call reaches the engine', async () => {
    const b = backend({ '/ws/a.ts': { text: 't', version: 'v1' } });
    b.engine.docs.set('/ws/a.ts', { text: 't', version: 3 });
    for (let i = 0; i < 3; i++) await b.run({ action: 'diagnostics.get', params: { filePath: 'a.ts', workspaceRoot: '/ws' } });
    assert.equal(b.runner.requests.filter((r) => r.action === 'diagnostics.get').length, 3);
    await b.dispose();
  });

  it('the cache stays within diagnosticsCacheMaxFiles through the backend', async () => {
    for (const [cap, expected] of [[4, R(7)], [2, undefined]] as const) {
      const b = backend({}, cap);
      for (const f of ['a.ts', 'b.ts', 'c.ts']) {
        b.engine.docs.set(`/ws/${f}`, { text: '', version: 3 });
        await b.run({ action: 'diagnostics.get', params: { filePath: f, workspaceRoot: '/ws' } });
      }
      assert.deepEqual(await b.quickfixRange(), expected, `cap ${cap}`);
      await b.dispose();
    }
  });
});
