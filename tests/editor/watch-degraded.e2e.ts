/**
 * Issue 18: a dead watcher never yields `fresh`. `serve` (and `check`) in a child process whose
 * `fs.watch` fails with ENOSPC after the first watch — exactly what an exhausted inotify limit
 * does — with the real typescript-language-server: a dependency no document is open for changes
 * on disk, and the next `diagnostics.get` reports the error it causes (never `fresh` with no
 * errors); the degraded watching is said once on stderr.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI_MAIN, startEditorClient, type EditorClient, type Frame } from '../support/editor-client.ts';

const PRELOAD = join(import.meta.dirname, '..', 'fixtures', 'inotify-limit-preload.ts');
const NODE_ARGS = ['--disable-warning=ExperimentalWarning', '--import', PRELOAD];
const DEGRADED = /watching \S+ is degraded: cannot watch \S+: ENOSPC/g;

function workspace(): string {
  const ws = mkdtempSync(join(tmpdir(), 'lsp-actions-nowatch-'));
  mkdirSync(join(ws, 'src', 'lib'), { recursive: true });
  writeFileSync(join(ws, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true,"module":"nodenext"},"include":["src"]}\n');
  writeFileSync(join(ws, 'src', 'main.ts'), "import { f } from './lib/dep.js';\nexport const n: number = f();\n");
  writeFileSync(join(ws, 'src', 'lib', 'dep.ts'), 'export function f(): number {\n  return 1;\n}\n');
  return ws;
}

describe('watching fails (inotify limit reached in the backend process)', { timeout: 300_000 }, () => {
  let ws: string;
  let editor: EditorClient;
  before(() => {
    ws = workspace();
    editor = startEditorClient(['--workspace', ws], NODE_ARGS);
  });
  after(() => {
    editor.child.kill('SIGKILL');
    rmSync(ws, { recursive: true, force: true });
  });

  it('serve: a dependency changed on disk is seen; never fresh with no errors', async () => {
    const first = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws });
    assert.equal(first['status'], 'succeeded', JSON.stringify(first));
    assert.equal(first['result']['state'], 'fresh');
    assert.deepEqual(first['result']['diagnostics'], []);
    // the dependency is not open anywhere; only a watcher (or its replacement) can see this
    writeFileSync(join(ws, 'src', 'lib', 'dep.ts'), "export function f(): string {\n  return 'one';\n}\n");
    const second = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws });
    assert.equal(second['status'], 'succeeded', JSON.stringify(second));
    const codes = (second['result']['diagnostics'] as Frame[]).map((d) => String(d['code']));
    assert.ok(second['result']['state'] !== 'fresh' || codes.includes('2322'), `a wrong fresh answer: ${JSON.stringify(second['result'])}`);
    assert.equal(second['result']['state'], 'fresh', 'the stat sweep replaces the watcher: the answer is known');
    assert.deepEqual(codes, ['2322']);
    assert.equal(editor.stderr().match(DEGRADED)?.length, 1, `said once:\n${editor.stderr()}`);
  });

  it('check: judges exactly and says once on stderr that watching is degraded', () => {
    const out = spawnSync(process.execPath, [...NODE_ARGS, CLI_MAIN, 'check', ws], { encoding: 'utf8', cwd: ws, timeout: 240_000 });
    assert.equal(out.status, 1, `${out.stdout}\n${out.stderr}`);
    assert.match(out.stdout, /TS2322|2322/);
    const warnings = out.stderr.match(/warning: watching \S+ is degraded \(cannot watch \S+: ENOSPC/g) ?? [];
    assert.equal(warnings.length, 1, out.stderr);
    assert.equal(out.stderr.match(/degraded/g)?.length, 1, `said once, not also as a log line:\n${out.stderr}`);
  });
});
