/**
 * Servers started before the engine (prestarted-servers.ts; check on TypeScript 7, decision
 * 0113): the pool takes one only when it is the very process it would start, and then starts
 * none of its own; a different process is left to its host. Real harness services, the fake server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveConfig, ServerConfig } from '../../src/config.ts';
import { LanguageClient } from '../../src/lsp/language-client.ts';
import { offerPrestartedServer, serverFingerprint, takePrestartedServer } from '../../src/lsp/prestarted-servers.ts';
import { createHarnessServices, type HarnessServices } from '../support/harness-services.ts';
import { fakeEntry, makeConfig, makeWorkspace, startEngine, type Workspace } from './engine-fixture.ts';

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

describe('the pool and a server started ahead', () => {
  it('takes the very process it would start: no second spawn, and the answers come from it', async () => {
    const config = makeConfig({ fake: fakeEntry({ diagnostics: 'pull' }) });
    const entry = config.servers['fake'] as ServerConfig;
    const file = await ws.write('a/one.txt', 'ERROR here\n');
    const client = new LanguageClient({ serverId: 'fake', root: ws.root, config: entry, executable: entry.command, subprocess: services.subprocess, log: () => undefined });
    const started = client.start();
    const withdraw = offerPrestartedServer({ serverId: 'fake', root: ws.root, fingerprint: serverFingerprint(entry, entry.command), client, started });
    const f = await startEngine(config);
    try {
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

  it('leaves a process started with another entry to its host, and starts its own', async () => {
    const config = makeConfig({ fake: fakeEntry({ diagnostics: 'pull' }) });
    const entry = config.servers['fake'] as ServerConfig;
    const file = await ws.write('b/two.txt', 'fine\n');
    const other = { ...entry, env: { ...entry.env, DIFFERENT: '1' } };
    const client = new LanguageClient({ serverId: 'fake', root: ws.root, config: other, executable: other.command, subprocess: services.subprocess, log: () => undefined });
    const started = client.start();
    const withdraw = offerPrestartedServer({ serverId: 'fake', root: ws.root, fingerprint: serverFingerprint(other, other.command), client, started });
    const f = await startEngine(config);
    try {
      await f.engine.diagnostics({ root: ws.root, path: file });
      assert.notEqual(f.client('fake'), client);
      assert.equal(withdraw(), true, 'still offered: the host stops it');
    } finally {
      await client.stop();
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
