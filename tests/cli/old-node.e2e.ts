/**
 * The built executable on the machine's older Node (these machines ship Node 20 as
 * /usr/bin/node): `--help` and `--version` answer as on Node 22, every other command stops with
 * exit 2 and a line that — run as printed — does the job on the bundled Node 22; and inside the
 * package folder `npx dsh-lsp-actions` runs on that Node by itself (the built bin is executable).
 * Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { REPO } from './cli-harness.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const TIMEOUT = 180_000;

/** The first Node older than 22.19 on PATH (after the project's own) or in the usual places. */
function findOldNode(): string | undefined {
  const candidates = [...(process.env['PATH'] ?? '').split(':').map((dir) => join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
  return candidates.find((bin) => {
    const probe = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const [major = 0, minor = 0] = (probe.stdout ?? '').trim().split('.').map(Number);
    return probe.status === 0 && (major < 22 || (major === 22 && minor < 19));
  });
}

const run = (node: string, argv: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(node, [MAIN, ...argv], { cwd: REPO, encoding: 'utf8', env, timeout: TIMEOUT });

describe('dsh-lsp-actions on an older Node', () => {
  let old: string | undefined;
  before(() => {
    old = findOldNode();
  });

  it('answers --help, help TOPIC, COMMAND --help and --version exactly as on Node 22', (t) => {
    if (old === undefined) return t.skip('no Node older than 22.19 on this machine');
    for (const argv of [['--help'], ['-h'], ['help', 'check'], ['serve', '--help'], ['check', '.', '-h'], ['--version'], ['-V']]) {
      const onOld = run(old, argv);
      const onNew = run(process.execPath, argv);
      assert.equal(onOld.status, 0, `${argv.join(' ')}: ${onOld.stderr}`);
      assert.equal(onOld.stderr, '', argv.join(' '));
      assert.equal(onOld.stdout, onNew.stdout, argv.join(' '));
      assert.ok(onOld.stdout.length > 0);
    }
  });

  it('refuses other commands with exit 2 and a line that runs them on the bundled Node 22', (t) => {
    if (old === undefined) return t.skip('no Node older than 22.19 on this machine');
    const refused = run(old, ['check', 'examples/sample', '--format', 'json']);
    assert.equal(refused.status, 2);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /^error: dsh-lsp-actions needs Node 22\.19 or newer; this is Node 2\d\.\d+\.\d+ \(/);
    const line = /\n {2}(\S+node) (\S+main\.js) (.*)\n/.exec(refused.stderr);
    assert.ok(line, refused.stderr);
    const [, node = '', script = '', args = ''] = line;
    assert.equal(script, MAIN);
    assert.match(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout, /^v22\./);
    // The printed line, run as printed: the sample's three errors, as JSON.
    const done = spawnSync(node, [script, ...args.split(' ')], { cwd: REPO, encoding: 'utf8', timeout: TIMEOUT });
    assert.equal(done.status, 1, done.stderr);
    const report = JSON.parse(done.stdout) as { files: Array<{ diagnostics: unknown[] }> };
    assert.equal(report.files.reduce((n, file) => n + file.diagnostics.length, 0), 3);
  });

  it('inside the package folder, npx dsh-lsp-actions runs on the bundled Node 22', (t) => {
    if (old === undefined) return t.skip('no Node older than 22.19 on this machine');
    // npm and npx from the old Node's folder, nothing of the project's on PATH.
    const env = { ...process.env, PATH: join(old, '..'), npm_config_loglevel: 'error', npm_config_update_notifier: 'false' };
    const r = spawnSync(join(old, '..', 'npx'), ['--offline', 'dsh-lsp-actions', 'check', 'examples/sample', '-f', 'json'], { cwd: REPO, encoding: 'utf8', env, timeout: TIMEOUT });
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout) as { files: Array<{ diagnostics: unknown[] }> };
    assert.equal(report.files.reduce((n, file) => n + file.diagnostics.length, 0), 3);
  });
});
