/**
 * {@link warmStart} with a scripted pool and client: the root is watched before the process is
 * spawned, the snapshot (taken by the host before the call) becomes the process's epoch only when
 * no process of the key was ever started, and the load it sends is the one later unopened groups
 * on that process wait for (decision 0110).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileSnapshot } from '../../src/lsp/engine-types.ts';
import type { LanguageClient } from '../../src/lsp/language-client.ts';
import type { NormalizeContext } from '../../src/lsp/normalize-common.ts';
import { pullUnopenedGroup } from '../../src/lsp/unopened-pull.ts';
import { warmStart, type WarmStartDeps } from '../../src/lsp/warm-start.ts';

interface Rig {
  deps: WarmStartDeps;
  events: string[];
  client: LanguageClient;
  /** Answers the load's pull (held until then). */
  answerLoad: () => void;
  started: { value: boolean };
}

const snapshot = (paths: readonly string[]): FileSnapshot => ({
  versions: new Map(paths.map((p) => [p, `v:${p}`])),
  now: async (asked) => new Map(asked.map((p) => [p, `v:${p}`])),
});

function rig(options: { startedBefore?: boolean; pulls?: boolean } = {}): Rig {
  const events: string[] = [];
  const started = { value: options.startedBefore === true };
  let answerLoad: (() => void) | undefined;
  const loadAnswered = new Promise<void>((resolve) => (answerLoad = resolve));
  let first = true;
  const client = {
    serverId: 'ts',
    root: '/w',
    config: { pullsUnopenedFiles: options.pulls !== false },
    registry: {},
    onRefresh: () => ({ dispose: () => undefined }),
    async requestUnloaded(_method: string, params: { textDocument: { uri: string } }): Promise<unknown> {
      const path = params.textDocument.uri.replace('file://', '');
      events.push(`pull ${path}`);
      if (first) {
        first = false;
        await loadAnswered;
      } else {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      events.push(`answer ${path}`);
      return { kind: 'full', items: [] };
    },
  } as unknown as LanguageClient;
  const deps: WarmStartDeps = {
    pool: {
      everStarted: () => (events.push('everStarted?'), started.value),
      lease: (async () => {
        events.push('spawn');
        started.value = true;
        return { client, release: () => events.push('release') };
      }) as WarmStartDeps['pool']['lease'],
    },
    watchRoot: (root) => events.push(`watch ${root}`),
    waitMs: 60_000,
  };
  return { deps, events, client, answerLoad: () => answerLoad?.(), started };
}

describe('warmStart', () => {
  it('watches the root, makes sure no process of the key was ever started, then spawns; then sends the load; the epoch is the snapshot', async () => {
    const r = rig();
    const taken = snapshot(['/w/a.ts', '/w/b.ts']);
    const { epoch, loaded } = await warmStart(r.deps, 'ts', '/w', '/w/a.ts', taken);
    assert.deepEqual(r.events.slice(0, 3), ['watch /w', 'everStarted?', 'spawn']);
    assert.deepEqual(epoch, { serverId: 'ts', root: '/w', snapshot: taken });
    assert.ok(r.events.includes('pull /w/a.ts'), 'the load was sent');
    r.answerLoad();
    await loaded;
    assert.ok(r.events.includes('answer /w/a.ts'));
  });

  it('watches the workspace root too before the spawn (the project may read a sibling folder while its groups wait)', async () => {
    const r = rig();
    await warmStart(r.deps, 'ts', '/w/packages/a', '/w/packages/a/x.ts', snapshot(['/w/packages/a/x.ts']), '/w');
    assert.deepEqual(r.events.slice(0, 4), ['watch /w/packages/a', 'watch /w', 'everStarted?', 'spawn']);
  });

  it('no epoch when a process of the key was ever started (it may have read the files before the snapshot); the load is still sent', async () => {
    const r = rig({ startedBefore: true });
    assert.equal((await warmStart(r.deps, 'ts', '/w', '/w/a.ts', snapshot(['/w/a.ts']))).epoch, undefined);
    assert.ok(r.events.includes('pull /w/a.ts'));
  });

  it('a server that does not pull unopened files gets no load and gives no epoch', async () => {
    const r = rig({ pulls: false });
    const { epoch } = await warmStart(r.deps, 'ts', '/w', '/w/a.ts', snapshot(['/w/a.ts']));
    assert.equal(epoch, undefined);
    assert.ok(!r.events.some((e) => e.startsWith('pull')));
  });

  it("a group on the process waits for the load, then asks all its files at once (none alone), proven by the epoch", async () => {
    const r = rig();
    const { epoch } = await warmStart(r.deps, 'ts', '/w', '/w/a.ts', snapshot(['/w/a.ts', '/w/b.ts', '/w/c.ts']));
    assert.ok(epoch !== undefined);
    const group = pullUnopenedGroup(
      {
        sessions: { normalizeAcross: async <T>(_c: LanguageClient, normalize: (ctx: NormalizeContext) => T) => normalize({ serverId: 'ts', mapper: { toUtf16: (_p, pos) => pos } }) },
        versions: async (paths) => new Map(paths.map((p) => [p, `v:${p}`])),
        isOpen: () => false,
        noticed: () => 0,
        sync: async () => undefined,
        epoch,
      },
      r.client,
      ['/w/b.ts', '/w/c.ts'],
      (path) => `file://${path}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(r.events.filter((e) => e.startsWith('pull')), ['pull /w/a.ts'], 'nothing asked before the load answered');
    r.answerLoad();
    const result = await group;
    assert.deepEqual(result.answered.map(([p, s]) => `${p} ${s.state}`).sort(), ['/w/b.ts fresh', '/w/c.ts fresh']);
    const afterLoad = r.events.slice(r.events.indexOf('answer /w/a.ts') + 1);
    assert.deepEqual(afterLoad.slice(0, 2), ['pull /w/b.ts', 'pull /w/c.ts'], 'both asked together after the load');
  });
});
