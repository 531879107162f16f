/**
 * LanguageClient against the scriptable fake server, spawned through the REAL harness
 * subprocess service: cancel, crash, garbage, oversized frames, shutdown, server requests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveConfig, type ServerConfig } from '../../src/config.ts';
import { isActionError, type ActionError } from '../../src/errors.ts';
import { LanguageClient } from '../../src/lsp/language-client.ts';
import type { FakeScenario } from '../fixtures/fake-lsp-scenario.ts';
import { createHarnessServices, type HarnessServices } from '../support/harness-services.ts';
import { fakeEntry, makeWorkspace, processAlive, type Workspace } from './engine-fixture.ts';

let services: HarnessServices;
let ws: Workspace;
const started: LanguageClient[] = [];

before(async () => {
  services = await createHarnessServices();
  ws = await makeWorkspace('lsp-client-');
});
after(async () => {
  await Promise.all(started.map((c) => c.stop()));
  await services.dispose();
  await ws.remove();
});

async function client(scenario: FakeScenario, entry: Partial<ServerConfig> = {}): Promise<LanguageClient> {
  const config = resolveConfig({ servers: { fake: fakeEntry(scenario, entry) } }).servers.fake as ServerConfig;
  const c = new LanguageClient({ serverId: 'fake', root: ws.root, config, executable: config.command, subprocess: services.subprocess, log: () => undefined });
  started.push(c);
  await c.start();
  return c;
}

const code = (expected: string) => (e: unknown) => {
  assert.ok(isActionError(e), `expected an ActionError, got ${String(e)}`);
  assert.equal(e.code, expected, e.message);
  return true;
};

const hoverParams = { textDocument: { uri: 'file:///nowhere.txt' }, position: { line: 0, character: 0 } };

describe('LanguageClient (fake server)', () => {
  it('cancels a hanging request: rejects at once with CANCELLED and sends $/cancelRequest', async () => {
    const c = await client({ hangOn: ['textDocument/hover'] });
    const controller = new AbortController();
    const pending = c.request('textDocument/hover', hoverParams, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const t0 = performance.now();
    await assert.rejects(pending, code('LSP_ACTION_CANCELLED'));
    assert.ok(performance.now() - t0 < 1000);
    const log = await c.request<Array<{ method?: string; params?: { id?: unknown } }>>('fake/log', undefined);
    const hover = log.find((m) => m.method === 'textDocument/hover') as { id?: unknown } | undefined;
    assert.ok(log.some((m) => m.method === '$/cancelRequest' && m.params?.id === hover?.id), 'the server was told to cancel that very request');
    await assert.rejects(c.request('textDocument/hover', hoverParams, AbortSignal.timeout(50)), code('LSP_ACTION_TIMEOUT'));
    assert.equal(c.state, 'ready', 'the connection survives cancellations');
    await c.stop();
  });

  it('runs requests concurrently: a hanging one does not block others', async () => {
    const c = await client({ delayMs: { 'textDocument/hover': 1500 } });
    const slow = c.request('textDocument/hover', hoverParams);
    const t0 = performance.now();
    await c.request('fake/documents', undefined);
    assert.ok(performance.now() - t0 < 1000, 'answered while the hover was still held back');
    // the fake does not know the document: its error comes back intact
    await assert.rejects(slow, (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_PEER_ERROR' && e.details.peer?.code === -32602);
    await c.stop();
  });

  it('fails every pending request with SERVER_CRASHED and the stderr tail when the server dies mid-request', async () => {
    const c = await client({ crashOn: ['textDocument/completion'], hangOn: ['textDocument/hover'] });
    let failure: ActionError | undefined;
    c.onDidFail((e) => (failure = e));
    const hanging = c.request('textDocument/hover', hoverParams);
    const crashing = c.request('textDocument/completion', hoverParams);
    for (const p of [hanging, crashing]) {
      await assert.rejects(p, (e: unknown) => {
        assert.ok(isActionError(e) && e.code === 'LSP_ACTION_SERVER_CRASHED', String(e));
        assert.match(String(e.details.stderrTail), /crashing on textDocument\/completion/);
        assert.equal(e.details.exitCode, 3);
        return true;
      });
    }
    assert.equal(failure?.code, 'LSP_ACTION_SERVER_CRASHED');
    assert.equal(c.state, 'failed');
    await assert.rejects(c.request('textDocument/hover', hoverParams), code('LSP_ACTION_SERVER_CRASHED'));
  });

  for (const garbageKind of ['invalid-json', 'invalid-header', 'bad-length', 'no-header'] as const) {
    it(`fails the connection cleanly on a ${garbageKind} frame: MALFORMED_RESPONSE for every pending request, process stopped`, async () => {
      const c = await client({ garbageOn: ['textDocument/hover'], garbageKind, hangOn: ['textDocument/definition'] });
      const pid = c.pid;
      const other = c.request('textDocument/definition', hoverParams);
      await assert.rejects(c.request('textDocument/hover', hoverParams, AbortSignal.timeout(5000)), code('LSP_ACTION_MALFORMED_RESPONSE'));
      await assert.rejects(other, code('LSP_ACTION_MALFORMED_RESPONSE'));
      assert.equal(c.state, 'failed');
      await c.stop();
      assert.equal(await processAlive(pid ?? -1), false);
    });
  }

  it('refuses a frame over maxMessageBytes without buffering it', async () => {
    const c = await client({ oversizedOn: { method: 'textDocument/hover', bytes: 3 * 1024 * 1024 } }, { maxMessageBytes: 1024 * 1024 });
    const uri = `file://${await ws.write('big-answer.txt', 'word')}`;
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text: 'word' } });
    await assert.rejects(c.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 1 } }), (e: unknown) => {
      assert.ok(isActionError(e) && e.code === 'LSP_ACTION_MALFORMED_RESPONSE');
      assert.equal(e.details.reason, 'oversized');
      assert.match(e.message, /maxMessageBytes/);
      return true;
    });
  });

  it('shuts down with shutdown/exit without a params member (a TS7-like server accepts it) and leaves no process', async () => {
    const c = await client({ rejectNullParams: true, exitCodeOnExit: 1 }, { shutdownTimeoutMs: 10_000, killGraceMs: 10_000 });
    const pid = c.pid ?? -1;
    assert.equal(await processAlive(pid), true);
    const t0 = performance.now();
    await c.stop();
    assert.ok(performance.now() - t0 < 5000, 'orderly exit, not the shutdown timeout');
    assert.equal(await processAlive(pid), false);
    assert.equal(c.state, 'stopped');
  });

  it('fails a start that exceeds startupTimeoutMs with TIMEOUT and kills the process', async () => {
    const config = resolveConfig({ servers: { fake: fakeEntry({ delayMs: { initialize: 5000 } }, { startupTimeoutMs: 300 }) } }).servers.fake as ServerConfig;
    const c = new LanguageClient({ serverId: 'fake', root: ws.root, config, executable: config.command, subprocess: services.subprocess, log: () => undefined });
    started.push(c);
    await assert.rejects(c.start(), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_TIMEOUT' && /startupTimeoutMs/.test(e.message));
    await c.stop();
    assert.equal(await processAlive(c.pid ?? -1), false);
  });

  it('answers configuration, records registrations, tracks progress and refuses an unexpected applyEdit', async () => {
    const c = await client(
      {
        configurationSections: ['fake', 'fake.level', ''],
        registerOnInitialized: ['workspace/didChangeWatchedFiles', { method: 'textDocument/formatting', id: 'fmt', registerOptions: {} }],
        progressOnInitialized: { durationMs: 400 },
        capabilities: { formatting: false },
      },
      { configuration: { fake: { level: 7 } } },
    );
    const busy = c.progress.busy || (await new Promise<boolean>((resolve) => c.progress.onDidChange(() => resolve(c.progress.busy))));
    assert.equal(busy, true, 'progress begin seen');
    await new Promise<void>((resolve) => c.progress.onDidChange(() => !c.progress.busy && resolve()));
    const answers = await c.request<Array<{ section: string; value: unknown }>>('fake/configuration', undefined);
    assert.deepEqual(answers, [
      { section: 'fake', value: { level: 7 } },
      { section: 'fake.level', value: 7 },
      { section: '', value: { fake: { level: 7 } } },
    ]);
    assert.equal(c.registry.has('textDocument/formatting'), true, 'formatting registered dynamically');
    const triggered = await c.request<{ applyEdit?: { applied: boolean; failureReason?: string } }>('fake/trigger', { applyEdit: { changes: {} } });
    assert.equal(triggered.applyEdit?.applied, false);
    assert.match(triggered.applyEdit?.failureReason ?? '', /executeCommand/);
    let refreshed = 0;
    c.onRefresh(() => refreshed++);
    await c.request('fake/trigger', { refresh: true });
    assert.equal(refreshed, 1);
    await c.stop();
  });
});
