/**
 * Every engine request through the whole stack against the fake server negotiating utf-8
 * positions (every position crossing is converted), on the REAL harness services.
 */
import assert from 'node:assert/strict';
import { unlink } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { isActionError } from '../../src/errors.ts';
import type { DocumentTarget, NormalizedWorkspaceEdit } from '../../src/lsp/engine-types.ts';
import { fakeEntry, makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

let ws: Workspace;
let f: EngineFixture;
let target: DocumentTarget;
// 😀 is 2 UTF-16 units and 4 UTF-8 bytes, é is 1 unit and 2 bytes: every column below differs by encoding
const TEXT = '😀é ERROR WARN\nclass Shape\n  function area\nsum(1, \n';

before(async () => {
  ws = await makeWorkspace('lsp-req-');
  f = await startEngine(makeConfig({ fake: fakeEntry({ positionEncoding: 'utf-8', secondFile: 'second.txt' }) }));
  target = { root: ws.root, path: await ws.write('main.txt', TEXT) };
  await ws.write('second.txt', 'é😀 second\n');
});
after(async () => {
  await f.close();
  await ws.remove();
});

const word = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

describe('engine requests on a utf-8 server', () => {
  it('negotiated utf-8 and converts diagnostics to UTF-16', async () => {
    const d = await f.engine.diagnostics(target);
    assert.equal(f.client('fake').encoding, 'utf-8');
    assert.deepEqual(d.diagnostics.map((x) => x.range), [word(0, 4, 9), word(0, 10, 14)]);
    assert.equal(TEXT.slice(4, 9), 'ERROR');
  });

  it('converts request positions to utf-8 and answers back in UTF-16 (hover, definition, references)', async () => {
    const hover = await f.engine.hover(target, { line: 0, character: 6 });
    assert.equal(hover?.contents, '**ERROR** (fake hover)');
    assert.deepEqual(hover?.range, word(0, 4, 9));
    assert.deepEqual(await f.engine.definition(target, { line: 0, character: 11 }), [{ path: target.path, range: word(0, 10, 14) }]);
    const refs = await f.engine.references(target, { line: 1, character: 7 }, { includeDeclaration: true });
    assert.deepEqual(refs, [{ path: target.path, range: word(1, 6, 11) }]);
    assert.deepEqual(await f.engine.references(target, { line: 1, character: 7 }, { includeDeclaration: false }), []);
  });

  it('keeps the edit of an edit+command action, lists bare Commands, prefers documentChanges, resolves lazily', async () => {
    const actions = await f.engine.codeActions(target, word(0, 4, 9));
    const titles = actions.map((a) => a.title);
    assert.deepEqual(titles.slice(0, 4), ['Replace ERROR with FIXED', 'Run fake command', 'Edit with changes and documentChanges', 'Resolve to RESOLVED']);
    const [fix, bare, both, lazy] = actions;
    assert.deepEqual(fix?.edit?.steps, [{ kind: 'edit', path: target.path, edits: [{ range: word(0, 4, 9), newText: 'FIXED' }] }]);
    assert.equal(fix?.command?.command, 'fake.bare');
    assert.equal(fix?.isPreferred, true);
    assert.deepEqual(fix?.diagnostics?.map((d) => d.range), [word(0, 4, 9)], 'the overlapping diagnostics were sent as context and came back');
    assert.deepEqual([bare?.edit, bare?.command?.command], [undefined, 'fake.bare']);
    assert.deepEqual(both?.edit?.steps.map((s) => (s.kind === 'edit' ? s.edits[0]?.newText : s.kind)), ['// from documentChanges\n']);
    assert.equal(lazy?.needsResolve, true);
    const resolved = await f.engine.resolveCodeAction(target, lazy!);
    assert.equal(resolved.needsResolve, false);
    assert.deepEqual(resolved.edit?.steps, [{ kind: 'edit', path: target.path, edits: [{ range: word(0, 4, 9), newText: 'RESOLVED' }] }]);
    const second = actions.find((a) => a.title === 'Edit second file');
    assert.deepEqual(second?.edit?.steps, [{ kind: 'edit', path: ws.path('second.txt'), version: null, edits: [{ range: word(0, 0, 0), newText: 'edited by fake\n' }] }]);
    const create = actions.find((a) => a.title === 'Create file');
    assert.deepEqual(create?.edit?.steps[0], { kind: 'create', path: ws.path('fake-created.txt'), overwrite: false, ignoreIfExists: true });
    const only = await f.engine.codeActions(target, word(0, 4, 9), { only: ['refactor'] });
    assert.ok(only.every((a) => a.kind?.startsWith('refactor')) && only.length > 0);
  });

  it('routes the workspace/applyEdit a command triggers to the caller\'s handler', async () => {
    const actions = await f.engine.codeActions(target, word(0, 4, 9));
    const viaServer = actions.find((a) => a.title === 'Apply via server');
    assert.ok(viaServer?.command);
    const seen: Array<{ edit: NormalizedWorkspaceEdit; label?: string }> = [];
    const result = await f.engine.executeCommand(target, 'fake', viaServer.command, {
      applyEdit: async (edit, info) => {
        seen.push(info.label === undefined ? { edit } : { edit, label: info.label });
        return { applied: true };
      },
    });
    assert.deepEqual(result, { applied: true }, 'the fake returns the client answer as the command result');
    assert.equal(seen[0]?.label, 'Fake apply via server');
    assert.deepEqual(seen[0]?.edit.steps, [{ kind: 'edit', path: target.path, edits: [{ range: word(0, 0, 0), newText: '// applied by server\n' }] }]);
    const refused = await f.engine.executeCommand(target, 'fake', viaServer.command, {
      applyEdit: async () => {
        throw new Error('write denied by test');
      },
    });
    assert.deepEqual(refused, { applied: false, failureReason: 'write denied by test' });
    await assert.rejects(
      f.engine.executeCommand(target, 'fake', { title: 'x', command: 'not.listed' }, { applyEdit: async () => ({ applied: false }) }),
      (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_UNSUPPORTED',
    );
  });

  it('completes (list with textEdits in UTF-16) and resolves', async () => {
    const completion = await f.engine.completion(target, { line: 0, character: 7 });
    assert.equal(completion.isIncomplete, false);
    assert.deepEqual(completion.items.map((i) => i.label).sort(), ['alpha', 'beta', 'delta', 'gamma']);
    const beta = completion.items.find((i) => i.label === 'beta');
    assert.deepEqual(beta?.textEdit, { range: word(0, 4, 7), newText: 'betaValue' });
    const resolved = await f.engine.resolveCompletion(target, beta!);
    assert.ok(resolved.documentation !== undefined && resolved.detail !== undefined);
  });

  it('renames with prepareRename, outlines hierarchically, finds workspace symbols in other documents', async () => {
    const prep = await f.engine.prepareRename(target, { line: 1, character: 8 });
    assert.deepEqual(prep, { serverId: 'fake', range: word(1, 6, 11), placeholder: 'Shape' });
    assert.equal(await f.engine.prepareRename(target, { line: 3, character: 6 }), null);
    const rename = await f.engine.rename(target, { line: 1, character: 8 }, 'Form');
    assert.deepEqual(rename.edit.steps, [{ kind: 'edit', path: target.path, version: 1, edits: [{ range: word(1, 6, 11), newText: 'Form' }] }]);
    const outline = await f.engine.documentSymbols(target);
    assert.deepEqual(outline.symbols.map((s) => [s.name, s.kind, s.children.map((c) => c.name)]), [['Shape', 5, ['area']]]);
    const other = { root: ws.root, path: await ws.write('shapes.txt', '/*😀é*/ class Circle\n') };
    await f.engine.diagnostics(other);
    const symbols = await f.engine.workspaceSymbols(ws.root, 'circ', { anchorPath: target.path });
    assert.deepEqual(symbols.map((s) => [s.name, s.location.path, s.selectionRange]), [['Circle', other.path, word(0, 14, 20)]]);
    assert.deepEqual((await f.engine.workspaceSymbols(ws.root, 'circ')).map((s) => s.selectionRange), [word(0, 14, 20)], 'without an anchor too');
  });

  it('answers signature help and inlay hints in UTF-16', async () => {
    const help = await f.engine.signatureHelp(target, { line: 3, character: 7 });
    assert.equal(help?.signatures[0]?.label, 'fake(first: number, second: string)');
    assert.equal(help?.activeParameter, 1);
    const hints = await f.engine.inlayHints(target, undefined);
    assert.deepEqual(hints.hints.map((h) => [h.position, h.label]), [
      [{ line: 0, character: 9 }, ': fake'],
      [{ line: 0, character: 14 }, ': fake'],
    ]);
  });

  it('formats (whole document and range) with UTF-16 edits', async () => {
    const t = { root: ws.root, path: await ws.write('fmt.txt', 'é😀 x  \nok\t\n') };
    const all = await f.engine.format(t, undefined);
    assert.deepEqual(all.edits, [
      { range: word(0, 5, 7), newText: '' },
      { range: word(1, 2, 3), newText: '' },
    ]);
    const ranged = await f.engine.format(t, word(1, 0, 1));
    assert.deepEqual(ranged.edits, [{ range: word(1, 2, 3), newText: '' }]);
  });

  it('uses overlay text instead of the file, and reports it as the document text', async () => {
    const overlayTarget = { ...target, text: 'WARN unsaved ERROR\n' };
    const d = await f.engine.diagnostics(overlayTarget);
    assert.deepEqual(d.diagnostics.map((x) => x.range), [word(0, 0, 4), word(0, 13, 18)]);
    assert.deepEqual(f.engine.documentText(target.path), { text: 'WARN unsaved ERROR\n', version: d.version });
    const back = await f.engine.diagnostics(target);
    assert.equal(back.version, d.version + 1, 'going back to the disk content is a new version');
    assert.equal(f.engine.documentText(target.path)?.text, TEXT);
  });

  it('fails clearly: unrouted file, file outside the workspace, missing file', async () => {
    await assert.rejects(f.engine.hover({ root: ws.root, path: ws.path('x.md') }, { line: 0, character: 0 }), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_UNAVAILABLE');
    await assert.rejects(f.engine.hover({ root: ws.root, path: '/etc/hosts.txt' }, { line: 0, character: 0 }), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_OUTSIDE_WORKSPACE');
    await assert.rejects(f.engine.diagnostics({ root: ws.root, path: ws.path('missing.txt') }), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_FILE_NOT_FOUND');
    assert.deepEqual(f.engine.serversFor(ws.path('a.TXT'), ws.root), ['fake']);
  });
});

describe('capabilities and file changes', () => {
  it('fails fast with UNSUPPORTED when the server lacks the capability, without sending it', async () => {
    const g = await startEngine(makeConfig({ fake: fakeEntry({ capabilities: { formatting: false, hover: false } }) }));
    try {
      const t = { root: ws.root, path: await ws.write('nofmt.txt', 'x  \n') };
      await assert.rejects(g.engine.format(t, undefined), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_UNSUPPORTED' && /textDocument\/formatting/.test(e.message));
      await assert.rejects(g.engine.hover(t, { line: 0, character: 0 }), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_UNSUPPORTED');
      const log = await g.client('fake').request<Array<{ method?: string }>>('fake/log', undefined);
      assert.ok(!log.some((m) => m.method === 'textDocument/formatting' || m.method === 'textDocument/hover'));
    } finally {
      await g.close();
    }
  });

  it('filesChanged: didChange for open documents, didClose when deleted, didChangeWatchedFiles for the rest', async () => {
    const g = await startEngine(makeConfig({ fake: fakeEntry({ textDocumentSync: 1, registerOnInitialized: [{ method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/*.json' }] } }] }) }));
    try {
      const open = { root: ws.root, path: await ws.write('open.txt', 'one\n') };
      await g.engine.diagnostics(open);
      await ws.write('open.txt', 'two\n');
      await ws.write('conf.json', '{}');
      await g.engine.filesChanged([
        { path: open.path, kind: 'changed' },
        { path: ws.path('conf.json'), kind: 'created' },
        { path: ws.path('ignored.md'), kind: 'changed' },
      ]);
      const docs = await g.client('fake').request<Array<{ uri: string; text: string; version: number }>>('fake/documents', undefined);
      assert.deepEqual(docs.map((d) => [d.text, d.version]), [['two\n', 2]]);
      const log = await g.client('fake').request<Array<{ method?: string; params?: { changes?: unknown } }>>('fake/log', undefined);
      const watched = log.filter((m) => m.method === 'workspace/didChangeWatchedFiles');
      assert.deepEqual(watched.map((m) => m.params?.changes), [[{ uri: `file://${ws.path('conf.json')}`, type: 1 }]], 'only what the watchers asked for');
      await g.engine.filesChanged([{ path: open.path, kind: 'deleted' }]);
      assert.deepEqual(await g.client('fake').request('fake/documents', undefined), []);
      assert.deepEqual(g.engine.openDocuments(ws.root), []);
    } finally {
      await g.close();
    }
  });

  it('filesChanged reporting a created or deleted root marker re-routes the file to the new root', async () => {
    const g = await startEngine(makeConfig({ fake: fakeEntry({}, { rootMarkers: ['fake.marker'] }) }));
    try {
      const file = { root: ws.root, path: await ws.write('pkg/sub/a.txt', 'a\n') };
      await g.engine.diagnostics(file);
      assert.deepEqual(g.engine.liveServers().map((s) => s.root), [ws.root]);
      await ws.write('pkg/fake.marker', '');
      await g.engine.filesChanged([{ path: ws.path('pkg/fake.marker'), kind: 'created' }]);
      await g.engine.diagnostics(file);
      assert.ok(g.engine.liveServers().some((s) => s.root === ws.path('pkg')), 'a server was leased at the new root');
      await unlink(ws.path('pkg/fake.marker'));
      await g.engine.filesChanged([{ path: ws.path('pkg/fake.marker'), kind: 'deleted' }]);
      await g.engine.diagnostics(file);
      assert.equal(g.clients().filter((c) => c.root === ws.root).length, 1);
    } finally {
      await g.close();
    }
  });
});
