/**
 * A genuine crash of the plugin's writer, recovered by the plugin face: a real FsWorkspaceWriter
 * in a child process (`crash-writer.ts`) is SIGKILLed while a 61-file edit is written; then a
 * writer in this process, as the action runner does before its first action in that root
 * (`prepare`), puts every original back from the journal the dead process left, and says so.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RecoveryReport } from '../../src/edits/journal-recovery.ts';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { mountHarness } from '../support/harness-mount.ts';

const RUNS = Number(process.env['JOURNAL_CRASH_RUNS'] ?? 3);
const NAMES = ['lib.ts', ...Array.from({ length: 60 }, (_, i) => `f${i}.ts`)];

describe('the plugin face recovers a real crash of a real writer (issue 18)', { timeout: 600_000 }, () => {
  it(`SIGKILL mid-edit, then prepare(): every original back, nothing left (${RUNS} runs)`, async () => {
    const outcomes: string[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const root = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-crash-')));
      const state = mkdtempSync(join(tmpdir(), 'lsp-actions-crash-state-'));
      const previous = process.env['DSH_LSP_ACTIONS_STATE_DIR'];
      process.env['DSH_LSP_ACTIONS_STATE_DIR'] = state;
      try {
        mkdirSync(join(root, 'src'));
        writeFileSync(join(root, 'src', 'lib.ts'), 'export const shared = 1;\n');
        for (let i = 0; i < 60; i += 1) writeFileSync(join(root, 'src', `f${i}.ts`), `import { shared } from './lib.js';\nexport const v${i} = shared + ${i};\n`);
        const renamed = (): number => NAMES.filter((name) => readFileSync(join(root, 'src', name), 'utf8').includes('sharedRenamed')).length;
        const child = spawn(process.execPath, [join(import.meta.dirname, 'crash-writer.ts'), root], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        const exited = new Promise((resolve) => child.once('close', resolve));
        const end = Date.now() + 120_000;
        while (renamed() < 1 + run * 5 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 2));
        child.kill('SIGKILL');
        await exited;
        const killedAt = renamed();
        assert.ok(killedAt > 0 && killedAt < 61, `killed at ${killedAt}/61: ${stderr}`);
        const info = statSync(root, { bigint: true });
        assert.ok(existsSync(join(state, 'journals', `${info.dev}-${info.ino}.json`)), 'the dead writer left its journal');

        const h = await mountHarness({ mode: 'workspace-write', workspace: root });
        try {
          const reports: RecoveryReport[] = [];
          await new FsWorkspaceWriter(h.ctx, h.ctx.fs, { onRecovered: (report) => reports.push(report) }).prepare(root);
          assert.equal(renamed(), 0, JSON.stringify(reports));
          assert.equal(reports[0]?.restored.length, killedAt);
          assert.equal(reports[0]?.cleared, true);
          assert.deepEqual(readdirSync(join(state, 'journals')).filter((name) => !name.startsWith('.')), []);
          outcomes.push(`killed at ${killedAt}/61 → ${reports[0]?.restored.length} restored`);
        } finally {
          await h.dispose();
        }
      } finally {
        if (previous === undefined) delete process.env['DSH_LSP_ACTIONS_STATE_DIR'];
        else process.env['DSH_LSP_ACTIONS_STATE_DIR'] = previous;
        rmSync(root, { recursive: true, force: true });
        rmSync(state, { recursive: true, force: true });
      }
    }
    console.log(`plugin writer SIGKILL + prepare: ${outcomes.join('; ')}`);
  });
});
