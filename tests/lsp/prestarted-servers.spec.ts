/**
 * Servers started before the engine (prestarted-servers.ts; check on TypeScript 7, decision
 * 0113): the pool takes one only for a warm start (whose epoch covers it) and only when it is
 * the very process it would start, and then starts none of its own; otherwise it is left to its
 * host. Real harness services, the fake server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { URI } from 'vscode-uri';
import { takeFileSnapshot } from '../../src/cli/file-snapshot.ts';
import { nodeWorkspaceWatch } from '../../src/documents/node-workspace-watcher.ts';
import { prestartWatch } from '../../src/documents/prestarted-watches.ts';
import { type Config, resolveConfig, ServerConfig } from '../../src/config.ts';
import { LanguageClient } from '../../src/lsp/language-client.ts';
import { offerPrestartedServer, serverFingerprint, takePrestartedServer } from '../../src/lsp/prestarted-servers.ts';
import { createHarnessServices, type HarnessServices } from '../support/harness-services.ts';
import { type EngineFixture, fakeEntry, makeConfig, makeWorkspace, startEngine, type Workspace } from './engine-fixture.ts';

let ws: Workspace;
let services: HarnessServices;
before(async () => {
  ws = await makeWorkspace('lsp-prestarted-');
  services = await createHarnessServices();
});
after(async () => {
  await services.dispose();
  await ws.remove();
});

describe('serverFingerprint', () => {
  it('is the same for an entry however built, and differs for another process', () => {
    const raw = fakeEntry({}, { env: { A: '1' } });
    const normalised = resolveConfig({ servers: { fake: raw } }).servers['fake'] as ServerConfig;
    const reordered = Object.fromEntries(Object.entries(normalised).toReversed()) as ServerConfig;
    const base = serverFingerprint(normalised, '/bin/x');
    assert.equal(serverFingerprint(reordered, '/bin/x'), base);
    assert.equal(serverFingerprint(ServerConfig(raw as unknown as ServerConfig), '/bin/x'), base);
    assert.notEqual(serverFingerprint(normalised, '/bin/y'), base);
    assert.notEqual(serverFingerprint({ ...normalised, env: { A: '2' } }, '/bin/x'), base);
    assert.notEqual(serverFingerprint({ ...normalised, args: [...normalised.args, '--more'] }, '/bin/x'), base);
  });
});

/** A pull fake's config (answers unopened pulls, as TypeScript 7's preset says). */
const pullConfig = (): Config => makeConfig({ fake: fakeEntry({ diagnostics: 'pull' }, { pullsUnopenedFiles: true }) });

/**
 * Starts a client as a host does before the engine exists, and offers it.
 * @returns the client, its start, and the host's withdrawal
 */
function offerStarted(entry: ServerConfig): { client: LanguageClient; started: Promise<void>; withdraw: () => boolean } {
  const client = new LanguageClient({ serverId: 'fake', root: ws.root, config: entry, executable: entry.command, subprocess: services.subprocess, log: () => undefined });
  const started = client.start();
  // a stop while it still starts fails the start: the host's early server ignores that too
  started.catch(() => undefined);
  const withdraw = offerPrestartedServer({ serverId: 'fake', root: ws.root, fingerprint: serverFingerprint(entry, entry.command), client, started });
  return { client, started, withdraw };
}

/**
 * Offers a process started with `offered`, has an engine on `config` start its own through
 * `start`, and checks the pool did not take the offer: it stays the host's to stop.
 */
async function assertLeftToHost(config: Config, offered: ServerConfig, start: (f: EngineFixture) => Promise<unknown>): Promise<void> {
  const { client, withdraw } = offerStarted(offered);
  const f = await startEngine(config);
  try {
    await start(f);
    assert.notEqual(f.client('fake'), client);
    assert.equal(withdraw(), true, 'still offered: the host stops it');
  } finally {
    await client.stop();
    await f.close();
  }
}

