/**
 * {@link pullUnopenedGroup} alone, with a scripted client and scripted fs versions: the order of
 * the requests (the first alone, one project load per server process), which files go the
 * per-file way, and when the group's answers are `pending` instead of `fresh`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActionError } from '../../src/errors.ts';
import type { LanguageClient } from '../../src/lsp/language-client.ts';
import type { NormalizeContext } from '../../src/lsp/normalize-common.ts';
import { pullUnopenedGroup, type UnopenedPullDeps } from '../../src/lsp/unopened-pull.ts';

interface Script {
  /** path → items answered, or an error to throw */
  answers?: Record<string, unknown[] | ActionError>;
  /** called when a request is sent (before its answer) */
  onRequest?: (path: string) => void;
  /** paths never answered (the request ends only when its signal aborts) */
  hang?: string[];
}

function stubClient(script: Script = {}): { client: LanguageClient; sent: string[]; answered: string[]; refresh: () => void; inFlight: () => number; maxInFlight: () => number } {
  const sent: string[] = [];
  const answered: string[] = [];
  let listener: (() => void) | undefined;
  let inFlight = 0;
  let maxInFlight = 0;
  const client = {
    serverId: 'stub',
    root: '/w',
    encoding: 'utf-16',
    registry: { pullIdentifier: 'stub-id' },
    onRefresh: (fn: () => void) => {
      listener = fn;
      return { dispose: () => (listener = undefined) };
    },
    async requestUnloaded(method: string, params: { textDocument: { uri: string }; identifier?: string }, signal?: AbortSignal): Promise<unknown> {
      assert.equal(method, 'textDocument/diagnostic');
      assert.equal(params.identifier, 'stub-id');
      const path = params.textDocument.uri.replace('file://', '');
      sent.push(path);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      script.onRequest?.(path);
      if (script.hang?.includes(path)) {
        // AbortSignal.timeout does not keep the process alive (a real server's pipe does)
        const alive = setInterval(() => undefined, 1000);
        await new Promise((r) => signal?.addEventListener('abort', r, { once: true }));
        clearInterval(alive);
        inFlight--;
        throw new ActionError('LSP_ACTION_TIMEOUT', `${path}: no answer`);
      }
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      answered.push(path);
      const answer = script.answers?.[path] ?? [];
      if (answer instanceof ActionError) throw answer;
      return { kind: 'full', items: answer };
    },
  } as unknown as LanguageClient;
  return { client, sent, answered, refresh: () => listener?.(), inFlight: () => inFlight, maxInFlight: () => maxInFlight };
}

function deps(over: Partial<UnopenedPullDeps> & { versionsOf?: () => Record<string, string | undefined> } = {}): UnopenedPullDeps {
  return {
    sessions: { normalizeAcross: async <T>(_c: LanguageClient, normalize: (ctx: NormalizeContext) => T) => normalize({ serverId: 'stub', mapper: { toUtf16: (_p, pos) => pos } }) },
    versions: async (paths) => {
      const table = over.versionsOf?.() ?? {};
      return new Map(paths.map((p) => [p, p in table ? table[p] : 'v1']));
    },
    isOpen: () => false,
    noticed: () => 0,
    sync: async () => undefined,
    ...over,
  };
}

const uri = (path: string): string => `file://${path}`;
const diag = (message: string): unknown => ({ range: { start: { line: 0, character: 1 }, end: { line: 0, character: 2 } }, severity: 1, message });
const states = (r: { answered: Array<[string, { state: string }]> }): string[] => r.answered.map(([p, s]) => `${p} ${s.state}`).sort();

