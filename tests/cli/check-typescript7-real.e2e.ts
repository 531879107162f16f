/**
 * `check` on a real repository that runs TypeScript 7 (issue 21): rxjs 7.8.2's published sources
 * (tests/servers), with the tsconfig migrated as TypeScript 7 asks (its `tsc` rejects `baseUrl`
 * and `moduleResolution: node`), `node_modules/typescript` = the pinned typescript@7.0.2.
 * The oracle is that TypeScript's own `tsc --noEmit -p .` on the same tree: the error sets must be
 * equal (the one error TS 7's stricter DOM types find in rxjs, plus injected ones), every file
 * fresh, and the files checked exactly the program's files in the workspace (`tsc --listFilesOnly`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TS7_TSC, testServersInstalled } from '../support/servers.ts';
import { REPO, spawnCli } from './cli-harness.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const RXJS = join(REPO, 'tests', 'servers', 'node_modules', 'rxjs');
const TS7_PACKAGE = join(REPO, 'tests', 'servers', 'node_modules', 'typescript7');
const TIMEOUT = 300_000;
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}/usr/bin${delimiter}/bin` };

let root = '';
after(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

/** A copy of rxjs with its tsconfig migrated to TypeScript 7 (what its `tsc` asks for). */
function migratedRxjs(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-ts7-rxjs-')));
  for (const part of ['src', 'tsconfig.json', 'package.json', join('dist', 'types')]) cpSync(join(RXJS, part), join(dir, part), { recursive: true });
  const config = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  delete config.compilerOptions['baseUrl'];
  config.compilerOptions['moduleResolution'] = 'bundler';
  config.compilerOptions['module'] = 'esnext';
  // its build-info cache is not what this comparison is about
  config.compilerOptions['incremental'] = false;
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(TS7_PACKAGE, join(dir, 'node_modules', 'typescript'));
  return dir;
}

