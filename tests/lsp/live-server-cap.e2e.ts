/**
 * `maxLiveServers` under concurrency with real typescript-language-server processes: 30
 * sub-projects asked at once (30 roots, 30 would-be servers) never run more than the cap —
 * counted in real processes, not only in the pool's books — and every request is answered
 * (the extra starts wait for a free server; none is refused or lost).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { embeddedTypeScriptServer } from '../../src/presets/embedded-typescript.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

const CAP = 3;
const ROOTS = 30;
let ws: Workspace;
let f: EngineFixture;

/** @returns live typescript-language-server processes that are children of this test process */
function liveTsls(): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || Number(fields[1]) !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('typescript-language-server')) count++;
    } catch {
      // exited while we looked
    }
  }
  return count;
}

before(async () => {
  ws = await makeWorkspace('live-cap-');
  for (let i = 0; i < ROOTS; i++) {
    await ws.write(`p${i}/tsconfig.json`, '{"compilerOptions":{"strict":true,"noEmit":true}}');
    await ws.write(`p${i}/a.ts`, `export const v${i}: number = "not a number";\n`);
  }
  f = await startEngine(makeConfig({ typescript: embeddedTypeScriptServer() as unknown as Record<string, unknown> }, { maxLiveServers: CAP }));
});
after(async () => {
  await f.close();
  await ws.remove();
});

describe(`maxLiveServers ${CAP} with ${ROOTS} roots at once (real servers)`, () => {
  it('never runs more than the cap, and answers every request', { timeout: 900_000 }, async () => {
    let peakProcesses = 0;
    let peakPool = 0;
    const sampling = { on: true };
    const sampler = (async () => {
      while (sampling.on) {
        peakProcesses = Math.max(peakProcesses, liveTsls());
        peakPool = Math.max(peakPool, f.engine.liveServers().filter((s) => s.state !== 'stopping').length);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      const results = await Promise.all(
        Array.from({ length: ROOTS }, (_, i) => f.engine.diagnostics({ root: ws.root, path: ws.path(`p${i}/a.ts`) })),
      );
      assert.equal(results.length, ROOTS);
      for (const [i, d] of results.entries()) {
        assert.equal(d.state, 'fresh', `p${i}`);
        assert.deepEqual(d.diagnostics.map((x) => x.code), [2322], `p${i}`);
      }
    } finally {
      sampling.on = false;
      await sampler;
    }
    console.log(`# ${ROOTS} roots at once, cap ${CAP}: peak ${peakProcesses} tsls processes, peak ${peakPool} pool servers`);
    assert.ok(peakProcesses <= CAP, `at most ${CAP} typescript-language-server processes at once, saw ${peakProcesses}`);
    assert.ok(peakPool <= CAP, `at most ${CAP} live servers in the pool, saw ${peakPool}`);
    assert.ok(liveTsls() <= CAP);
  });
});
