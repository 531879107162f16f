import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { ResponseError, StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-languageserver-protocol/node.js';
import { CapabilityRegistry } from '../../src/lsp/capability-registry.ts';
import { createJsonRpcChannel } from '../../src/lsp/json-rpc-connection.ts';
import { ProgressTracker } from '../../src/lsp/progress-tracker.ts';
import { installServerRequestHandlers, lookupConfiguration } from '../../src/lsp/server-requests.ts';

describe('lookupConfiguration', () => {
  const settings = { python: { analysis: { typeCheckingMode: 'strict' } }, 'yaml.schemaStore': { enable: false }, editor: { tabSize: 2 } };

  it('answers the whole object for "" or a missing section', () => {
    assert.equal(lookupConfiguration(settings, ''), settings);
    assert.equal(lookupConfiguration(settings, undefined), settings);
    assert.equal(lookupConfiguration(settings, null), settings);
  });

  it('walks dotted sections, prefers an exact dotted key, and answers null for unknown ones', () => {
    assert.deepEqual(lookupConfiguration(settings, 'python.analysis'), { typeCheckingMode: 'strict' });
    assert.equal(lookupConfiguration(settings, 'python.analysis.typeCheckingMode'), 'strict');
    assert.deepEqual(lookupConfiguration(settings, 'yaml.schemaStore'), { enable: false });
    assert.equal(lookupConfiguration(settings, 'python.nope'), null);
    assert.equal(lookupConfiguration(settings, 'toString'), null, 'no prototype lookups');
  });
});

describe('CapabilityRegistry', () => {
  it('combines static capabilities with dynamic registrations', () => {
    const registry = new CapabilityRegistry({
      textDocumentSync: { openClose: true, change: 2 },
      completionProvider: { resolveProvider: true },
      codeActionProvider: true,
      renameProvider: { prepareProvider: true },
      documentFormattingProvider: false,
      executeCommandProvider: { commands: ['a'] },
    });
    assert.equal(registry.syncKind, 2);
    assert.equal(registry.has('textDocument/completion'), true);
    assert.equal(registry.has('completionItem/resolve'), true);
    assert.equal(registry.has('codeAction/resolve'), false, 'codeActionProvider: true has no resolveProvider');
    assert.equal(registry.has('textDocument/prepareRename'), true);
    assert.equal(registry.has('textDocument/formatting'), false);
    assert.equal(registry.pullDiagnostics, false);
    const changes: string[] = [];
    registry.onDidChange((m) => changes.push(m));
    registry.register([
      { id: 'd', method: 'textDocument/diagnostic', registerOptions: { identifier: 'pyright', documentSelector: null } },
      { id: 'f', method: 'textDocument/formatting', registerOptions: {} },
      { id: 'c', method: 'workspace/executeCommand', registerOptions: { commands: ['b'] } },
    ]);
    assert.equal(registry.pullDiagnostics, true);
    assert.equal(registry.pullIdentifier, 'pyright');
    assert.equal(registry.has('textDocument/formatting'), true);
    assert.deepEqual(registry.commands, ['a', 'b']);
    registry.unregister([{ id: 'd', method: 'textDocument/diagnostic' }]);
    assert.equal(registry.pullDiagnostics, false);
    assert.deepEqual(changes, ['textDocument/diagnostic', 'textDocument/formatting', 'workspace/executeCommand', 'textDocument/diagnostic']);
  });

  it('reads a bare sync kind number', () => {
    assert.equal(new CapabilityRegistry({ textDocumentSync: 1 }).syncKind, 1);
    assert.equal(new CapabilityRegistry({}).syncKind, 0);
  });
});

function pair() {
  const toClient = new PassThrough();
  const toServer = new PassThrough();
  const channel = createJsonRpcChannel({ stdout: toClient, stdin: toServer }, { maxMessageBytes: 1 << 20, log: () => undefined, label: 'test' });
  const registry = new CapabilityRegistry({});
  const progress = new ProgressTracker();
  const events: string[] = [];
  installServerRequestHandlers(channel.connection, {
    serverId: 'test',
    root: '/w/project',
    configuration: { fake: { level: 3 }, editor: { tabSize: 4 } },
    registry,
    progress,
    log: () => undefined,
    onRefresh: () => events.push('refresh'),
    onPublishDiagnostics: (p) => events.push(`publish ${p.uri}`),
    applyEdit: async () => ({ applied: false, failureReason: 'no executeCommand is running' }),
  });
  channel.connection.listen();
  const server = createMessageConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  server.listen();
  return { channel, server, registry, progress, events, close: () => (server.dispose(), channel.dispose()) };
}

describe('server → client requests', () => {
  it('answers configuration, registrations, progress, refresh, folders and applyEdit, and MethodNotFound for the rest without breaking the stream', async () => {
    const t = pair();
    assert.deepEqual(await t.server.sendRequest('workspace/configuration', { items: [{ section: 'fake' }, { section: 'editor.tabSize' }, {}, { section: 'nope' }] }), [
      { level: 3 },
      4,
      { fake: { level: 3 }, editor: { tabSize: 4 } },
      null,
    ]);
    await t.server.sendRequest('client/registerCapability', { registrations: [{ id: '1', method: 'textDocument/diagnostic', registerOptions: {} }] });
    assert.equal(t.registry.pullDiagnostics, true);
    await t.server.sendRequest('client/unregisterCapability', { unregisterations: [{ id: '1', method: 'textDocument/diagnostic' }] });
    assert.equal(t.registry.pullDiagnostics, false);

    assert.equal(await t.server.sendRequest('window/workDoneProgress/create', { token: 'tok' }), null);
    const busy = new Promise<void>((resolve) => t.progress.onDidChange(() => resolve()));
    await t.server.sendNotification('$/progress', { token: 'tok', value: { kind: 'begin', title: 'Indexing' } });
    await busy;
    assert.equal(t.progress.busy, true);
    assert.deepEqual(t.progress.titles, ['Indexing']);
    const idle = new Promise<void>((resolve) => t.progress.onDidChange(() => resolve()));
    await t.server.sendNotification('$/progress', { token: 'tok', value: { kind: 'end' } });
    await idle;
    assert.equal(t.progress.busy, false);

    assert.equal(await t.server.sendRequest('workspace/diagnostic/refresh'), null);
    assert.deepEqual(await t.server.sendRequest('workspace/workspaceFolders'), [{ uri: 'file:///w/project', name: 'project' }]);
    assert.deepEqual(await t.server.sendRequest('workspace/applyEdit', { edit: { changes: {} } }), { applied: false, failureReason: 'no executeCommand is running' });

    await assert.rejects(t.server.sendRequest('custom/whatever', { x: 1 }), (e: unknown) => e instanceof ResponseError && e.code === -32601);
    // the stream is intact after the unknown request
    assert.deepEqual(await t.server.sendRequest('workspace/configuration', { items: [{ section: 'editor' }] }), [{ tabSize: 4 }]);
    await t.server.sendNotification('textDocument/publishDiagnostics', { uri: 'file:///w/a.ts', diagnostics: [] });
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(t.events, ['refresh', 'publish file:///w/a.ts']);
    t.close();
  });
});
