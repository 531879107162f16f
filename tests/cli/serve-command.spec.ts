/**
 * `serve` as a process: boots a composition through the Loader, keeps running while stdin is
 * open, and on end of input disposes everything — the child a plugin started through
 * `ctx.subprocess` included — and exits 0. Uses the fake plugin; the real editor protocol is
 * covered by the plugin's own serve end-to-end test.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { alive, REPO, spawnCli, writeFakeComposition } from './cli-harness.ts';

const MAIN = join(REPO, 'src', 'cli', 'main.ts');
const ws = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-serve-'));
after(() => rmSync(ws, { recursive: true, force: true }));

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

describe('serve', () => {
  it('runs until stdin ends, then stops every child process and exits 0; stdout stays empty', async () => {
    const config = join(ws, 'cordis.yml');
    const pidFile = join(ws, 'sleeper.pid');
    writeFakeComposition(config, { editor: true, spawnSleeper: true, pidFile, noisy: true });
    const child = spawn(process.execPath, [MAIN, 'serve', '--config', config, '--log-level', 'info'], {
      cwd: ws,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // the file exists from its creation on, before its pid is written: wait for the pid itself
      // (read empty, it was 0 — `kill(0, 0)` succeeds and /proc/0 does not exist: a false "dead")
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 30_000);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      assert.ok(alive(pid), 'the plugin child runs while serving');
      await sleep(300);
      assert.equal(child.exitCode, null, 'still serving while stdin is open');
      child.stdin.end();
      assert.equal(await exited, 0, stderr);
      assert.equal(alive(pid), false, 'no child process is left');
      assert.equal(stdout, '', 'stdout carries protocol frames only');
      assert.match(stderr, /stopping \(eof\)/);
      assert.match(stderr, /fake plugin noise/, 'console output goes to stderr');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('--print-config prints the default composition as a cordis.yml', async () => {
    const run = await spawnCli(MAIN, ['serve', '--print-config', '--workspace', ws, '--sandbox', 'read-only'], { cwd: REPO, env: { ...process.env, PATH: '' } });
    assert.equal(run.code, 0, run.stderr);
    const rows = parseYaml(run.stdout) as Array<{ id: string; config?: Record<string, unknown> }>;
    assert.deepEqual(rows.map((r) => r.id), ['system-prompt', 'tools', 'sandbox-policy', 'fs', 'subprocess', 'fs-observation-policy', 'tool-call-timeout-policy', 'lsp-actions']);
    assert.deepEqual(rows[2]?.config, { mode: 'read-only', workspaceRoot: ws });
    const plugin = rows[7]?.config as { editor: unknown };
    assert.deepEqual(plugin.editor, { enabled: true, workspaceRoots: [ws] });
  });

  it('a failing composition is a setup error (exit 2), a missing workspace too', async () => {
    const bad = await spawnCli(MAIN, ['serve', '--config', join(ws, 'missing.yml')], { cwd: ws });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /config file .*missing\.yml does not exist/);
    const noWs = await spawnCli(MAIN, ['serve', '--workspace', join(ws, 'nope')], { cwd: ws });
    assert.equal(noWs.code, 2);
    assert.match(noWs.stderr, /is not a directory/);
  });
});

describe('main', () => {
  it('--version and --help', async () => {
    const version = await spawnCli(MAIN, ['--version'], { cwd: REPO });
    assert.equal(version.code, 0);
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout, `${pkg.version}\n`);
    const help = await spawnCli(MAIN, ['--help'], { cwd: REPO });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: dsh-lsp-actions <command>/);
  });

  it('usage errors exit 2 with a hint on stderr', async () => {
    const run = await spawnCli(MAIN, ['check', '--bogus'], { cwd: REPO });
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /error: Unknown option '--bogus'\nRun 'dsh-lsp-actions help check' for usage\./);
  });
});
