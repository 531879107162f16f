/**
 * `dsh-lsp-actions serve` with the default composition and the real plugin, as an editor
 * spawns it: the first request is answered (the Loader was awaited), stdout carries only
 * protocol frames, `diagnostics.get` returns a real typescript-language-server error, a relative
 * `workspaceRoot` and a `sessionId` inside `params` are refused naming the field, and end
 * of input stops every process the backend started and exits 0. (The full editor flow —
 * quick fix, format, rename, events — is the plugin's serve end-to-end test.)
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { alive, REPO } from './cli-harness.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const SAMPLE = join(REPO, 'examples', 'sample');

/** @returns pids of every live descendant of `root` (Linux /proc) */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // The process exited while we looked.
    }
  }
  const out: number[] = [];
  const walk = (pid: number): void => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

describe('serve (default composition, real plugin)', { timeout: 180_000 }, () => {
  it('answers after boot, keeps stdout to frames, and leaves no process after end of input', async (t) => {
    assert.ok(existsSync(MAIN), 'run `npm run build` first: lib/cli/main.js is missing');
    if (!existsSync('/proc/self/stat')) {
      t.skip('needs /proc to list the backend\'s child processes');
      return;
    }
    const child = spawn(process.execPath, [MAIN, 'serve', '--workspace', SAMPLE, '--sandbox', 'read-only'], {
      cwd: REPO,
      env: { ...process.env, PATH: join(process.execPath, '..') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const frames = (): Array<Record<string, any>> =>
      stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, any>);
    const response = async (id: number): Promise<Record<string, any>> => {
      const end = Date.now() + 120_000;
      for (;;) {
        const found = frames().find((frame) => frame['id'] === id);
        if (found) return found;
        if (Date.now() > end || child.exitCode !== null) throw new Error(`no response ${id}; stderr: ${stderr}`);
        await sleep(50);
      }
    };
    try {
      const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'lsp.actions.list', params: {} });
      const list = await response(1);
      assert.equal(list['result'].protocol, 'lsp-actions/v1');
      assert.ok(list['result'].actions.some((a: { action: string }) => a.action === 'diagnostics.get'));

      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'lsp.actions.run',
        params: { action: 'diagnostics.get', requestId: 'd1', params: { filePath: 'src/main.ts', workspaceRoot: SAMPLE } },
      });
      const run = await response(2);
      assert.equal(run['result'].status, 'succeeded', JSON.stringify(run));
      const diagnostics = run['result'].result.diagnostics as Array<{ message: string; code: unknown }>;
      assert.ok(diagnostics.some((d) => String(d.code) === '2304' && /distance/.test(d.message)), JSON.stringify(diagnostics));

      // The two edges a client author meets first get errors naming the field.
      send({ jsonrpc: '2.0', id: 3, method: 'lsp.actions.run', params: { action: 'diagnostics.get', params: { filePath: 'src/main.ts', workspaceRoot: 'examples/sample' } } });
      const relative = (await response(3))['result'];
      assert.equal(relative.status, 'failed');
      assert.equal(relative.error.code, 'LSP_ACTION_INVALID_ARGS');
      assert.match(relative.error.message, /^params\.workspaceRoot must be an absolute path; "examples\/sample" is relative/);
      send({ jsonrpc: '2.0', id: 4, method: 'lsp.actions.run', params: { action: 'diagnostics.get', params: { filePath: 'src/main.ts', workspaceRoot: SAMPLE, sessionId: 'mine' } } });
      const misplaced = (await response(4))['result'];
      assert.equal(misplaced.error.code, 'LSP_ACTION_INVALID_ARGS');
      assert.match(misplaced.error.message, /^params\.sessionId is not an action parameter/);

      const before = descendants(child.pid as number);
      assert.ok(before.length > 0, 'the language server runs under the backend');
      for (const frame of frames()) assert.equal(frame['jsonrpc'], '2.0', 'stdout holds JSON-RPC frames only');

      child.stdin.end();
      assert.equal(await exited, 0, stderr);
      await sleep(200);
      assert.deepEqual(before.filter(alive), [], 'no process is left after end of input');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
