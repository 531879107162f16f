/**
 * The server listing's failure path (server-program-listing.ts): a server without TypeScript 7's
 * API session (the fake answers MethodNotFound) gives no listing — the compiler's listing is run —
 * and leaves no socket directory behind. The real server's answers: server-program-listing.e2e.ts.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listProgramFromServer } from '../../src/cli/server-program-listing.ts';
import { resolveConfig, type ServerConfig } from '../../src/config.ts';
import { LanguageClient } from '../../src/lsp/language-client.ts';
import { createHarnessServices, type HarnessServices } from '../support/harness-services.ts';
import { fakeEntry, makeWorkspace, type Workspace } from '../lsp/engine-fixture.ts';

let ws: Workspace;
let services: HarnessServices;
before(async () => {
  ws = await makeWorkspace('server-listing-');
  services = await createHarnessServices();
});
after(async () => {
  await services.dispose();
  await ws.remove();
});

const apiDirs = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('dsh-lsp-api-'));

describe('listProgramFromServer on a server without the API session', () => {
  it('gives no listing, says why, and leaves no socket directory', async () => {
    const entry = resolveConfig({ servers: { fake: fakeEntry({ diagnostics: 'pull' }) } }).servers['fake'] as ServerConfig;
    const client = new LanguageClient({ serverId: 'fake', root: ws.root, config: entry, executable: entry.command, subprocess: services.subprocess, log: () => undefined });
    const dirsBefore = apiDirs();
    try {
      await client.start();
      const logs: string[] = [];
      const listing = await listProgramFromServer(client, join(ws.root, 'tsconfig.json'), { log: (_level, message) => logs.push(message) });
      assert.equal(listing, undefined);
      assert.match(logs.join('\n'), /no listing from the server \(.*Unhandled method custom\/initializeAPISession.*\); the compiler's listing is run/);
      assert.equal(client.state, 'ready', 'the server keeps serving');
    } finally {
      await client.stop();
    }
    assert.deepEqual(apiDirs(), dirsBefore);
  });
});
