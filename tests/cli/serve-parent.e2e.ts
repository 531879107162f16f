/**
 * `serve` stops when its parent dies (an editor killed without closing our pipes): the backend
 * runs under an intermediate process that shares this test's pipes; once that parent is killed
 * the backend is re-parented, notices, stops every language server and exits — though its stdin
 * is still open and its stdout still read.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { REPO } from './cli-harness.ts';
import { descendants, MAIN, running, until } from './serve-process.ts';

let ws: string;
before(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'serve-parent-')));
  await writeFile(join(ws, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true}}');
  await writeFile(join(ws, 'a.ts'), 'export const a: number = "x";\n');
});
after(async () => {
  await rm(ws, { recursive: true, force: true });
});

describe('serve and its parent', () => {
  it('exits when its parent dies, with stdin still open, leaving no language server', { timeout: 180_000 }, async () => {
    const script = `const c = require('node:child_process').spawn(process.execPath, ${JSON.stringify([MAIN, 'serve', '--workspace', ws, '--sandbox', 'read-only'])}, { stdio: 'inherit' });
process.stderr.write('SERVE_PID ' + c.pid + '\\n');
setInterval(() => {}, 1 << 30);`;
    const parent = spawn(process.execPath, ['-e', script], { cwd: REPO, env: { ...process.env, PATH: join(process.execPath, '..') }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    parent.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    parent.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      await until('the backend pid is known', () => /SERVE_PID (\d+)/.test(stderr), 60_000);
      const servePid = Number(/SERVE_PID (\d+)/.exec(stderr)?.[1]);
      parent.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'w', method: 'lsp.actions.run', params: { action: 'diagnostics.get', params: { workspaceRoot: ws, filePath: 'a.ts' } } })}\n`);
      await until('the first answer', () => stdout.includes('"id":"w"'), 120_000);
      assert.match(stdout, /"status":"succeeded"/);
      const servers = descendants(servePid);
      assert.ok(servers.length > 0, 'a language server runs under serve');
      parent.kill('SIGKILL');
      await until('serve exited', () => !running(servePid), 60_000);
      await until('every language server is gone', () => servers.every((pid) => !running(pid)), 30_000);
      assert.equal(parent.stdin.writableEnded, false, 'stdin was never closed');
    } finally {
      parent.kill('SIGKILL');
      await sleep(10);
    }
  });
});