/** `file:line:col code` of every error TS 7's `tsc --noEmit -p .` prints. */
function tscErrors(cwd: string): string[] {
  const r = spawnSync(TS7_TSC, ['--noEmit', '-p', '.', '--pretty', 'false'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.ok(r.status === 0 || r.status === 1 || r.status === 2, `tsc ran (${r.status}): ${r.stderr}`);
  return [...r.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
}

/** The program's files inside the workspace, as TS 7's `tsc --listFilesOnly` lists them. */
function programFiles(cwd: string): string[] {
  const r = spawnSync(TS7_TSC, ['-p', '.', '--listFilesOnly'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout
    .split('\n')
    .filter((line) => line.startsWith(cwd + sep) && !line.includes(`${sep}node_modules${sep}`))
    .map((line) => relative(cwd, line))
    .sort();
}

interface JsonDoc {
  typescript?: { version: string; server?: string };
  summary: { files: number; errors: number; notFresh: { total: number } };
  files: Array<{ path: string; state: string; config?: boolean; diagnostics: Array<{ line: number; column: number; code: unknown; severity: string }> }>;
}

before(() => assert.ok(existsSync(MAIN), 'run `npm run build` first: lib/cli/main.js is missing'));

describe('a real repository on TypeScript 7: rxjs 7.8.2 migrated, against its tsc', { timeout: TIMEOUT * 2, skip: !testServersInstalled() || !existsSync(join(RXJS, 'src')) }, () => {
  it('the same errors as TS 7 tsc --noEmit -p ., every program file checked and fresh', async () => {
    root = migratedRxjs();
    appendFileSync(join(root, 'src', 'internal', 'util', 'identity.ts'), '\nexport const injected: number = "not a number";\n');
    appendFileSync(join(root, 'src', 'internal', 'Observable.ts'), '\nexport const alsoInjected: string = 42;\n');
    // A caller of a real operator with the wrong argument type: judged through the import graph.
    appendFileSync(join(root, 'src', 'internal', 'operators', 'map.ts'), "\nimport { of } from '../observable/of';\nexport const wrong = map((x: string) => x.length)(of(1, 2));\n");
    const expected = tscErrors(root);
    assert.ok(expected.length >= 4, `TS 7 tsc reports the injected errors and rxjs's own: ${expected.join(', ')}`);
    const files = programFiles(root);
    assert.ok(files.length > 400, `the program is the whole library (${files.length} files)`);

    const r = await spawnCli(MAIN, ['check', '.', '--format', 'json', '--wait-ms', '150000', '--log-level', 'debug'], { cwd: root, env: { ...env, DSH_LSP_ACTIONS_TIMELINE: '1' }, timeoutMs: TIMEOUT });
    assert.equal(r.code, 1, r.stderr.slice(-2000));
    // the answers came from a server whose project loaded before the plan was done (decision 0110),
    // the very process started before the composition booted (decision 0113)
    assert.match(r.stderr, /^timeline: [\d.]+ ms project loaded$/m);
    assert.match(r.stderr, /typescript: took the process started before the engine \(root /);
    assert.doesNotMatch(r.stderr, /was not taken by the engine/);
    // the program's listing came from that server, not from a second parse by tsc (decision 0114)
    assert.match(r.stderr, /typescript api: .*tsconfig\.json listed by the server \(\d+ files\)/);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    assert.equal(doc.typescript?.version, '7.0.2');
    assert.equal(doc.typescript?.server, 'tsc --lsp');
    assert.equal(doc.summary.notFresh.total, 0, `every file fresh: ${JSON.stringify(doc.files.filter((f) => f.state !== 'fresh').slice(0, 3))}`);
    const errors = doc.files
      .flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${f.path}:${d.line}:${d.column} ${String(d.code)}`))
      .sort();
    assert.deepEqual(errors, expected);
    assert.deepEqual(doc.files.filter((f) => f.config !== true).map((f) => f.path).sort(), files);
  });

  it('a module another process saves while check starts (before and after the server is up): its importer is never a false clean', async () => {
    assert.ok(root !== '', 'runs after the parity test, on its tree');
    // the saved module, and an importer that sorts into another batch: judged by what the server
    // knows of the module, not by its own text (decision 0110's watch, handed over by 0113)
    const saved = join(root, 'src', 'internal', 'util', 'savedByOther.ts');
    const importer = join(root, 'src', 'a-uses-saved.ts');
    const clean = 'export type Saved = number;\n';
    const broken = 'export type Saved = string;\n';
    writeFileSync(importer, "import type { Saved } from './internal/util/savedByOther';\nexport const value: Saved = 1;\n");
    let conclusive = 0;
    try {
      // one save each run, at a different moment of the start: before the server exists, while
      // it loads, around the boot's end and the engine taking it over, after
      for (const delayMs of [40, 80, 120, 160, 200, 240, 300]) {
        writeFileSync(saved, clean);
        let lastWrite = 0;
        const writer = (async () => {
          await new Promise((r) => setTimeout(r, delayMs));
          writeFileSync(saved, broken);
          lastWrite = performance.now();
        })();
        const r = await spawnCli(MAIN, ['check', '.', '--format', 'json', '--wait-ms', '150000'], { cwd: root, env, timeoutMs: TIMEOUT });
        const exited = performance.now();
        await writer;
        const doc = JSON.parse(r.stdout) as JsonDoc;
        const report = doc.files.find((f) => f.path === relative(root, importer));
        assert.ok(report !== undefined, `the importer is reported: ${r.stderr.slice(-500)}`);
        // conclusive when the broken text had been on disk well before the run's last answers
        // (a save in the last moments before exit is a race no checker can see)
        if (exited - lastWrite < 200) continue;
        conclusive++;
        const hasError = report.diagnostics.some((d) => String(d.code) === '2322');
        assert.ok(report.state !== 'fresh' || hasError, `false clean: ${JSON.stringify(report)} (saved ${delayMs} ms into the run)`);
      }
      assert.ok(conclusive > 0, 'at least one run ended well after the last save');
    } finally {
      rmSync(saved, { force: true });
      rmSync(importer, { force: true });
    }
  });
});
