/**
 * `diagnosticsMany` on a pull server whose entry says `pullsUnopenedFiles` (the path TypeScript
 * 7's `tsc --lsp` takes in `check`), against the scriptable fake on the real harness services:
 * files are pulled without being opened, positions converted from utf-8, and the group's answers
 * are `pending` — never `fresh` — when a file changes on disk or the server asks a refresh while
 * the batch runs. The same against the real TypeScript 7 server: tests/lsp/ts7.e2e.ts.
 */
import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { BatchDiagnosticsEntry } from '../../src/lsp/engine-types.ts';
import type { FakeScenario } from '../fixtures/fake-lsp-scenario.ts';
import { fakeEntry, makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

let ws: Workspace;
before(async () => {
  ws = await makeWorkspace('lsp-unopened-');
});
after(async () => {
  await ws.remove();
});

const PULL_UTF8: FakeScenario = { diagnostics: 'pull', positionEncoding: 'utf-8' };

async function withEngine(scenario: FakeScenario, entry: Record<string, unknown>, fn: (f: EngineFixture) => Promise<void>): Promise<void> {
  const f = await startEngine(makeConfig({ fake: fakeEntry(scenario, entry) }));
  try {
    await fn(f);
  } finally {
    await f.close();
  }
}

/** Files `dir/f0.txt`…: every third one has an emoji before its ERROR (utf-8 column 5, UTF-16 3). */
async function files(dir: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await ws.write(`${dir}/f${i}.txt`, i % 3 === 0 ? '😀 ERROR\n' : `clean ${i}\n`));
  return out;
}

