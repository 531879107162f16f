import assert from 'node:assert/strict';
import { unlink } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { DocumentStore } from '../../src/documents/document-store.ts';
import type { PositionEncodingKind } from '../../src/documents/position-encoding.ts';
import { isActionError } from '../../src/errors.ts';
import { CapabilityRegistry } from '../../src/lsp/capability-registry.ts';
import type { LanguageClient } from '../../src/lsp/language-client.ts';
import { createHarnessServices, type HarnessServices } from '../support/harness-services.ts';
import { makeWorkspace, type Workspace } from '../lsp/engine-fixture.ts';

interface Sent {
  method: string;
  params: any;
}

function stubClient(serverId: string, sync: 1 | 2, encoding: PositionEncodingKind = 'utf-16'): LanguageClient & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    serverId,
    root: '/w',
    state: 'ready',
    encoding,
    registry: new CapabilityRegistry({ textDocumentSync: { openClose: true, change: sync } }),
    notify: (method: string, params: unknown) => sent.push({ method, params }),
    sent,
  } as unknown as LanguageClient & { sent: Sent[] };
}

describe('DocumentStore', () => {
  let ws: Workspace;
  let services: HarnessServices;
  const events: string[] = [];
  const store = (max = 10) =>
    new DocumentStore({
      fs: services.fs,
      maxOpenDocuments: max,
      log: () => undefined,
      listener: {
        onSent: (c, p, _u, v) => events.push(`${c.serverId} sent ${p.split('/').pop()} v${v}`),
        onClosed: (c, p) => events.push(`${c.serverId} closed ${p.split('/').pop()}`),
      },
    });
  before(async () => {
    ws = await makeWorkspace('lsp-docs-');
    services = await createHarnessServices();
  });
  after(async () => {
    await services.dispose();
    await ws.remove();
  });

  it('opens once, then sends one incremental change per content change, versioned', async () => {
    const s = store();
    const c = stubClient('inc', 2);
    const path = await ws.write('a.txt', 'line one\r\nline two\r\n');
    const d1 = s.acquire(c, await s.read(path, undefined, 1 << 20), 'plaintext', ws.root);
    s.release(d1);
    s.release(s.acquire(c, await s.read(path, undefined, 1 << 20), 'plaintext', ws.root));
    assert.equal(c.sent.length, 1, 'unchanged content sends nothing');
    assert.equal(c.sent[0]?.method, 'textDocument/didOpen');
    assert.equal(c.sent[0]?.params.textDocument.version, 1);
    await ws.write('a.txt', 'line one\r\nline 2\r\n');
    const state = await s.read(path, undefined, 1 << 20);
    assert.equal(state.version, 2);
    s.release(s.acquire(c, state, 'plaintext', ws.root));
    assert.deepEqual(c.sent[1], {
      method: 'textDocument/didChange',
      params: {
        textDocument: { uri: `file://${path}`, version: 2 },
        contentChanges: [{ range: { start: { line: 1, character: 5 }, end: { line: 1, character: 8 } }, text: '2' }],
      },
    });
    assert.deepEqual(s.documentText(path), { text: 'line one\r\nline 2\r\n', version: 2 });
  });

  it('sends full text to full-sync servers and converts incremental ranges for utf-8 servers', async () => {
    const s = store();
    const full = stubClient('full', 1);
    const utf8 = stubClient('utf8', 2, 'utf-8');
    const path = await ws.write('b.txt', 'é😀 x\n');
    const st = await s.read(path, undefined, 1 << 20);
    s.release(s.acquire(full, st, 'plaintext', ws.root));
    s.release(s.acquire(utf8, st, 'plaintext', ws.root));
    const next = await s.read(path, 'é😀 yz\n', 1 << 20);
    s.release(s.acquire(full, next, 'plaintext', ws.root));
    s.release(s.acquire(utf8, next, 'plaintext', ws.root));
    assert.deepEqual(full.sent[1]?.params.contentChanges, [{ text: 'é😀 yz\n' }]);
    // "é😀 " is 4 UTF-16 units but 7 UTF-8 bytes
    assert.deepEqual(utf8.sent[1]?.params.contentChanges, [{ range: { start: { line: 0, character: 7 }, end: { line: 0, character: 8 } }, text: 'yz' }]);
    assert.equal(next.version, 2, 'overlay text counts as content');
  });

  it('closes a deleted file everywhere and reports FILE_NOT_FOUND', async () => {
    events.length = 0;
    const s = store();
    const c = stubClient('x', 2);
    const path = await ws.write('gone.txt', 'bye');
    s.release(s.acquire(c, await s.read(path, undefined, 1 << 20), 'plaintext', ws.root));
    await unlink(path);
    await assert.rejects(s.read(path, undefined, 1 << 20), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_FILE_NOT_FOUND');
    assert.equal(c.sent.at(-1)?.method, 'textDocument/didClose');
    assert.deepEqual(events, ['x sent gone.txt v1', 'x closed gone.txt']);
    assert.equal(s.documentText(path), undefined);
  });

  it('refuses documents over maxDocumentBytes, from disk and as overlay', async () => {
    const s = store();
    const path = await ws.write('big.txt', 'x'.repeat(3000));
    await assert.rejects(s.read(path, undefined, 2048), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_FILE_TOO_LARGE');
    await assert.rejects(s.read(path, 'y'.repeat(3000), 2048), (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_FILE_TOO_LARGE');
  });

  it('closes the least recently used unpinned document beyond maxOpenDocuments, never a pinned one', async () => {
    const s = store(2);
    const c = stubClient('lru', 2);
    const p1 = await ws.write('l1.txt', '1');
    const p2 = await ws.write('l2.txt', '2');
    const p3 = await ws.write('l3.txt', '3');
    const d1 = s.acquire(c, await s.read(p1, undefined, 1 << 20), 'plaintext', ws.root); // stays pinned
    s.release(s.acquire(c, await s.read(p2, undefined, 1 << 20), 'plaintext', ws.root));
    s.release(s.acquire(c, await s.read(p3, undefined, 1 << 20), 'plaintext', ws.root));
    assert.deepEqual(s.openPaths(), [p1, p3], 'l2 (least recent, unpinned) was closed; pinned l1 survived');
    assert.deepEqual(c.sent.filter((m) => m.method === 'textDocument/didClose').map((m) => m.params.textDocument.uri), [`file://${p2}`]);
    s.release(d1);
    assert.equal(s.countFor(c), 2);
  });

  it('keeps versions growing across close and reopen, and reopen resends the same version', async () => {
    const s = store(1);
    const c = stubClient('v', 2);
    const pa = await ws.write('va.txt', 'a');
    const pb = await ws.write('vb.txt', 'b');
    s.release(s.acquire(c, await s.read(pa, undefined, 1 << 20), 'plaintext', ws.root));
    await ws.write('va.txt', 'a2');
    s.release(s.acquire(c, await s.read(pa, undefined, 1 << 20), 'plaintext', ws.root));
    s.release(s.acquire(c, await s.read(pb, undefined, 1 << 20), 'plaintext', ws.root)); // evicts va
    await ws.write('va.txt', 'a3');
    const again = await s.read(pa, undefined, 1 << 20);
    assert.equal(again.version, 3);
    s.release(s.acquire(c, again, 'plaintext', ws.root));
    assert.equal(s.reopen(c, pa), true);
    assert.deepEqual(c.sent.slice(-2).map((m) => [m.method, m.params.textDocument.version]), [
      ['textDocument/didClose', undefined],
      ['textDocument/didOpen', 3],
    ]);
  });

  it('prunes the per-path version table when documents close or their server goes away; versions still only grow', async () => {
    const s = store(1);
    // the table is private; read its size to prove it stays bounded
    const tracked = (): number => (s as unknown as { lastVersions: Map<string, number> }).lastVersions.size;
    const c = stubClient('prune', 2);
    const paths: string[] = [];
    for (let i = 0; i < 20; i++) paths.push(await ws.write(`p${i}.txt`, `text ${i}`));
    for (const path of paths) s.release(s.acquire(c, await s.read(path, undefined, 1 << 20), 'plaintext', ws.root));
    assert.equal(tracked(), 1, 'only the one open document (cap 1) keeps an entry');
    // p0 was closed at version 1; reopened with new text, its version is above every version pruned so far
    await ws.write('p0.txt', 'text 0 again');
    const again = await s.read(paths[0] as string, undefined, 1 << 20);
    assert.ok(again.version > 1, `p0 reopened at ${again.version}`);
    s.release(s.acquire(c, again, 'plaintext', ws.root));
    assert.equal(tracked(), 1);
    s.forgetClient(c);
    assert.equal(tracked(), 0, 'a server that went away leaves no entry');
    const afterGone = await s.read(paths[0] as string, undefined, 1 << 20);
    assert.ok(afterGone.version > again.version, `p0 after its server went away: ${afterGone.version} > ${again.version}`);
    s.closeEverywhere(paths[0] as string);
    assert.equal(tracked(), 0, 'a deleted file leaves no entry');
  });
});

/** An fs over one in-memory file whose `readText` waits until released, counting reads. */
function gatedFs(initial: string) {
  const fs = {
    content: initial,
    reads: 0,
    gates: [] as Array<() => void>,
    resolve: async (path: string) => path,
    stat: async () => ({ type: 'file', size: Buffer.byteLength(fs.content, 'utf8'), version: 'v' }),
    readText: async () => {
      fs.reads++;
      const seen = fs.content; // what was on disk when the read began
      await new Promise<void>((resolve) => fs.gates.push(resolve));
      return seen;
    },
    /** Releases every read waiting now, then lets the next ones start. */
    async flush() {
      for (let i = 0; i < 20; i++) {
        const open = fs.gates.splice(0);
        for (const release of open) release();
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
  return fs;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

const storeOver = (fs: ReturnType<typeof gatedFs>) =>
  new DocumentStore({
    fs: fs as unknown as ConstructorParameters<typeof DocumentStore>[0]['fs'],
    maxOpenDocuments: 10,
    log: () => undefined,
    listener: { onSent: () => undefined, onClosed: () => undefined },
  });

describe('DocumentStore.read coalescing', () => {

  it('shares one read among callers that arrive before it starts', async () => {
    const fs = gatedFs('one');
    const s = storeOver(fs);
    const all = Promise.all([s.read('/f', undefined, 1024), s.read('/f', undefined, 1024), s.read('/f', undefined, 1024)]);
    await fs.flush();
    const states = await all;
    assert.equal(fs.reads, 1);
    assert.deepEqual(states.map((x) => [x.text, x.version]), [['one', 1], ['one', 1], ['one', 1]]);
    assert.notEqual(states[0], states[1], 'each caller gets its own copy');
  });

  it('never joins a read already in flight: later callers queue one new read and share it', async () => {
    const fs = gatedFs('old');
    const s = storeOver(fs);
    const a = s.read('/f', undefined, 1024);
    await settle();
    assert.equal(fs.reads, 1, 'a is reading');
    fs.content = 'new'; // changed on disk after a's read began
    const b = s.read('/f', undefined, 1024);
    const c = s.read('/f', undefined, 1024);
    await fs.flush();
    assert.deepEqual([(await a).text, (await b).text, (await c).text], ['old', 'new', 'new']);
    assert.equal(fs.reads, 2, 'b and c shared the read queued behind a');
    assert.equal((await b).version, 2);
    // once that read started, a newcomer starts another
    const d = s.read('/f', undefined, 1024);
    await settle();
    const e = s.read('/f', undefined, 1024);
    await fs.flush();
    await Promise.all([d, e]);
    assert.equal(fs.reads, 4);
  });

  it('does not share overlay reads or reads with another size limit', async () => {
    const fs = gatedFs('disk');
    const s = storeOver(fs);
    const a = s.read('/f', undefined, 1024);
    const b = s.read('/f', undefined, 2048);
    const c = s.read('/f', 'overlay', 1024);
    const d = s.read('/f', undefined, 2048);
    const e = s.read('/f', undefined, 2048);
    await fs.flush();
    assert.deepEqual([(await a).text, (await b).text, (await c).text, (await d).text, (await e).text], ['disk', 'disk', 'overlay', 'disk', 'disk']);
    assert.equal(fs.reads, 3, 'a and b read; c took the overlay; d read after it (no joining across an overlay); e joined d');
    assert.ok((await d).version > (await c).version);
  });

  it('a cancelled caller leaves a shared read running for the others; all cancelled stops it', async () => {
    const fs = gatedFs('x');
    const s = storeOver(fs);
    const blocker = s.read('/f', undefined, 1024);
    await settle();
    const ac1 = new AbortController();
    const ac2 = new AbortController();
    const one = s.read('/f', undefined, 1024, ac1.signal);
    const two = s.read('/f', undefined, 1024, ac2.signal);
    ac1.abort();
    await assert.rejects(one, (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_CANCELLED');
    await fs.flush();
    assert.equal((await two).text, 'x');
    assert.equal(fs.reads, 2);
    await blocker;

    const hold = s.read('/f', undefined, 1024);
    await settle();
    const ac3 = new AbortController();
    const ac4 = new AbortController();
    const three = s.read('/f', undefined, 1024, ac3.signal);
    const four = s.read('/f', undefined, 1024, ac4.signal);
    ac3.abort();
    ac4.abort();
    await assert.rejects(three, (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_CANCELLED');
    await assert.rejects(four, (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_CANCELLED');
    // a newcomer does not join the abandoned read
    const five = s.read('/f', undefined, 1024);
    await fs.flush();
    await hold;
    assert.equal((await five).text, 'x');
    assert.equal(fs.reads, 4, 'the abandoned read never reached readText');
  });
});
