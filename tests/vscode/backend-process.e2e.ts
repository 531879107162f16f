/**
 * The VS Code extension's backend supervisor (editors/vscode/src/backend-process.ts) against the
 * real `dsh-lsp-actions serve` and typescript-language-server, without VS Code: handshake and a
 * run, a killed backend is reported crashed and restarted (its language servers ended with it),
 * and a clean stop leaves no process of its group. The same behaviour is asserted in a real
 * VS Code by editors/vscode/test/host (npm run test:vscode).
 */
import assert from 'node:assert/strict';
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BackendProcess, MAX_ATTEMPTS } from '../../editors/vscode/src/backend-process.ts';
import type { StartFailure } from '../../editors/vscode/src/start-failure.ts';
import type { BackendState } from '../../editors/vscode/src/status-text.ts';
import { CLI_MAIN } from '../support/editor-client.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'sample');

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, check: () => T | undefined | false, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the extension’s backend supervisor with the real serve', { timeout: 300_000 }, () => {
  it('runs actions, restarts a killed backend with its language servers gone, and stops cleanly', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'lsp-actions-vscode-backend-'));
    cpSync(SAMPLE, ws, { recursive: true });
    const wrapper = join(ws, 'dsh-lsp-actions');
    writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${CLI_MAIN}" "$@"\n`);
    chmodSync(wrapper, 0o755);
    const states: BackendState[] = [];
    const events: string[] = [];
    const backend = new BackendProcess(
      { command: wrapper, args: ['serve', '--workspace', ws, '--sandbox', 'workspace-write'], cwd: ws },
      { log: () => undefined, state: (s) => states.push(s), event: (e) => events.push(e.kind), ready: () => undefined, failed: () => assert.fail('gave up') },
    );
    try {
      backend.start();
      const first = await backend.run<{ diagnostics: { code?: number }[] }>('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws });
      assert.equal(first.status, 'succeeded', JSON.stringify(first));
      assert.deepEqual(first.result?.diagnostics.map((d) => d.code), [2304]);
      const firstEpoch = backend.epoch;
      assert.equal(first.epoch, firstEpoch, 'a result names the process that answered');
      assert.ok(events.includes('diagnostics.updated'), 'subscribed to events');
      const pid = backend.pid;
      assert.ok(pid !== undefined);
      assert.equal(states.at(-1), 'ready');

      process.kill(pid, 'SIGKILL');
      await until('crashed', () => states.includes('crashed'));
      await until('the killed backend’s group (its language servers) to be gone', () => !groupAlive(pid));
      await until('a restarted backend', () => backend.pid !== undefined && backend.pid !== pid && states.at(-1) === 'ready');
      const again = await backend.run('diagnostics.get', { filePath: 'src/report.ts', workspaceRoot: ws });
      assert.equal(again.status, 'succeeded', JSON.stringify(again));
      assert.ok(again.epoch !== undefined && again.epoch > firstEpoch, 'the restarted process is a new epoch');

      const last = backend.pid;
      assert.ok(last !== undefined);
      await backend.stop();
      assert.equal(states.at(-1), 'stopped');
      await until('no process of the stopped backend’s group', () => !groupAlive(last));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(backend.pid, undefined, 'a clean stop is not restarted');
    } finally {
      await backend.stop();
      rmSync(ws, { recursive: true, force: true });
    }
  });

  for (const [name, script, reason, advice] of [
    [
      'run by Node 20 (the backend refuses it)',
      (main: string) => `#!/bin/sh\nexec /usr/bin/node "${main}" "$@"\n`,
      /^error: dsh-lsp-actions needs Node 22\.19 or newer; this is Node 20\./,
      /needs Node 22\.19 or newer/,
    ],
    ['not the backend (exits at once, says nothing)', () => '#!/bin/sh\nexit 0\n', /exited \(code 0\) before answering the lsp-actions\/v1 handshake/, /not the dsh-lsp-actions backend/],
    [
      'not the backend (answers something else)',
      () => `#!/bin/sh\nread line\necho '{"jsonrpc":"2.0","id":"1","result":{"protocol":"something/else"}}'\nsleep 30\n`,
      /answered the handshake as "something\/else", not lsp-actions\/v1/,
      /not the dsh-lsp-actions backend/,
    ],
  ] as const) {
    it(`a backend ${name}: bounded tries, then one failure with its own first error line`, async () => {
      if (name.includes('Node 20') && !existsSync('/usr/bin/node')) return assert.fail('this test needs the system Node 20 at /usr/bin/node');
      const dir = mkdtempSync(join(tmpdir(), 'lsp-actions-vscode-broken-'));
      const wrapper = join(dir, 'dsh-lsp-actions');
      writeFileSync(wrapper, script(CLI_MAIN));
      chmodSync(wrapper, 0o755);
      const failures: StartFailure[] = [];
      const states: BackendState[] = [];
      const backend = new BackendProcess(
        { command: wrapper, args: ['serve', '--workspace', dir], cwd: dir },
        { log: () => undefined, state: (s) => states.push(s), event: () => undefined, ready: () => assert.fail('ready'), failed: (f) => failures.push(f) },
      );
      try {
        backend.start();
        await until('the supervisor to give up', () => states.includes('failed'));
        assert.equal(backend.attempts, MAX_ATTEMPTS);
        assert.equal(failures.length, 1);
        assert.match(failures[0]?.reason ?? '', reason);
        assert.match(failures[0]?.advice ?? '', advice);
        assert.equal(failures[0]?.action, 'openSettings');
        await new Promise((resolve) => setTimeout(resolve, 5000));
        assert.equal(backend.attempts, MAX_ATTEMPTS, 'no further tries after giving up');
        assert.equal(failures.length, 1, 'told once');
        await assert.rejects(backend.run('diagnostics.get', {}), /could not be started/);
      } finally {
        await backend.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
