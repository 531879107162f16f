/**
 * The engine over our tsserver bridge gives what it gives over the real
 * typescript-language-server 5.3.0 (both driving TypeScript 5.9.3's tsserver): the same
 * diagnostics — ranges (the end-of-text cases included), messages, severities, codes, source,
 * tags, related information — by the passthrough (`check`'s path) and by pushes (the fallback),
 * for files edited after opening too, and for a file in no tsconfig program (inferred project
 * options as that server sets them); and a tsserver killed behind the bridge is a crashed server,
 * restarted.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { directTsserverEntry } from '../../src/cli/direct-tsserver.ts';
import { resolveConfig } from '../../src/config.ts';
import { embeddedTypeScriptServer } from '../../src/presets/embedded-typescript.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

const T = { timeout: 180_000 };

const FILES: Record<string, string> = {
  'tsconfig.json': '{"compilerOptions":{"strict":true,"noEmit":true},"include":["src"]}',
  'src/related.ts': 'const point: { x: number } = { x: "1" };\nvoid point;\n',
  'src/tags.ts': '/** @deprecated use b */ export function old(): void {}\nold();\nexport function f(unused: number): void {}\n',
  'src/call.ts': 'export const a = 1;\nexport const m = Math.max(a,\n',
  'src/crlf.ts': 'export const a = 1;\r\nexport const m = Math.max(a,\r\n',
  'src/nobreak.ts': 'export const a = 1;\nexport const m = Math.max(a,',
  'src/uses.ts': 'import { a } from "./call";\nconst s: string = a;\nvoid s;\n',
  'loose.js': 'const v = 1;\nv = 2;\nexport {};\n',
};

type Engines = { tsls: EngineFixture; bridge: EngineFixture };
let ws: Workspace;
let auto: Engines;
let push: Engines;

function entries(): { tsls: Record<string, unknown>; bridge: Record<string, unknown> } {
  const embedded = embeddedTypeScriptServer();
  const direct = directTsserverEntry(resolveConfig({ servers: { typescript: embedded } }).servers['typescript']!);
  assert.ok(direct !== undefined && direct.protocol === 'tsserver');
  return { tsls: embedded as unknown as Record<string, unknown>, bridge: direct as unknown as Record<string, unknown> };
}

async function start(strategy: 'auto' | 'push'): Promise<Engines> {
  const { tsls, bridge } = entries();
  return {
    tsls: await startEngine(makeConfig({ typescript: tsls }), { diagnosticsStrategy: strategy }),
    bridge: await startEngine(makeConfig({ typescript: bridge }), { diagnosticsStrategy: strategy }),
  };
}

before(async () => {
  ws = await makeWorkspace('tsserver-bridge-parity-');
  for (const [rel, text] of Object.entries(FILES)) await ws.write(rel, text);
  auto = await start('auto');
  push = await start('push');
});
after(async () => {
  for (const f of [auto?.tsls, auto?.bridge, push?.tsls, push?.bridge]) await f?.close();
  await ws.remove();
});

async function both(engines: Engines, rel: string): Promise<{ tsls: unknown; bridge: unknown; strategies: string[] }> {
  const target = { root: ws.root, path: ws.path(rel) };
  const [a, b] = await Promise.all([engines.tsls.engine.diagnostics(target), engines.bridge.engine.diagnostics(target)]);
  assert.equal(a.state, 'fresh', `${rel} over typescript-language-server`);
  assert.equal(b.state, 'fresh', `${rel} over the bridge`);
  return { tsls: a.diagnostics, bridge: b.diagnostics, strategies: [a.servers[0]?.strategy ?? '', b.servers[0]?.strategy ?? ''] };
}

describe('the engine over the tsserver bridge equals it over typescript-language-server', () => {
  for (const rel of Object.keys(FILES).filter((r) => r !== 'tsconfig.json')) {
    it(`${rel}: the passthrough's diagnostics`, T, async () => {
      const got = await both(auto, rel);
      assert.deepEqual(got.strategies, ['tsserver', 'tsserver']);
      assert.ok((got.tsls as unknown[]).length > 0, `${rel} has problems to compare`);
      assert.deepEqual(got.bridge, got.tsls);
    });
  }

  for (const rel of ['src/related.ts', 'src/tags.ts', 'src/call.ts', 'loose.js']) {
    it(`${rel}: the pushed diagnostics`, T, async () => {
      const got = await both(push, rel);
      assert.deepEqual(got.strategies, ['push', 'push']);
      assert.deepEqual(got.bridge, got.tsls);
    });
  }

  it('after an edit of an open file and of a file it imports, both again agree', T, async () => {
    await ws.write('src/call.ts', 'export const a = "one";\n');
    await ws.write('src/uses.ts', 'import { a } from "./call";\nconst n: number = a;\nvoid n;\n');
    // asking about the edited open file sends its new text (a whole-text change over the bridge)
    assert.deepEqual((await both(auto, 'src/call.ts')).bridge, []);
    const got = await both(auto, 'src/uses.ts');
    assert.deepEqual(got.bridge, got.tsls);
    assert.match(JSON.stringify(got.bridge), /Type 'string' is not assignable to type 'number'/);
  });

  it('a killed tsserver behind the bridge is a crashed server: restarted, the next answer real and fresh', T, async () => {
    const target = { root: ws.root, path: ws.path('src/related.ts') };
    const first = await auto.bridge.engine.diagnostics(target);
    assert.equal(first.state, 'fresh');
    const pid = auto.bridge.engine.liveServers()[0]?.pid ?? -1;
    assert.match(await readFile(`/proc/${pid}/cmdline`, 'utf8'), /tsserver\.js/);
    process.kill(pid, 'SIGKILL');
    // a new text, so that only a live server can answer for it
    await ws.write('src/related.ts', `${FILES['src/related.ts']}const extra: number = "2";\nvoid extra;\n`);
    // asked again until a restarted tsserver answers (the crash fails what was in flight)
    let again = await auto.bridge.engine.diagnostics(target).catch(() => undefined);
    const deadline = Date.now() + 120_000;
    while (again?.state !== 'fresh' && Date.now() < deadline) again = await auto.bridge.engine.diagnostics(target).catch(() => undefined);
    assert.equal(again?.state, 'fresh');
    assert.deepEqual(again.diagnostics.map((d) => d.code), [2322, 2322]);
    const live = auto.bridge.engine.liveServers();
    assert.notEqual(live[0]?.pid, pid);
    assert.equal(live[0]?.restarts, 1);
  });
});