const described = (e: BatchDiagnosticsEntry): string =>
  'error' in e ? `error ${e.error.code}` : `${e.state} ${e.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${String(d.code)}`).join(',')}`;

async function methods(f: EngineFixture): Promise<string[]> {
  const log = await f.client('fake').request<Array<{ method?: string }>>('fake/log', undefined);
  return log.map((m) => m.method ?? '');
}

describe('unopened pulls (pullsUnopenedFiles)', { timeout: 60_000 }, () => {
  it('pulls every file without opening it, one request each, utf-8 columns converted, all fresh', async () => {
    await withEngine(PULL_UTF8, { pullsUnopenedFiles: true }, async (f) => {
      const paths = await files('a', 20);
      const answered: string[] = [];
      const entries = await f.engine.diagnosticsMany(ws.root, paths, { onAnswered: (p) => answered.push(p) });
      assert.deepEqual(
        entries.map(described),
        paths.map((_, i) => (i % 3 === 0 ? 'fresh 0:3 F001' : 'fresh ')),
      );
      assert.deepEqual([...answered].sort(), [...paths].sort(), 'each file answered once');
      const sent = await methods(f);
      assert.equal(sent.filter((m) => m === 'textDocument/didOpen').length, 0, 'no file was opened');
      assert.equal(sent.filter((m) => m === 'textDocument/diagnostic').length, paths.length);
    });
  });

  it('without the flag the same server gets every file opened (the per-file path)', async () => {
    await withEngine(PULL_UTF8, {}, async (f) => {
      const paths = await files('b', 4);
      const entries = await f.engine.diagnosticsMany(ws.root, paths);
      assert.deepEqual(entries.map(described), ['fresh 0:3 F001', 'fresh ', 'fresh ', 'fresh 0:3 F001']);
      assert.equal((await methods(f)).filter((m) => m === 'textDocument/didOpen').length, paths.length);
    });
  });

  it('a file of the group changed on disk while the batch runs: every answer of the group is pending, none fresh', async () => {
    await withEngine(PULL_UTF8, { pullsUnopenedFiles: true }, async (f) => {
      const paths = await files('c', 12);
      let changed = false;
      const entries = await f.engine.diagnosticsMany(ws.root, paths, {
        onAnswered: () => {
          if (changed) return;
          changed = true;
          // after the first answer, before the last: the server may have read either text
          writeFileSync(paths[paths.length - 1] as string, 'now ERROR ERROR, longer than before\n');
        },
      });
      assert.ok(changed);
      assert.deepEqual(
        entries.map((e) => ('error' in e ? 'error' : e.state)),
        paths.map(() => 'pending'),
      );
    });
  });

  it('a refresh asked by the server while the batch runs, nothing changed: the group is pulled once more, fresh from that pass; progress told once per file', async () => {
    // answers held back 1.5 s each (pipelined): the refresh, asked at the first answer, lands before the rest
    await withEngine({ ...PULL_UTF8, delayMs: { 'textDocument/diagnostic': 1500 } }, { pullsUnopenedFiles: true }, async (f) => {
      const paths = await files('d', 6);
      let triggered: Promise<unknown> | undefined;
      const told: string[] = [];
      const entries = await f.engine.diagnosticsMany(ws.root, paths, {
        onAnswered: (path) => {
          told.push(path);
          triggered ??= f.client('fake').request('fake/trigger', { refresh: true });
        },
      });
      assert.deepEqual(await triggered, { refresh: null });
      assert.deepEqual(
        entries.map((e) => ('error' in e ? 'error' : e.state)),
        paths.map(() => 'fresh'),
      );
      assert.deepEqual([...told].sort(), [...paths].sort(), 'each file told once');
      const pulls = (await methods(f)).filter((m) => m === 'textDocument/diagnostic').length;
      assert.equal(pulls, paths.length * 2, 'every file pulled again after the refresh');
    });
  });

  it('a refresh in the second pass too: pending, none fresh', async () => {
    await withEngine({ ...PULL_UTF8, delayMs: { 'textDocument/diagnostic': 1500 } }, { pullsUnopenedFiles: true }, async (f) => {
      const paths = await files('e', 6);
      let second: Promise<unknown> | undefined;
      // once the second pass's pulls are out (each held 1.5 s), the server asks again
      const whenSecondPass = async (): Promise<unknown> => {
        for (let tries = 0; tries < 200; tries++) {
          const pulls = (await methods(f)).filter((m) => m === 'textDocument/diagnostic').length;
          if (pulls > paths.length) return f.client('fake').request('fake/trigger', { refresh: true });
          await new Promise((r) => setTimeout(r, 50));
        }
        return 'no second pass';
      };
      let first: Promise<unknown> | undefined;
      const entries = await f.engine.diagnosticsMany(ws.root, paths, {
        onAnswered: () => {
          first ??= f.client('fake').request('fake/trigger', { refresh: true });
          second ??= whenSecondPass();
        },
      });
      assert.deepEqual(await first, { refresh: null });
      assert.deepEqual(await second, { refresh: null });
      assert.deepEqual(
        entries.map((e) => ('error' in e ? 'error' : e.state)),
        paths.map(() => 'pending'),
      );
    });
  });

  it('a file gone from disk is an error entry (this fake answers an empty report for it; it is not asked), never an empty fresh', async () => {
    await withEngine(PULL_UTF8, { pullsUnopenedFiles: true }, async (f) => {
      const paths = await files('e', 3);
      unlinkSync(paths[1] as string);
      const entries = await f.engine.diagnosticsMany(ws.root, paths);
      assert.equal(described(entries[0] as BatchDiagnosticsEntry), 'fresh 0:3 F001');
      assert.ok('error' in (entries[1] as BatchDiagnosticsEntry), described(entries[1] as BatchDiagnosticsEntry));
      assert.equal(described(entries[2] as BatchDiagnosticsEntry), 'fresh ');
    });
  });

  it('an open document goes the per-file way; the others are pulled unopened', async () => {
    await withEngine(PULL_UTF8, { pullsUnopenedFiles: true }, async (f) => {
      const paths = await files('g', 3);
      await f.engine.diagnostics({ root: ws.root, path: paths[0] as string });
      const pulledBefore = (await methods(f)).filter((m) => m === 'textDocument/diagnostic').length;
      const entries = await f.engine.diagnosticsMany(ws.root, paths);
      assert.deepEqual(entries.map(described), ['fresh 0:3 F001', 'fresh ', 'fresh ']);
      const sent = await methods(f);
      assert.equal(sent.filter((m) => m === 'textDocument/didOpen').length, 1, 'only the document opened before');
      // the open one answered from the collector's held result (no pull), the other two pulled
      assert.equal(sent.filter((m) => m === 'textDocument/diagnostic').length - pulledBefore, 2);
    });
  });
});