describe('pullUnopenedGroup', () => {
  it('asks the first file alone, then the rest pipelined; answers fresh with their items', async () => {
    const paths = Array.from({ length: 10 }, (_, i) => `/w/f${i}.ts`);
    let inFlightAtSecond = -1;
    const stub = stubClient({ answers: { '/w/f3.ts': [diag('boom')] }, onRequest: (p) => p === '/w/f1.ts' && (inFlightAtSecond = stub.inFlight()) });
    const result = await pullUnopenedGroup(deps(), stub.client, paths, uri);
    assert.equal(stub.sent[0], '/w/f0.ts');
    assert.equal(inFlightAtSecond, 1, 'the second request went out after the first answer');
    assert.ok(stub.maxInFlight() > 1, 'the rest were in flight together');
    assert.deepEqual(states(result), paths.map((p) => `${p} fresh`).sort());
    assert.deepEqual(result.perFile, []);
    const f3 = result.answered.find(([p]) => p === '/w/f3.ts')?.[1];
    assert.deepEqual(f3?.diagnostics.map((d) => d.message), ['boom']);
    assert.equal(f3?.strategy, 'pull');
  });

  it('a second group on the same server waits for the first load instead of starting its own', async () => {
    let loadedAtB0: boolean | undefined;
    const stub = stubClient({ onRequest: (p) => p === '/w/b0.ts' && (loadedAtB0 = stub.answered.includes('/w/a0.ts')) });
    const a = pullUnopenedGroup(deps(), stub.client, ['/w/a0.ts', '/w/a1.ts'], uri);
    const b = pullUnopenedGroup(deps(), stub.client, ['/w/b0.ts', '/w/b1.ts'], uri);
    const [ra, rb] = await Promise.all([a, b]);
    assert.equal(stub.sent[0], '/w/a0.ts');
    assert.equal(loadedAtB0, true, "the second group's first request went out after the first group's first answer");
    assert.equal(stub.sent.length, 4);
    assert.deepEqual([...states(ra), ...states(rb)], ['/w/a0.ts fresh', '/w/a1.ts fresh', '/w/b0.ts fresh', '/w/b1.ts fresh']);
  });

  it('open, unreadable and failing files go the per-file way; the others are answered', async () => {
    const stub = stubClient({ answers: { '/w/err.ts': new ActionError('LSP_ACTION_PEER_ERROR', 'no project found for URI') } });
    const result = await pullUnopenedGroup(
      deps({ isOpen: (_c, p) => p === '/w/open.ts', versionsOf: () => ({ '/w/gone.ts': undefined }) }),
      stub.client,
      ['/w/ok.ts', '/w/open.ts', '/w/gone.ts', '/w/err.ts'],
      uri,
    );
    assert.deepEqual(states(result), ['/w/ok.ts fresh']);
    assert.deepEqual([...result.perFile].sort(), ['/w/err.ts', '/w/gone.ts', '/w/open.ts']);
    assert.ok(!stub.sent.includes('/w/open.ts') && !stub.sent.includes('/w/gone.ts'), 'neither was asked');
  });

  it('a pull unanswered within waitMs goes the per-file way; the others are answered', async () => {
    const stub = stubClient({ hang: ['/w/slow.ts'] });
    const result = await pullUnopenedGroup(deps({ waitMs: 100 }), stub.client, ['/w/a.ts', '/w/slow.ts', '/w/b.ts'], uri);
    assert.deepEqual(states(result), ['/w/a.ts fresh', '/w/b.ts fresh']);
    assert.deepEqual(result.perFile, ['/w/slow.ts']);
  });

  it('a version that differs after the last answer makes every answer pending', async () => {
    let calls = 0;
    const versionsOf = (): Record<string, string> => (++calls === 1 ? {} : { '/w/b.ts': 'v2' });
    const result = await pullUnopenedGroup(deps({ versionsOf }), stubClient().client, ['/w/a.ts', '/w/b.ts', '/w/c.ts'], uri);
    assert.deepEqual(states(result), ['/w/a.ts pending', '/w/b.ts pending', '/w/c.ts pending']);
  });

  it('a change the engine noticed during the batch makes every answer pending; one noticed before (and synced) does not', async () => {
    let noticed = 5;
    const stub = stubClient({ onRequest: (p) => p === '/w/b.ts' && noticed++ });
    const during = await pullUnopenedGroup(deps({ noticed: () => noticed }), stub.client, ['/w/a.ts', '/w/b.ts'], uri);
    assert.deepEqual(states(during), ['/w/a.ts pending', '/w/b.ts pending']);
    const before = await pullUnopenedGroup(deps({ noticed: () => noticed, sync: async () => void noticed++ }), stubClient().client, ['/w/a.ts', '/w/b.ts'], uri);
    assert.deepEqual(states(before), ['/w/a.ts fresh', '/w/b.ts fresh']);
  });

  it("with the process's epoch, a file changed between the spawn and the group's versions is not asked unopened (per file), nor is one the epoch lacks", async () => {
    // b.ts changed after the snapshot (before the server's spawn) and before the group's own
    // "before" versions — the server may have read the old text at its load: the group's before
    // and after versions agree, only the snapshot tells.
    const disk: Record<string, string> = { '/w/a.ts': 's1', '/w/b.ts': 's2', '/w/c.ts': 's1' };
    const snapshot = { versions: new Map([['/w/a.ts', 's1'], ['/w/b.ts', 's1']]), now: async (paths: readonly string[]) => new Map(paths.map((p) => [p, disk[p]])) };
    const stub = stubClient();
    const result = await pullUnopenedGroup(deps({ epoch: { serverId: 'stub', root: '/w', snapshot } }), stub.client, ['/w/a.ts', '/w/b.ts', '/w/c.ts'], uri);
    assert.deepEqual(states(result), ['/w/a.ts fresh']);
    assert.deepEqual([...result.perFile].sort(), ['/w/b.ts', '/w/c.ts']);
    assert.deepEqual(stub.sent, ['/w/a.ts'], 'neither b.ts nor c.ts was asked unopened');
  });

  it("with the process's epoch, a file whose snapshot version differs after the last answer makes the answers pending", async () => {
    const disk: Record<string, string> = { '/w/a.ts': 's1', '/w/b.ts': 's1' };
    const snapshot = { versions: new Map([['/w/a.ts', 's1'], ['/w/b.ts', 's1']]), now: async (paths: readonly string[]) => new Map(paths.map((p) => [p, disk[p]])) };
    const stub = stubClient({ onRequest: (p) => p === '/w/b.ts' && (disk['/w/a.ts'] = 's2') });
    const result = await pullUnopenedGroup(deps({ epoch: { serverId: 'stub', root: '/w', snapshot } }), stub.client, ['/w/a.ts', '/w/b.ts'], uri);
    assert.deepEqual(states(result), ['/w/a.ts pending', '/w/b.ts pending']);
  });

  it("another process's epoch proves nothing here and takes nothing away", async () => {
    const snapshot = { versions: new Map([['/w/a.ts', 's0']]), now: async (paths: readonly string[]) => new Map(paths.map((p) => [p, 's9'])) };
    const result = await pullUnopenedGroup(deps({ epoch: { serverId: 'stub', root: '/elsewhere', snapshot } }), stubClient().client, ['/w/a.ts', '/w/b.ts'], uri);
    assert.deepEqual(states(result), ['/w/a.ts fresh', '/w/b.ts fresh']);
  });

  it('a refresh from the server during the batch makes every answer pending', async () => {
    const stub = stubClient({ onRequest: (p) => p === '/w/b.ts' && stub.refresh() });
    const result = await pullUnopenedGroup(deps(), stub.client, ['/w/a.ts', '/w/b.ts'], uri);
    assert.deepEqual(states(result), ['/w/a.ts pending', '/w/b.ts pending']);
  });

  it('an abort mid-batch rejects the batch (no per-file fallback for the cancelled files)', async () => {
    const controller = new AbortController();
    const stub = stubClient({ onRequest: (p) => p === '/w/b.ts' && controller.abort(new Error('stop')) });
    const real = stub.client.requestUnloaded.bind(stub.client);
    stub.client.requestUnloaded = (async (method: string, params: unknown, signal?: AbortSignal) => {
      const answer = await real(method, params, signal);
      if (signal?.aborted) throw new ActionError('LSP_ACTION_CANCELLED', 'cancelled');
      return answer;
    }) as typeof stub.client.requestUnloaded;
    await assert.rejects(pullUnopenedGroup(deps(), stub.client, ['/w/a.ts', '/w/b.ts', '/w/c.ts'], uri, controller.signal), /CANCELLED|stop|cancel/i);
  });
});
