/**
 * Health of a real typescript-language-server whose tsserver dies under it (as after an
 * out-of-memory kill): tsls itself stays up and would answer every request empty from then on.
 * The client reads tsls's own report of the exit, fails the server, and the pool restarts it:
 * the next hover answers for real and diagnostics are fresh again.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { TSLS_ENTRY } from '../support/servers.ts';
import { makeConfig, makeWorkspace, processAlive, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';
import { processTree } from './real-server-fixture.ts';

const T = { timeout: 180_000 };
let ws: Workspace;
let f: EngineFixture;

before(async () => {
  ws = await makeWorkspace('tsserver-death-');
  await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
  f = await startEngine(
    makeConfig({
      tsls: TSLS_ENTRY,
    }),
  );
});
after(async () => {
  await f.close();
  await ws.remove();
});

async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('tsserver killed under a live typescript-language-server', () => {
  it('is detected, the server restarted, and the next answers are real and fresh', T, async () => {
    const path = await ws.write('a.ts', 'export function foo(): number { return 1; }\nconst n: string = foo();\n');
    const t = { root: ws.root, path };
    const first = await f.engine.diagnostics(t);
    assert.equal(first.state, 'fresh');
    assert.ok(first.diagnostics.some((d) => d.code === 2322));

    const tsls = f.engine.liveServers()[0]?.pid ?? -1;
    const tree = await processTree(tsls);
    const cmdlines = await Promise.all(tree.map(async (pid) => [pid, await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')] as const));
    const tsservers = cmdlines.filter(([, cmd]) => cmd.includes('tsserver')).map(([pid]) => pid);
    assert.ok(tsservers.length > 0, 'tsls runs a tsserver child');
    for (const pid of tsservers) process.kill(pid, 'SIGKILL');

    // tsls outlives its tsserver; the client notices from tsls's own report and stops it
    await until('the hollow tsls is stopped', async () => !(await processAlive(tsls)));
    assert.ok(f.logs.some((l) => /stopped answering meaningfully/.test(l)), f.logs.join('\n'));

    const hover = await f.engine.hover(t, { line: 0, character: 17 });
    assert.match(hover?.contents ?? '', /function foo\(\): number/, 'hover answers from a restarted server, not null');
    const live = f.engine.liveServers();
    assert.equal(live.length, 1);
    assert.notEqual(live[0]?.pid, tsls);
    assert.equal(live[0]?.restarts, 1);

    const again = await f.engine.diagnostics(t);
    assert.equal(again.state, 'fresh');
    assert.deepEqual(again.diagnostics.map((d) => d.code), first.diagnostics.map((d) => d.code));
  });
});