describe('the pool and a server started ahead', () => {
  it("a warm start takes the very process it would start: no second spawn, the epoch covers it, the answers come from it", async () => {
    const config = pullConfig();
    const entry = config.servers['fake'] as ServerConfig;
    const file = await ws.write('a/one.txt', 'ERROR here\n');
    const snapshot = takeFileSnapshot([file]);
    const { client, withdraw } = offerStarted(entry);
    const f = await startEngine(config);
    try {
      const { epoch } = await f.engine.warmStart('fake', file, ws.root, snapshot);
      assert.ok(epoch !== undefined, 'no process of the key existed before: the snapshot is its epoch');
      const result = await f.engine.diagnostics({ root: ws.root, path: file });
      assert.equal(result.state, 'fresh');
      assert.equal(f.clients().length, 1);
      assert.equal(f.client('fake'), client, 'the pool uses the process started ahead');
      assert.ok(f.logs.some((line) => line.includes('took the process started before the engine')), f.logs.join('\n'));
      assert.equal(withdraw(), false, 'taken: nothing left for the host to stop');
    } finally {
      await f.close();
    }
    assert.equal(client.state, 'stopped', "the engine's dispose stops the process it took");
  });

  it('a start that is not a warm start (no epoch to cover it) leaves the process to its host', async () => {
    const config = pullConfig();
    const entry = config.servers['fake'] as ServerConfig;
    const file = await ws.write('c/three.txt', 'fine\n');
    await assertLeftToHost(config, entry, (f) => f.engine.diagnostics({ root: ws.root, path: file }));
  });

  it('leaves a process started with another entry to its host, and starts its own', async () => {
    const config = pullConfig();
    const entry = config.servers['fake'] as ServerConfig;
    const file = await ws.write('b/two.txt', 'fine\n');
    const other = { ...entry, env: { ...entry.env, DIFFERENT: '1' } };
    await assertLeftToHost(config, other, (f) => f.engine.warmStart('fake', file, ws.root, takeFileSnapshot([file])));
  });

  it('a file changed after the early spawn, before the engine existed, reaches the server through the watch started ahead', async () => {
    const config = pullConfig();
    const entry = config.servers['fake'] as ServerConfig;
    const seed = await ws.write('d/seed.txt', 'fine\n');
    const other = await ws.write('d/other.txt', 'fine\n');
    // the host's order (early-typescript-server.ts): snapshot, watch, spawn
    const snapshot = takeFileSnapshot([seed, other]);
    const watch = prestartWatch(nodeWorkspaceWatch(), ws.root);
    const { client, started } = offerStarted(entry);
    await started;
    // saved by someone else while the engine does not exist yet
    await ws.write('d/other.txt', 'ERROR now\n');
    await new Promise((r) => setTimeout(r, 300));
    const f = await startEngine(config, { watch: nodeWorkspaceWatch({ takePrestarted: true }) });
    try {
      await f.engine.warmStart('fake', seed, ws.root, snapshot);
      assert.equal(watch.taken, true, "the engine's watcher took the watch started ahead");
      await f.engine.diagnosticsMany(ws.root, [seed]);
      const log = await client.request<Array<{ method?: string; params?: { changes?: Array<{ uri: string }> } }>>('fake/log', undefined);
      const told = log.filter((m) => m.method === 'workspace/didChangeWatchedFiles').flatMap((m) => m.params?.changes ?? []).map((c) => c.uri);
      assert.ok(told.includes(URI.file(other).toString()), `the server was told of the save: ${JSON.stringify(told)}`);
    } finally {
      watch.stop();
      await f.close();
    }
  });

  it('never hands out a process that failed or stopped', async () => {
    const config = makeConfig({ fake: fakeEntry({}) });
    const entry = config.servers['fake'] as ServerConfig;
    const client = new LanguageClient({ serverId: 'fake', root: ws.root, config: entry, executable: entry.command, subprocess: services.subprocess, log: () => undefined });
    await client.start();
    await client.stop();
    const fingerprint = serverFingerprint(entry, entry.command);
    const withdraw = offerPrestartedServer({ serverId: 'fake', root: ws.root, fingerprint, client, started: Promise.resolve() });
    assert.equal(takePrestartedServer('fake', ws.root, fingerprint), undefined);
    assert.equal(withdraw(), true);
  });
});
