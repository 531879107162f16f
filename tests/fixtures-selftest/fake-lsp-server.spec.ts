/**
 * Self-tests of the fake LSP server fixture: each scenario behaviour proven over raw framing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { FAKE_SERVER_SCRIPT, fakeServerCommand, type FakeScenario } from '../fixtures/fake-lsp-scenario.ts';
import { RawLspClient, type RpcMessage } from './raw-lsp-client.ts';

const URI = 'file:///work/ws/a.txt';
const clients: RawLspClient[] = [];

function start(scenario: FakeScenario | string[] = {}): RawLspClient {
  const client = new RawLspClient(scenario);
  clients.push(client);
  return client;
}

afterEach(() => {
  for (const c of clients.splice(0)) c.kill();
});

const isPublish = (m: RpcMessage): boolean => m.method === 'textDocument/publishDiagnostics';
const pos = (line: number, character: number): { line: number; character: number } => ({ line, character });
const range = (l1: number, c1: number, l2: number, c2: number): { start: { line: number; character: number }; end: { line: number; character: number } } => ({
  start: pos(l1, c1),
  end: pos(l2, c2),
});

interface Diag {
  range: ReturnType<typeof range>;
  severity: number;
  code: string;
  source: string;
  message: string;
}
interface PublishParams {
  uri: string;
  version?: number;
  diagnostics: Diag[];
}
const publishParams = (m: RpcMessage): PublishParams => m.params as PublishParams;

describe('fake LSP server: lifecycle', () => {
  it('defaults: utf-16, incremental sync, all capabilities, shutdown + exit → 0', async () => {
    const c = start();
    const init = await c.initialize(['utf-8', 'utf-16']);
    const caps = init.capabilities;
    assert.equal(caps.positionEncoding, 'utf-16');
    assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 2, save: { includeText: false } });
    for (const key of [
      'documentFormattingProvider',
      'documentRangeFormattingProvider',
      'completionProvider',
      'codeActionProvider',
      'renameProvider',
      'documentSymbolProvider',
      'workspaceSymbolProvider',
      'signatureHelpProvider',
      'inlayHintProvider',
      'hoverProvider',
      'definitionProvider',
      'referencesProvider',
      'executeCommandProvider',
    ]) {
      assert.ok(caps[key], key);
    }
    assert.equal(caps.diagnosticProvider, undefined);
    assert.equal(init.serverInfo?.name, 'fake-lsp');
    assert.equal(await c.stop(), 0);
    assert.match(c.stderr, /fake-lsp: started/);
  });

  it('exitCodeOnExit', async () => {
    const c = start({ exitCodeOnExit: 7 });
    await c.initialize();
    assert.equal(await c.stop(), 7);
  });

  it('stdin end → exit', async () => {
    const c = start();
    await c.initialize();
    c.child.stdin?.end();
    assert.equal(await c.exited, 0);
  });

  it('--scenario-file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-lsp-'));
    try {
      const file = join(dir, 'scenario.json');
      writeFileSync(file, JSON.stringify({ textDocumentSync: 1, exitCodeOnExit: 4 }));
      const c = start(['--disable-warning=ExperimentalWarning', FAKE_SERVER_SCRIPT, '--scenario-file', file]);
      const init = await c.initialize();
      assert.equal((init.capabilities.textDocumentSync as { change: number }).change, 1);
      assert.equal(await c.stop(), 4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fakeServerCommand returns the running node and an absolute script path', () => {
    const cmd = fakeServerCommand({ diagnostics: 'pull' });
    assert.equal(cmd.command, process.execPath);
    assert.ok(cmd.args.includes(FAKE_SERVER_SCRIPT));
    assert.deepEqual(JSON.parse(cmd.args.at(-1) ?? ''), { diagnostics: 'pull' });
  });

  it('requests before initialize → ServerNotInitialized; unknown method → MethodNotFound', async () => {
    const c = start();
    const early = await c.request('textDocument/hover', { textDocument: { uri: URI }, position: pos(0, 0) });
    assert.equal(early.error?.code, -32002);
    await c.initialize();
    const unknown = await c.request('textDocument/nope', {});
    assert.equal(unknown.error?.code, -32601);
  });

  it('rejectNullParams: shutdown/exit with params:null → InvalidParams, server stays up', async () => {
    const c = start({ rejectNullParams: true });
    await c.initialize();
    c.write({ jsonrpc: '2.0', id: 'sd', method: 'shutdown', params: null });
    const res = await c.waitFor((m) => m.id === 'sd');
    assert.deepEqual(res.error, { code: -32602, message: 'expected no params, got null' });
    c.write({ jsonrpc: '2.0', method: 'exit', params: null });
    const exitErr = await c.waitFor((m) => m.id === null && m.error !== undefined);
    assert.equal(exitErr.error?.code, -32602);
    assert.equal(c.child.exitCode, null);
    assert.equal(await c.stop(), 0); // without params it works
  });
});

describe('fake LSP server: documents and encodings', () => {
  const line = '😀 ERROR';
  for (const [enc, startCol, endCol] of [
    ['utf-16', 3, 8],
    ['utf-8', 5, 10],
    ['utf-32', 2, 7],
  ] as const) {
    it(`negotiates ${enc} and reports ranges in it`, async () => {
      const c = start({ positionEncoding: enc });
      const init = await c.initialize(['utf-8', 'utf-16', 'utf-32']);
      assert.equal(init.capabilities.positionEncoding, enc);
      c.open(URI, `${line}\nWARN here`);
      const p = publishParams(await c.waitFor(isPublish));
      assert.equal(p.version, 1);
      assert.deepEqual(p.diagnostics, [
        { range: range(0, startCol, 0, endCol), severity: 1, code: 'F001', source: 'fake', message: 'found ERROR' },
        { range: range(1, 0, 1, 4), severity: 2, code: 'F002', source: 'fake', message: 'found WARN' },
      ]);
    });
  }

  it('falls back to utf-16 when the client does not offer the wanted encoding', async () => {
    const c = start({ positionEncoding: 'utf-8' });
    const init = await c.initialize(['utf-16']);
    assert.equal(init.capabilities.positionEncoding, 'utf-16');
  });

  it('applies incremental changes in utf-8, full changes, and tracks versions/close', async () => {
    const c = start({ positionEncoding: 'utf-8' });
    await c.initialize(['utf-8']);
    c.open(URI, '😀 ab\r\nline2\n');
    // replace "ab" (utf-8 columns 5..7) with "ERROR"
    c.notify('textDocument/didChange', { textDocument: { uri: URI, version: 2 }, contentChanges: [{ range: range(0, 5, 0, 7), text: 'ERROR' }] });
    c.notify('textDocument/didChange', { textDocument: { uri: URI, version: 3 }, contentChanges: [{ range: range(1, 4, 1, 5), text: 'X' }] });
    let docs = await c.call<Array<{ uri: string; version: number; text: string }>>('fake/documents');
    assert.deepEqual(docs, [{ uri: URI, languageId: 'plaintext', version: 3, text: '😀 ERROR\r\nlineX\n' }]);
    const p = publishParams(await c.waitFor((m) => isPublish(m) && publishParams(m).version === 3));
    assert.deepEqual(p.diagnostics[0]?.range, range(0, 5, 0, 10));
    c.notify('textDocument/didChange', { textDocument: { uri: URI, version: 4 }, contentChanges: [{ text: 'all new' }] });
    docs = await c.call('fake/documents');
    assert.equal(docs[0]?.text, 'all new');
    assert.equal(docs[0]?.version, 4);
    c.notify('textDocument/didClose', { textDocument: { uri: URI } });
    docs = await c.call('fake/documents');
    assert.deepEqual(docs, []);
  });

  it('textDocumentSync: 1 advertises full sync', async () => {
    const c = start({ textDocumentSync: 1 });
    const init = await c.initialize();
    assert.equal((init.capabilities.textDocumentSync as { change: number }).change, 1);
  });
});

describe('fake LSP server: push diagnostics', () => {
  it('pushWithoutVersion omits version', async () => {
    const c = start({ pushWithoutVersion: true });
    await c.initialize();
    c.open(URI, 'ERROR');
    const p = publishParams(await c.waitFor(isPublish));
    assert.equal('version' in p, false);
    assert.equal(p.diagnostics.length, 1);
  });

  it('pushSequence: empty first, real later', async () => {
    const c = start({ pushSequence: [{ delayMs: 0, content: 'empty' }, { delayMs: 300, content: 'real' }] });
    await c.initialize();
    const t0 = Date.now();
    c.open(URI, 'ERROR');
    const first = publishParams(await c.waitFor(isPublish));
    assert.deepEqual(first.diagnostics, []);
    assert.equal(first.version, 1);
    const second = publishParams(await c.waitFor((m) => isPublish(m) && publishParams(m).diagnostics.length > 0));
    assert.ok(Date.now() - t0 >= 250, 'real push is delayed');
    assert.equal(second.version, 1);
  });

  it('clearOnClose publishes [] on close (default) and not when disabled', async () => {
    const c = start();
    await c.initialize();
    c.open(URI, 'ERROR');
    await c.waitFor(isPublish);
    const n = c.messages.length;
    c.notify('textDocument/didClose', { textDocument: { uri: URI } });
    const cleared = publishParams(await c.waitFor(isPublish, 5000, n));
    assert.deepEqual(cleared.diagnostics, []);

    const d = start({ clearOnClose: false });
    await d.initialize();
    d.open(URI, 'ERROR');
    await d.waitFor(isPublish);
    d.notify('textDocument/didClose', { textDocument: { uri: URI } });
    await d.call('fake/documents');
    assert.equal(d.messages.filter(isPublish).length, 1);
  });

  it('diagnostics: none never pushes', async () => {
    const c = start({ diagnostics: 'none' });
    await c.initialize();
    c.open(URI, 'ERROR');
    await c.call('fake/documents');
    assert.equal(c.messages.filter(isPublish).length, 0);
    const pull = await c.request('textDocument/diagnostic', { textDocument: { uri: URI } });
    assert.equal(pull.error?.code, -32601);
  });
});

describe('fake LSP server: pull diagnostics', () => {
  it('pull: static provider, full then unchanged with previousResultId, full again after a change', async () => {
    const c = start({ diagnostics: 'pull' });
    const init = await c.initialize();
    assert.deepEqual(init.capabilities.diagnosticProvider, { identifier: 'fake', interFileDependencies: false, workspaceDiagnostics: false });
    c.open(URI, 'ERROR');
    const full = await c.call<{ kind: string; resultId: string; items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri: URI } });
    assert.equal(full.kind, 'full');
    assert.equal(full.items.length, 1);
    const same = await c.call<{ kind: string }>('textDocument/diagnostic', { textDocument: { uri: URI }, previousResultId: full.resultId });
    assert.deepEqual(same, { kind: 'unchanged', resultId: full.resultId });
    c.notify('textDocument/didChange', { textDocument: { uri: URI, version: 2 }, contentChanges: [{ text: 'ok' }] });
    const changed = await c.call<{ kind: string; items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri: URI }, previousResultId: full.resultId });
    assert.equal(changed.kind, 'full');
    assert.deepEqual(changed.items, []);
    assert.equal(c.messages.filter(isPublish).length, 0);
  });

  it('pull-dynamic: registers textDocument/diagnostic after initialized + registerDelayMs', async () => {
    const c = start({ diagnostics: 'pull-dynamic', registerDelayMs: 200 });
    const init = await c.initialize();
    assert.equal(init.capabilities.diagnosticProvider, undefined);
    const t0 = Date.now();
    const reg = await c.waitFor((m) => m.method === 'client/registerCapability');
    assert.ok(Date.now() - t0 >= 150);
    const registration = (reg.params as { registrations: Array<{ method: string; registerOptions: { identifier: string } }> }).registrations[0];
    assert.equal(registration?.method, 'textDocument/diagnostic');
    assert.equal(registration?.registerOptions.identifier, 'fake');
    c.open(URI, 'WARN');
    const full = await c.call<{ items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri: URI } });
    assert.equal(full.items[0]?.code, 'F002');
  });

  it('pullEmptyUntilReadyMs: empty reports, then workspace/diagnostic/refresh, then real', async () => {
    const c = start({ diagnostics: 'pull', pullEmptyUntilReadyMs: 400 });
    await c.initialize();
    c.open(URI, 'ERROR');
    const early = await c.call<{ kind: string; resultId: string; items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri: URI } });
    assert.deepEqual(early, { kind: 'full', resultId: 'fake-not-ready', items: [] });
    await c.waitFor((m) => m.method === 'workspace/diagnostic/refresh');
    const ready = await c.call<{ kind: string; items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri: URI }, previousResultId: early.resultId });
    assert.equal(ready.kind, 'full');
    assert.equal(ready.items.length, 1);
  });
});

describe('fake LSP server: server-initiated traffic', () => {
  it('progressOnInitialized: create, then begin/report/end', async () => {
    const c = start({ progressOnInitialized: { durationMs: 200 } });
    await c.initialize();
    const create = await c.waitFor((m) => m.method === 'window/workDoneProgress/create');
    assert.deepEqual(create.params, { token: 'fake-progress' });
    await c.waitFor((m) => m.method === '$/progress' && (m.params as { value: { kind: string } }).value.kind === 'end');
    const kinds = c.messages.filter((m) => m.method === '$/progress').map((m) => (m.params as { value: { kind: string } }).value.kind);
    assert.deepEqual(kinds, ['begin', 'report', 'end']);
  });

  it('configurationSections + registerOnInitialized; fake/configuration returns the answers', async () => {
    const c = start({
      configurationSections: ['fake', 'editor'],
      registerOnInitialized: ['workspace/didChangeWatchedFiles', { method: 'textDocument/formatting', id: 'fmt', registerOptions: { documentSelector: null } }],
    });
    await c.initialize();
    const cfg = await c.waitFor((m) => m.method === 'workspace/configuration');
    assert.deepEqual(cfg.params, { items: [{ section: 'fake' }, { section: 'editor' }] });
    const reg = await c.waitFor((m) => m.method === 'client/registerCapability');
    assert.deepEqual(reg.params, {
      registrations: [
        { id: 'fake-reg-workspace/didChangeWatchedFiles', method: 'workspace/didChangeWatchedFiles' },
        { id: 'fmt', method: 'textDocument/formatting', registerOptions: { documentSelector: null } },
      ],
    });
    let answers: unknown = [];
    for (let i = 0; i < 50 && (answers as unknown[]).length === 0; i++) answers = await c.call('fake/configuration');
    assert.deepEqual(answers, [
      { section: 'fake', value: { section: 'fake', answered: true } },
      { section: 'editor', value: { section: 'editor', answered: true } },
    ]);
    const n = c.messages.length;
    c.notify('workspace/didChangeConfiguration', { settings: null });
    await c.waitFor((m) => m.method === 'workspace/configuration', 5000, n);
  });

  it('fake/log records received messages; fake/trigger pushes, applies edits and refreshes', async () => {
    const c = start({ diagnostics: 'push' });
    await c.initialize();
    c.open(URI, 'ERROR');
    const logged = await c.call<Array<{ method?: string; id?: number }>>('fake/log');
    assert.deepEqual(
      logged.map((m) => m.method),
      ['initialize', 'initialized', 'textDocument/didOpen'],
    );
    const n = c.messages.length;
    const out = await c.call<Record<string, unknown>>('fake/trigger', {
      push: { uri: URI, content: 'empty' },
      applyEdit: { changes: { [URI]: [] } },
      refresh: true,
    });
    assert.deepEqual(out, { push: true, applyEdit: { applied: true }, refresh: null });
    const pushed = publishParams(await c.waitFor(isPublish, 5000, n));
    assert.deepEqual(pushed.diagnostics, []);
    await c.waitFor((m) => m.method === 'workspace/applyEdit', 5000, n);
    await c.waitFor((m) => m.method === 'workspace/diagnostic/refresh', 5000, n);
  });
});

describe('fake LSP server: failure modes', () => {
  it('hangOn never answers; $/cancelRequest → RequestCancelled', async () => {
    const c = start({ hangOn: ['textDocument/hover'] });
    await c.initialize();
    c.open(URI, 'word');
    const pending = c.request('textDocument/hover', { textDocument: { uri: URI }, position: pos(0, 1) }, 'h1');
    const other = await c.call('fake/documents');
    assert.equal((other as unknown[]).length, 1);
    assert.equal(c.messages.some((m) => m.id === 'h1'), false);
    c.notify('$/cancelRequest', { id: 'h1' });
    const res = await pending;
    assert.equal(res.error?.code, -32800);
  });

  it('delayMs delays the answer; cancel during the delay → RequestCancelled once', async () => {
    const c = start({ delayMs: { 'textDocument/hover': 300, 'textDocument/definition': 300 } });
    await c.initialize();
    c.open(URI, 'word');
    const t0 = Date.now();
    const hover = await c.request('textDocument/hover', { textDocument: { uri: URI }, position: pos(0, 1) });
    assert.ok(Date.now() - t0 >= 250);
    assert.ok(hover.result);
    const def = c.request('textDocument/definition', { textDocument: { uri: URI }, position: pos(0, 1) }, 'd1');
    c.notify('$/cancelRequest', { id: 'd1' });
    assert.equal((await def).error?.code, -32800);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(c.messages.filter((m) => m.id === 'd1').length, 1);
  });

  it('cancel while executeCommand awaits the client applyEdit → one RequestCancelled answer only', async () => {
    const c = start();
    await c.initialize();
    c.open(URI, 'x');
    c.handler = (method) => (method === 'workspace/applyEdit' ? new Promise((r) => setTimeout(() => r({ applied: true }), 300)) : null);
    const exec = c.request('workspace/executeCommand', { command: 'fake.applyViaServer', arguments: [{ uri: URI }] }, 'x1');
    await c.waitFor((m) => m.method === 'workspace/applyEdit');
    c.notify('$/cancelRequest', { id: 'x1' });
    assert.equal((await exec).error?.code, -32800);
    await new Promise((r) => setTimeout(r, 450));
    assert.equal(c.messages.filter((m) => m.id === 'x1').length, 1);
  });

  it('a client error to workspace/applyEdit fails executeCommand with it', async () => {
    const c = start();
    await c.initialize();
    c.open(URI, 'x');
    c.handler = (method) => {
      if (method === 'workspace/applyEdit') throw { code: -32001, message: 'denied', data: { by: 'test' } };
      return null;
    };
    const res = await c.request('workspace/executeCommand', { command: 'fake.applyViaServer', arguments: [{ uri: URI }] });
    assert.deepEqual(res.error, { code: -32001, message: 'denied', data: { by: 'test' } });
  });

  it('requests after shutdown → InvalidRequest; parse errors → -32700', async () => {
    const c = start();
    await c.initialize();
    const body = '{not json';
    c.writeRaw(`Content-Length: ${body.length}\r\n\r\n${body}`);
    const parseError = await c.waitFor((m) => m.error?.code === -32700);
    assert.equal(parseError.id, null);
    await c.call('shutdown');
    const late = await c.request('textDocument/hover', { textDocument: { uri: URI }, position: pos(0, 0) });
    assert.equal(late.error?.code, -32600);
    c.notify('exit');
    assert.equal(await c.exited, 0);
  });

  it('frames split across writes and several frames in one write are parsed', async () => {
    const c = start();
    const a = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'fake/documents' }));
    const b = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'b', method: 'fake/configuration' }));
    const all = Buffer.concat([Buffer.from(`Content-Length: ${a.length}\r\n\r\n`), a, Buffer.from(`Content-Length: ${b.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n`), b]);
    for (let i = 0; i < all.length; i += 7) {
      c.writeRaw(all.subarray(i, i + 7));
      await new Promise((r) => setTimeout(r, 1));
    }
    await c.waitFor((m) => m.id === 'b');
    assert.deepEqual(
      c.messages.map((m) => m.id),
      ['a', 'b'],
    );
  });

  it('crashOn writes a recognizable stderr line and exits 3', async () => {
    const c = start({ crashOn: ['textDocument/completion'] });
    await c.initialize();
    c.open(URI, 'x');
    void c.request('textDocument/completion', { textDocument: { uri: URI }, position: pos(0, 0) });
    assert.equal(await c.exited, 3);
    assert.match(c.stderr, /fake-lsp: crashing on textDocument\/completion/);
  });

  it('crashOn works for notifications too', async () => {
    const c = start({ crashOn: ['textDocument/didOpen'] });
    await c.initialize();
    c.open(URI, 'x');
    assert.equal(await c.exited, 3);
    assert.match(c.stderr, /crashing on textDocument\/didOpen/);
  });

  it('crashAfterMs', async () => {
    const c = start({ crashAfterMs: 150 });
    assert.equal(await c.exited, 3);
    assert.match(c.stderr, /fake-lsp: crashing after 150ms/);
  });

  for (const kind of ['invalid-json', 'invalid-header', 'bad-length', 'no-header'] as const) {
    it(`garbageOn (${kind}) answers with an unparseable frame`, async () => {
      const c = start({ garbageOn: ['textDocument/hover'], garbageKind: kind, diagnostics: 'none' });
      await c.initialize();
      c.open(URI, 'word');
      const before = c.raw.length;
      void c.request('textDocument/hover', { textDocument: { uri: URI }, position: pos(0, 1) }, 'g1');
      const deadline = Date.now() + 3000;
      while (c.raw.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 50));
      const text = c.raw.subarray(before).toString('utf8');
      assert.ok(text.length > 0, 'some bytes arrived');
      assert.equal(c.messages.some((m) => m.id === 'g1'), false, 'no valid response');
      if (kind === 'invalid-json') assert.match(text, /^Content-Length: \d+\r\n\r\n.*not json/s);
      if (kind === 'invalid-header') assert.doesNotMatch(text, /Content-Length/i);
      if (kind === 'bad-length') assert.match(text, /^Content-Length: banana/);
      if (kind === 'no-header') assert.match(text, /^\{"jsonrpc"/);
    });
  }

  it('oversizedOn answers with a huge but valid frame', async () => {
    const c = start({ oversizedOn: { method: 'textDocument/hover', bytes: 5_000_000 } });
    await c.initialize();
    c.open(URI, 'word');
    const res = await c.request('textDocument/hover', { textDocument: { uri: URI }, position: pos(0, 1) });
    const result = res.result as { contents: unknown; fakePadding: string };
    assert.ok(result.contents, 'normal result kept');
    assert.equal(result.fakePadding.length, 5_000_000);
  });

  it('errorOn answers a JSON-RPC error with data', async () => {
    const err = { code: -32803, message: 'nope', data: { why: 'scripted' } };
    const c = start({ errorOn: { 'textDocument/formatting': err } });
    await c.initialize();
    c.open(URI, 'x');
    const res = await c.request('textDocument/formatting', { textDocument: { uri: URI }, options: { tabSize: 2, insertSpaces: true } });
    assert.deepEqual(res.error, err);
  });
});

describe('fake LSP server: capabilities off and shapes', () => {
  it('capabilities false remove the provider and answer MethodNotFound', async () => {
    const c = start({ capabilities: { formatting: false, hover: false, prepareRename: false, completionResolve: false, codeActionResolve: false } });
    const init = await c.initialize();
    assert.equal(init.capabilities.documentFormattingProvider, undefined);
    assert.equal(init.capabilities.hoverProvider, undefined);
    assert.equal(init.capabilities.renameProvider, true);
    assert.deepEqual(init.capabilities.completionProvider, { resolveProvider: false, triggerCharacters: ['.'] });
    assert.equal((init.capabilities.codeActionProvider as { resolveProvider: boolean }).resolveProvider, false);
    c.open(URI, 'x');
    const res = await c.request('textDocument/formatting', { textDocument: { uri: URI }, options: { tabSize: 2, insertSpaces: true } });
    assert.equal(res.error?.code, -32601);
    const prep = await c.request('textDocument/prepareRename', { textDocument: { uri: URI }, position: pos(0, 0) });
    assert.equal(prep.error?.code, -32601);
  });

  it('hover shapes', async () => {
    for (const [hover, check] of [
      ['markup', (v: unknown) => assert.deepEqual(v, { kind: 'markdown', value: '**word** (fake hover)' })],
      ['marked-string', (v: unknown) => assert.equal(v, 'hover: word')],
      ['marked-string-array', (v: unknown) => assert.deepEqual(v, ['hover: word', { language: 'fake', value: 'word' }])],
    ] as const) {
      const c = start({ capabilities: { hover } });
      await c.initialize();
      c.open(URI, '😀 word');
      const h = await c.call<{ contents: unknown; range: unknown }>('textDocument/hover', { textDocument: { uri: URI }, position: pos(0, 4) });
      check(h.contents);
      assert.deepEqual(h.range, range(0, 3, 0, 7));
      const none = await c.call('textDocument/hover', { textDocument: { uri: URI }, position: pos(0, 0) });
      assert.equal(none, null);
    }
  });

  it('definition: location and location-link', async () => {
    const text = 'foo bar\n  foo';
    const c = start();
    await c.initialize();
    c.open(URI, text);
    assert.deepEqual(await c.call('textDocument/definition', { textDocument: { uri: URI }, position: pos(1, 3) }), { uri: URI, range: range(0, 0, 0, 3) });
    const d = start({ capabilities: { definition: 'location-link' } });
    await d.initialize();
    d.open(URI, text);
    assert.deepEqual(await d.call('textDocument/definition', { textDocument: { uri: URI }, position: pos(1, 3) }), [
      { originSelectionRange: range(1, 2, 1, 5), targetUri: URI, targetRange: range(0, 0, 0, 7), targetSelectionRange: range(0, 0, 0, 3) },
    ]);
  });

  it('documentSymbol hierarchical and flat; workspace/symbol filters by query', async () => {
    const text = 'class Shape {\n  function area() {}\n  function perimeter() {}\n}\nfunction main() {}\n';
    const c = start();
    await c.initialize();
    c.open(URI, text);
    const tree = await c.call<Array<{ name: string; kind: number; range: unknown; selectionRange: unknown; children: Array<{ name: string }> }>>('textDocument/documentSymbol', {
      textDocument: { uri: URI },
    });
    assert.deepEqual(
      tree.map((s) => [s.name, s.kind, s.children.map((ch) => ch.name)]),
      [
        ['Shape', 5, ['area', 'perimeter']],
        ['main', 12, []],
      ],
    );
    assert.deepEqual(tree[0]?.selectionRange, range(0, 6, 0, 11));
    assert.deepEqual(tree[0]?.range, range(0, 0, 2, 25));
    const ws = await c.call<Array<{ name: string }>>('workspace/symbol', { query: 'AR' });
    assert.deepEqual(
      ws.map((s) => s.name),
      ['area'],
    );
    const f = start({ capabilities: { documentSymbol: 'flat' } });
    await f.initialize();
    f.open(URI, text);
    const flat = await f.call<Array<{ name: string; containerName?: string; location: { uri: string } }>>('textDocument/documentSymbol', { textDocument: { uri: URI } });
    assert.deepEqual(
      flat.map((s) => [s.name, s.containerName]),
      [
        ['Shape', undefined],
        ['area', 'Shape'],
        ['perimeter', 'Shape'],
        ['main', undefined],
      ],
    );
    assert.equal(flat[0]?.location.uri, URI);
  });

  it('completion: list with sortText order ≠ label order, textEdits, resolve; array shape; isIncomplete', async () => {
    const c = start({ completionIsIncomplete: true });
    await c.initialize();
    c.open(URI, 'x = be');
    const list = await c.call<{ isIncomplete: boolean; items: Array<{ label: string; sortText: string; textEdit?: { range: unknown; newText: string } }> }>(
      'textDocument/completion',
      { textDocument: { uri: URI }, position: pos(0, 6) },
    );
    assert.equal(list.isIncomplete, true);
    const labels = list.items.map((i) => i.label);
    const bySort = [...list.items].sort((a, b) => a.sortText.localeCompare(b.sortText)).map((i) => i.label);
    assert.notDeepEqual(bySort, [...labels].sort());
    const beta = list.items.find((i) => i.label === 'beta');
    assert.deepEqual(beta?.textEdit, { range: range(0, 4, 0, 6), newText: 'betaValue' });
    const resolved = await c.call<{ documentation: { kind: string; value: string } }>('completionItem/resolve', beta);
    assert.equal(resolved.documentation.kind, 'markdown');
    const a = start({ completionShape: 'array' });
    await a.initialize();
    a.open(URI, 'x');
    const arr = await a.call<unknown[]>('textDocument/completion', { textDocument: { uri: URI }, position: pos(0, 1) });
    assert.ok(Array.isArray(arr) && arr.length === 4);
  });
});

describe('fake LSP server: code actions, commands, edits', () => {
  interface Action {
    title: string;
    kind?: string;
    command?: unknown;
    edit?: { changes?: Record<string, unknown[]>; documentChanges?: unknown[] };
    diagnostics?: Diag[];
    data?: unknown;
  }

  it('returns the seven deterministic actions', async () => {
    const c = start({ positionEncoding: 'utf-8' });
    await c.initialize(['utf-8']);
    c.open(URI, '😀 ERROR\nWARN');
    const actions = await c.call<Action[]>('textDocument/codeAction', { textDocument: { uri: URI }, range: range(0, 6, 0, 6), context: { diagnostics: [] } });
    assert.equal(actions.length, 7);
    const [fix, bare, both, resolvable, viaServer, second, create] = actions;
    // (1) edit + command, replacing the word (utf-8 columns)
    assert.deepEqual(fix?.edit, { changes: { [URI]: [{ range: range(0, 5, 0, 10), newText: 'FIXED' }] } });
    assert.ok(fix?.command);
    assert.equal(fix?.diagnostics?.[0]?.message, 'found ERROR');
    // (2) bare Command
    assert.deepEqual(bare, { title: 'Run fake command', command: 'fake.bare', arguments: [URI] });
    // (3) changes + documentChanges, different content
    assert.ok(both?.edit?.changes && both.edit.documentChanges);
    assert.notDeepEqual(JSON.stringify(both.edit.changes), JSON.stringify(both.edit.documentChanges));
    assert.match(JSON.stringify(both.edit.documentChanges), /from documentChanges/);
    // (4) data only → resolve adds an edit
    assert.equal(resolvable?.edit, undefined);
    assert.ok(resolvable?.data);
    const resolved = await c.call<Action>('codeAction/resolve', resolvable);
    assert.deepEqual(resolved.edit, { changes: { [URI]: [{ range: range(0, 5, 0, 10), newText: 'RESOLVED' }] } });
    // (5) command-only → executeCommand → workspace/applyEdit → client's answer returned
    assert.equal(viaServer?.edit, undefined);
    const cmd = viaServer?.command as { command: string; arguments: unknown[] };
    assert.equal(cmd.command, 'fake.applyViaServer');
    c.handler = (method) => (method === 'workspace/applyEdit' ? { applied: false, failureReason: 'test says no' } : null);
    const executed = await c.call('workspace/executeCommand', cmd);
    assert.deepEqual(executed, { applied: false, failureReason: 'test says no' });
    const applyReq = c.messages.find((m) => m.method === 'workspace/applyEdit');
    assert.match(JSON.stringify(applyReq?.params), /applied by server/);
    // (6) second file in the workspace
    assert.match(JSON.stringify(second?.edit), /file:\/\/\/work\/ws\/fake-second\.txt/);
    // (7) resource operation
    const ops = create?.edit?.documentChanges as Array<{ kind?: string; uri?: string }>;
    assert.equal(ops[0]?.kind, 'create');
    assert.equal(ops[0]?.uri, 'file:///work/ws/fake-created.txt');
    // every CodeAction lists the diagnostic in range
    for (const a of [fix, both, resolvable, viaServer, second, create]) assert.equal(a?.diagnostics?.length, 1, a?.title);
    // bare fake.bare executes to null
    assert.equal(await c.call('workspace/executeCommand', { command: 'fake.bare', arguments: [] }), null);
  });

  it('context.only filters by kind', async () => {
    const c = start();
    await c.initialize();
    c.open(URI, 'ERROR');
    const actions = await c.call<Action[]>('textDocument/codeAction', { textDocument: { uri: URI }, range: range(0, 0, 0, 0), context: { diagnostics: [], only: ['refactor'] } });
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Edit second file', 'Create file'],
    );
  });

  it('formatting trims trailing whitespace; range formatting only in range; no-op on clean text', async () => {
    const c = start();
    await c.initialize();
    c.open(URI, 'a  \nb\t\r\nc \n');
    const opts = { tabSize: 2, insertSpaces: true };
    assert.deepEqual(await c.call('textDocument/formatting', { textDocument: { uri: URI }, options: opts }), [
      { range: range(0, 1, 0, 3), newText: '' },
      { range: range(1, 1, 1, 2), newText: '' },
      { range: range(2, 1, 2, 2), newText: '' },
    ]);
    assert.deepEqual(await c.call('textDocument/rangeFormatting', { textDocument: { uri: URI }, range: range(1, 0, 1, 1), options: opts }), [
      { range: range(1, 1, 1, 2), newText: '' },
    ]);
    c.notify('textDocument/didChange', { textDocument: { uri: URI, version: 2 }, contentChanges: [{ text: 'clean\n' }] });
    assert.deepEqual(await c.call('textDocument/formatting', { textDocument: { uri: URI }, options: opts }), []);
  });

  it('prepareRename / rename', async () => {
    const c = start();
    await c.initialize();
    c.open(URI, 'foo(foo) + foobar', 5);
    assert.deepEqual(await c.call('textDocument/prepareRename', { textDocument: { uri: URI }, position: pos(0, 5) }), { range: range(0, 4, 0, 7), placeholder: 'foo' });
    assert.equal(await c.call('textDocument/prepareRename', { textDocument: { uri: URI }, position: pos(0, 9) }), null);
    assert.deepEqual(await c.call('textDocument/rename', { textDocument: { uri: URI }, position: pos(0, 1), newName: 'bar' }), {
      documentChanges: [
        {
          textDocument: { uri: URI, version: 5 },
          edits: [
            { range: range(0, 0, 0, 3), newText: 'bar' },
            { range: range(0, 4, 0, 7), newText: 'bar' },
          ],
        },
      ],
    });
  });

  it('references, signatureHelp, inlayHint', async () => {
    const c = start({ positionEncoding: 'utf-32' });
    await c.initialize(['utf-32']);
    c.open(URI, '😀 ERROR ERROR\nfake(1, ');
    const refs = await c.call<unknown[]>('textDocument/references', { textDocument: { uri: URI }, position: pos(0, 3), context: { includeDeclaration: true } });
    assert.deepEqual(refs, [
      { uri: URI, range: range(0, 2, 0, 7) },
      { uri: URI, range: range(0, 8, 0, 13) },
    ]);
    const noDecl = await c.call<unknown[]>('textDocument/references', { textDocument: { uri: URI }, position: pos(0, 3), context: { includeDeclaration: false } });
    assert.equal(noDecl.length, 1);
    const sig = await c.call<{ activeParameter: number; signatures: unknown[] }>('textDocument/signatureHelp', { textDocument: { uri: URI }, position: pos(1, 8) });
    assert.equal(sig.activeParameter, 1);
    assert.equal(sig.signatures.length, 1);
    assert.equal(await c.call('textDocument/signatureHelp', { textDocument: { uri: URI }, position: pos(0, 0) }), null);
    const hints = await c.call<Array<{ position: unknown; label: string }>>('textDocument/inlayHint', { textDocument: { uri: URI }, range: range(0, 0, 1, 0) });
    assert.deepEqual(
      hints.map((h) => h.position),
      [pos(0, 7), pos(0, 13)],
    );
  });
});
