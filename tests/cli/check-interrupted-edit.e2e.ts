/**
 * Issue 18, item 4 end to end: `serve` (real typescript-language-server) is SIGKILLed in the
 * middle of a 61-file rename, once at least one file holds the new name. Then `check` (read-only)
 * must not judge the half-written tree: exit 2, naming the interrupted edit and the command that
 * finishes it. That command (`serve --sandbox workspace-write` with stdin at its end) restores the
 * originals, says so and exits; `check` then judges the whole tree (exit 0).
 *
 * Runs: CHECK_INTERRUPTED_RUNS (default 3). Figures: docs/reliability.md ("Journal ownership").
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startEditorClient } from '../support/editor-client.ts';
import { REPO, spawnCli } from './cli-harness.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const SAMPLE = join(REPO, 'examples', 'sample');
const RUNS = Number(process.env['CHECK_INTERRUPTED_RUNS'] ?? 3);
const STATE_DIR = mkdtempSync(join(tmpdir(), 'lsp-actions-check-state-'));
// the serve and check processes below inherit it: their journals go to a fresh state directory
process.env['DSH_LSP_ACTIONS_STATE_DIR'] = STATE_DIR;
const env = { ...process.env, PATH: join(process.execPath, '..') };
const NAMES = ['lib.ts', ...Array.from({ length: 60 }, (_, i) => `f${i}.ts`)];

function sixtyOneFiles(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-check-interrupted-')));
  cpSync(join(SAMPLE, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  cpSync(join(SAMPLE, 'package.json'), join(dir, 'package.json'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'lib.ts'), 'export const shared = 1;\n');
  for (let i = 0; i < 60; i += 1) writeFileSync(join(dir, 'src', `f${i}.ts`), `import { shared } from './lib.js';\nexport const v${i} = shared + ${i};\n`);
  return dir;
}

function renamed(dir: string): number {
  return NAMES.filter((name) => readFileSync(join(dir, 'src', name), 'utf8').includes('sharedRenamed')).length;
}

function journalExists(dir: string): boolean {
  const info = statSync(dir, { bigint: true });
  return existsSync(join(STATE_DIR, 'journals', `${info.dev}-${info.ino}.json`));
}

after(() => rmSync(STATE_DIR, { recursive: true, force: true }));

describe('check after a SIGKILL mid-rename (issue 18)', { timeout: 1_800_000 }, () => {
  it(`refuses the half-written tree with exit 2 and the way to finish it; after that, judges the whole tree (${RUNS} runs)`, async () => {
    assert.ok(existsSync(MAIN), 'run `npm run build` first');
    const outcomes: string[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const dir = sixtyOneFiles();
      const first = startEditorClient(['--workspace', dir, '--sandbox', 'workspace-write']);
      try {
        const warm = await first.run('diagnostics.get', { filePath: 'src/lib.ts', workspaceRoot: dir });
        assert.equal(warm['status'], 'succeeded', JSON.stringify(warm));
        void first.run('rename', { filePath: 'src/lib.ts', workspaceRoot: dir, position: { line: 0, character: 13 }, newName: 'sharedRenamed' }).catch(() => undefined);
        const end = Date.now() + 120_000;
        while (renamed(dir) === 0 && Date.now() < end) await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setTimeout(resolve, (run * 23) % 60));
        const exited = new Promise((resolve) => first.child.once('close', resolve));
        first.child.kill('SIGKILL');
        await exited;
        const killedAt = renamed(dir);
        assert.ok(killedAt > 0, 'the rename reached its write phase');
        assert.ok(journalExists(dir), 'the journal of the interrupted edit is there');

        const refused = await spawnCli(MAIN, ['check', '--wait-ms', '150000'], { cwd: dir, env, timeoutMs: 300_000 });
        assert.equal(refused.code, 2, `check judged a half-written tree (${killedAt}/61 renamed):\n${refused.stdout}\n${refused.stderr}`);
        assert.match(refused.stderr, new RegExp(`left ${dir.replaceAll('.', '\\.')} half-written: ${killedAt} of its 61 files hold its new text`));
        assert.match(refused.stderr, /nothing was judged.*dsh-lsp-actions serve --workspace .* --sandbox workspace-write < \/dev\/null/);
        assert.equal(refused.stdout, '', 'no report on a half-written tree');
        assert.equal(renamed(dir), killedAt, 'check wrote nothing');

        const recovered = await spawnCli(MAIN, ['serve', '--workspace', dir, '--sandbox', 'workspace-write'], { cwd: dir, env, input: '', timeoutMs: 300_000 });
        assert.equal(recovered.code, 0, recovered.stderr);
        assert.match(recovered.stderr, /recovered an interrupted edit/);
        assert.equal(renamed(dir), 0, 'the originals are back');
        assert.equal(journalExists(dir), false);
        assert.deepEqual(readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmpdir')), []);

        const judged = await spawnCli(MAIN, ['check', '--wait-ms', '150000'], { cwd: dir, env, timeoutMs: 300_000 });
        assert.equal(judged.code, 0, `${judged.stdout}\n${judged.stderr}`);
        outcomes.push(`killed at ${killedAt}/61 → check exit ${refused.code} → serve restored → check exit ${judged.code}`);
      } finally {
        first.child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    }
    console.log(`SIGKILL mid-rename, then check: ${outcomes.join('; ')}`);
  });
});
