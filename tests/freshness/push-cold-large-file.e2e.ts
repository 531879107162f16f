/**
 * Issue 9, item 1 (push fallback): a cold typescript-language-server publishes an empty
 * syntax-only list for a large file first and its semantic errors seconds later on a loaded
 * machine. Checked with the push strategy while busy child processes load every core, the file
 * whose only error is semantic is never reported clean: every answer is either not fresh or
 * carries the TS2322, and a fresh answer with it arrives. No timed assertion: the rule must hold
 * however slow the machine is (docs/decisions/0020-push-ordering-barrier.md).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { makeWorkspace, type Workspace } from '../lsp/engine-fixture.ts';
import { startFreshnessEngine, TSLS_ENTRY, type FreshnessEngine } from './freshness-engine.ts';
import { largeSemanticFile } from './large-semantic-file.ts';

let ws: Workspace;
let f: FreshnessEngine | undefined;
const busy: ChildProcess[] = [];

before(async () => {
  ws = await makeWorkspace('push-cold-');
  await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
});
after(async () => {
  for (const child of busy) child.kill('SIGKILL');
  await f?.close();
  await ws.remove();
});

describe('push diagnostics on a cold server under CPU load', () => {
  it('a ~3,000-line file whose only error is semantic is never reported clean', { timeout: 600_000 }, async () => {
    const big = largeSemanticFile(430);
    assert.ok(big.lines > 3_000);
    const path = await ws.write('big.ts', big.text);
    // load every core with a busy child process for the whole check
    for (let i = 0; i < Math.max(2, availableParallelism()); i++) busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    // push forced: for typescript-language-server it is the fallback; for other servers the rule
    const fixture = await startFreshnessEngine({ tsls: TSLS_ENTRY }, { diagnosticsStrategy: 'push' });
    f = fixture;
    const answers: string[] = [];
    for (;;) {
      const d = await fixture.engine.diagnostics({ root: ws.root, path });
      assert.equal(d.servers[0]?.strategy, 'push', 'the push strategy is what this test checks');
      const found = d.diagnostics.map((x) => `${x.range.start.line}:${String(x.code)}`);
      answers.push(`${d.state} [${found.join(',')}]`);
      if (d.state === 'fresh') {
        assert.deepEqual(found, [`${big.errorLine}:2322`], `a fresh answer is the compiler's verdict; answers so far: ${answers.join(' → ')}`);
        break;
      }
    }
  });
});
