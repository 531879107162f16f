/**
 * `check` agrees with the compiler (issue 9): generated projects, the built executable, the real
 * typescript-language-server, and in the same test the compiler people already run —
 * `tsc --noEmit -p` (the workspace's own TypeScript) or `pyright --outputjson` — on the same
 * files. Each case asserts the exit code and that the errors are exactly the compiler's.
 *
 * - sources under `lib/` (a directory name `check` once skipped) with a tsconfig including them;
 *   test files outside the program and gitignored build output are skipped with a note;
 * - a tsconfig that excludes `test/`;
 * - a workspace pinned to TypeScript 4.9.5 (installed from npm into the fixture) where 5.9
 *   reports an extra error;
 * - Python under `lib/`, against pyright;
 * - SIGINT / SIGTERM mid-run: one summary line, exit 130 / 143.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, spawnCli } from './cli-harness.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const TSC_59 = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const SERVERS_BIN = join(REPO, 'tests', 'servers', 'node_modules', '.bin');
const TIMEOUT = 240_000;
const NODE_DIR = dirname(process.execPath);
/** git answers what .gitignore ignores: a directory holding only a link to it. */
const GIT_DIR = mkdtempSync(join(tmpdir(), 'dsh-lsp-parity-git-'));
symlinkSync(spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim(), join(GIT_DIR, 'git'));
// The test's Node and git on PATH, nothing else: no preset server is found by accident.
const env = { ...process.env, PATH: `${NODE_DIR}${delimiter}${GIT_DIR}` };

const roots: string[] = [GIT_DIR];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), `dsh-lsp-parity-${name}-`));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const git = spawnSync('git', ['init', '-q', root]);
  assert.equal(git.status, 0, 'git init');
  return root;
}

/** `file:line:col code` of every error `tsc --noEmit -p .` prints (paths relative to the project). */
function tscErrors(tsc: string, cwd: string): { code: number; errors: string[] } {
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', '.', '--pretty', 'false'], { cwd, encoding: 'utf8' });
  const errors = [...r.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`);
  return { code: r.status ?? -1, errors: errors.sort() };
}

interface JsonDoc {
  outcome: string;
  typescript?: { source: string; version: string; path: string; server?: string };
  skipped?: { unconfigured: string[]; ignored: string[] };
  summary: { files: number; errors: number; notFresh: { total: number } };
  files: Array<{ path: string; state: string; diagnostics: Array<{ line: number; column: number; code: unknown; severity: string; source?: string }> }>;
}

function errorsOf(doc: JsonDoc): string[] {
  return doc.files
    .flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${f.path}:${d.line}:${d.column} ${String(d.code)}`))
    .sort();
}

// A generous wait: the machine is shared and loaded; a result that is not fresh would fail the comparison.
const check = (cwd: string, argv: string[], extraEnv: NodeJS.ProcessEnv = env) =>
  spawnCli(MAIN, ['check', '--wait-ms', '150000', ...argv], { cwd, env: extraEnv, timeoutMs: TIMEOUT });

before(() => assert.ok(existsSync(MAIN), 'run `npm run build` first: lib/cli/main.js is missing'));

describe('check and tsc agree on the file set', { timeout: TIMEOUT * 4 }, () => {
  it('sources under lib/ are checked; test files outside the program and gitignored output are skipped, with notes', async () => {
    const root = project('lib', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext' }, include: ['lib'] }),
      'lib/index.ts': "export { total } from './math/total.js';\nexport const label: string = 42;\n",
      'lib/math/total.ts': 'export function total(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, "0");\n}\n',
      'lib/ok.ts': 'export const ok = 1;\n',
      'test/total.test.ts': "import { total } from '../lib/math/total.js';\nconst n: string = total([1]);\n",
      'dist/index.js': 'export const label = 42;\n',
      '.gitignore': 'dist/\n',
    });
    const tsc = tscErrors(TSC_59, root);
    assert.equal(tsc.errors.length, 2, `tsc found the two lib/ errors: ${tsc.errors.join(', ')}`);
    const r = await check(root, ['.', '--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    assert.deepEqual(doc.files.map((f) => [f.path, f.state]), [['lib/index.ts', 'fresh'], ['lib/math/total.ts', 'fresh'], ['lib/ok.ts', 'fresh']]);
    assert.deepEqual(errorsOf(doc), tsc.errors);
    assert.deepEqual(doc.skipped, { unconfigured: ['test/total.test.ts'], ignored: ['dist'] });
    assert.match(r.stderr, /^note: skipped 1 file in no tsconfig\.json program \(test\/total\.test\.ts\); --include-unconfigured checks them$/m);
    assert.match(r.stderr, /^note: skipped 1 path ignored by \.gitignore \(dist\)$/m);

    const text = await check(root, ['.']);
    assert.equal(text.code, 1, text.stderr);
    assert.equal(text.stdout.trimEnd().split('\n').at(-1), '2 errors, 0 warnings in 2 files (3 files checked)');

    const wider = await check(root, ['.', '--format', 'json', '--include-unconfigured']);
    assert.equal(wider.code, 1, wider.stderr);
    const widerDoc = JSON.parse(wider.stdout) as JsonDoc;
    assert.equal(widerDoc.summary.notFresh.total, 0, wider.stdout);
    assert.deepEqual(errorsOf(widerDoc), [...tsc.errors, 'test/total.test.ts:2:7 2322'].sort());
  });

  it('a file outside include that the program imports is checked, as tsc -p checks it; one nobody imports is skipped', async () => {
    const root = project('imported', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext' }, include: ['src'] }),
      'src/app.ts': "import { twice } from '../shared/twice.js';\nexport const n: number = twice(2);\n",
      'shared/twice.ts': 'export function twice(x: number): number {\n  return `${x}${x}`;\n}\n',
      'shared/unused.ts': 'export const never: number = "not imported";\n',
    });
    const tsc = tscErrors(TSC_59, root);
    assert.deepEqual(tsc.errors, ['shared/twice.ts:2:3 2322'], 'tsc reports the imported file, not the unimported one');
    const r = await check(root, ['.', '--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    assert.deepEqual(errorsOf(doc), tsc.errors);
    assert.deepEqual(doc.files.map((f) => [f.path, f.state]), [['shared/twice.ts', 'fresh'], ['src/app.ts', 'fresh']]);
    assert.deepEqual(doc.skipped?.unconfigured, ['shared/unused.ts']);

    const inSrc = await check(root, ['src', '--format', 'json']);
    assert.equal(inSrc.code, 0, `only src/ was asked for: ${inSrc.stdout}`);
  });

  it('a tsconfig that excludes test/: same errors as tsc; an explicitly named excluded file is still checked', async () => {
    const root = project('exclude', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, exclude: ['test'] }),
      'src/app.ts': 'export function greet(name: string): string {\n  return name.toUpperCase(1);\n}\n',
      'test/app.test.ts': "import { greet } from '../src/app';\ngreet(42);\n",
    });
    const tsc = tscErrors(TSC_59, root);
    assert.deepEqual(tsc.errors, ['src/app.ts:2:27 2554']);
    const r = await check(root, ['--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    assert.deepEqual(errorsOf(doc), tsc.errors);
    assert.deepEqual(doc.skipped?.unconfigured, ['test/app.test.ts']);

    const named = await check(root, ['test/app.test.ts', '--format', 'json']);
    assert.equal(named.code, 1, named.stderr);
    assert.deepEqual(errorsOf(JSON.parse(named.stdout) as JsonDoc), ['test/app.test.ts:2:7 2345']);
  });

  it('a clean program exits 0 like tsc, and a tsconfig error is reported on the tsconfig as tsc reports it', async () => {
    const root = project('clean', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
      'src/a.ts': 'export const a: number = 1;\n',
    });
    assert.deepEqual(tscErrors(TSC_59, root), { code: 0, errors: [] });
    const clean = await check(root, []);
    assert.equal(clean.code, 0, clean.stderr);
    assert.equal(clean.stdout, '0 errors, 0 warnings in 0 files (1 file checked)\n');

    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, notAnOption: true }, include: ['src'] }));
    const tsc = spawnSync(process.execPath, [TSC_59, '--noEmit', '-p', '.', '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
    assert.match(tsc.stdout, /tsconfig\.json\(1,\d+\): error TS5023: Unknown compiler option 'notAnOption'\./);
    const column = Number(/tsconfig\.json\(1,(\d+)\)/.exec(tsc.stdout)?.[1]);
    const broken = await check(root, []);
    assert.equal(broken.code, 1, broken.stderr);
    assert.match(broken.stdout, new RegExp(`^tsconfig\\.json:1:${column} error Unknown compiler option 'notAnOption'\\. \\[typescript 5023\\]$`, 'm'));
    assert.match(broken.stdout, /\(1 file checked\)$/m);
  });
});

describe("check runs the workspace's own TypeScript", { timeout: TIMEOUT * 4 }, () => {
  let root = '';
  let installed = false;
  before(() => {
    root = project('ts49', {
      'package.json': JSON.stringify({ name: 'pinned', private: true }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2020', module: 'commonjs' }, include: ['src'] }),
      // TypeScript 5.0 made every enum a union enum: 5.9 rejects `5` as a Level, 4.9 accepts it.
      'src/level.ts': 'enum Level { Low = 1, High = 2 }\nexport const level: Level = 5;\nexport const name: string = 1;\n',
    });
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', 'typescript@4.9.5'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${NODE_DIR}${delimiter}${process.env['PATH'] ?? ''}` },
    });
    installed = npm.status === 0 && existsSync(join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js'));
    assert.ok(installed, `npm install typescript@4.9.5 failed: ${npm.stderr}`);
  });

  it('a project pinned to 4.9.5 gets exactly its own tsc errors; the embedded 5.9 reports the extra one', async () => {
    const own = tscErrors(join(root, 'node_modules', 'typescript', 'bin', 'tsc'), root);
    const newer = tscErrors(TSC_59, root);
    assert.deepEqual(own.errors, ['src/level.ts:3:14 2322']);
    assert.deepEqual(newer.errors, ['src/level.ts:2:14 2322', 'src/level.ts:3:14 2322']);

    const r = await check(root, ['--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    assert.deepEqual(errorsOf(doc), own.errors);
    const tsserver = join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js');
    assert.deepEqual(doc.typescript, { source: 'workspace', version: '4.9.5', path: tsserver, server: 'tsserver' });
    assert.ok(r.stderr.includes(`TypeScript: the workspace's 4.9.5 (${tsserver})`), r.stderr);

    const embedded = await check(root, ['--format', 'sarif', '--typescript', 'embedded']);
    assert.equal(embedded.code, 1, embedded.stderr);
    const log = JSON.parse(embedded.stdout) as Record<string, any>;
    assert.equal(log.runs[0].results.length, newer.errors.length);
    assert.deepEqual(
      log.runs[0].results.map((res: any) => `src/level.ts:${res.locations[0].physicalLocation.region.startLine}:${res.locations[0].physicalLocation.region.startColumn} 2322`),
      newer.errors,
    );
    assert.equal(log.runs[0].tool.extensions[0].name, 'typescript');
    assert.equal(log.runs[0].tool.extensions[0].version, '5.9.3');
    assert.equal(log.runs[0].tool.driver.properties.typescript.source, 'embedded');
  });
});

describe('check and pyright agree', { timeout: TIMEOUT * 2, skip: !existsSync(join(SERVERS_BIN, 'pyright')) && 'run npm run test:servers' }, () => {
  it('Python sources under lib/: the same errors as pyright --outputjson', async () => {
    const root = project('py', {
      'pyproject.toml': '[tool.pyright]\n',
      'lib/pkg/__init__.py': '',
      'lib/pkg/core.py': 'def total(xs: list[int]) -> int:\n    return sum(xs)\n\n\nlabel: str = total([1])\n',
      'lib/pkg/use.py': 'from pkg.core import total\n\ncount: int = total("x")\nundefined_name\n',
    });
    const pyright = spawnSync(join(SERVERS_BIN, 'pyright'), ['--outputjson', 'lib'], { cwd: root, encoding: 'utf8', env });
    const out = JSON.parse(pyright.stdout) as { generalDiagnostics: Array<{ file: string; severity: string; rule?: string; range: { start: { line: number; character: number } } }> };
    const expected = out.generalDiagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.file.slice(root.length + 1)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.rule}`)
      .sort();
    assert.ok(expected.length >= 3, `pyright reports the injected errors: ${expected.join(', ')}`);
    const r = await check(root, ['lib', '--format', 'json'], { ...env, PATH: `${SERVERS_BIN}${delimiter}${NODE_DIR}` });
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(errorsOf(JSON.parse(r.stdout) as JsonDoc), expected);
  });
});

describe('an interrupted check', { timeout: TIMEOUT * 4 }, () => {
  const FILES = 150;
  let root = '';
  before(() => {
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
    };
    for (let i = 0; i < FILES; i++) files[`src/m${String(i).padStart(3, '0')}.ts`] = `export const v${i}: string = ${i};\n`;
    root = project('signal', files);
  });

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal} mid-run: the finished files, one summary line, exit ${code}`, async () => {
      const tsc = tscErrors(TSC_59, root);
      assert.equal(tsc.errors.length, FILES);
      const r = await runUntil(root, ['check', '--jobs', '1', '--wait-ms', '150000'], /^TypeScript: /m, signal);
      assert.equal(r.code, code, r.stderr);
      const lines = r.stdout.trimEnd().split('\n');
      const last = lines.at(-1) ?? '';
      const m = new RegExp(`^interrupted \\(${signal}\\): (\\d+) of ${FILES} files checked; (\\d+) errors?, 0 warnings in (\\d+) files?$`).exec(last);
      assert.ok(m, `summary line: ${last}`);
      const checked = Number(m[1]);
      assert.ok(checked < FILES, 'stopped before the end');
      assert.equal(Number(m[2]), checked, 'every finished file reports its one error');
      // Every other line is one of tsc's errors: no per-file "failed" or "cancelled" lines.
      const tscLines = new Set(tsc.errors.map((e) => e.replace(/ (\d+)$/, '')));
      for (const line of lines.slice(0, -1)) {
        const pos = /^(src\/m\d+\.ts:\d+:\d+) error /.exec(line)?.[1];
        assert.ok(pos !== undefined && tscLines.has(pos), `a compiler error line: ${line}`);
      }
      assert.equal(lines.length - 1, checked);
      assert.doesNotMatch(r.stdout + r.stderr, /CANCELLED|failed:/);
    });
  }
});

describe('a real library: rxjs 7.8.2, its published src/ and tsconfig (tests/servers)', { timeout: TIMEOUT * 2 }, () => {
  it('check . reports exactly the errors tsc -p . reports on the same files, every file fresh', async () => {
    const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-parity-rxjs-'));
    roots.push(root);
    cpSync(join(REPO, 'tests', 'servers', 'node_modules', 'rxjs'), root, { recursive: true });
    assert.equal(spawnSync('git', ['init', '-q', root]).status, 0);
    // one error in a small file, one deep in the largest one (semantic only: the kind a cold server may answer late)
    appendFileSync(join(root, 'src', 'internal', 'util', 'identity.ts'), '\nexport const injected: number = "not a number";\n');
    appendFileSync(join(root, 'src', 'internal', 'Observable.ts'), '\nexport const alsoInjected: string = 42;\n');
    // `--incremental false`: its tsconfig asks for a build-info cache this comparison must not use
    const r = spawnSync(process.execPath, [TSC_59, '--noEmit', '-p', '.', '--pretty', 'false', '--incremental', 'false'], { cwd: root, encoding: 'utf8' });
    const tsc = [...r.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
    assert.equal(tsc.length, 2, `tsc found the two injected errors: ${r.stdout}`);
    const c = await check(root, ['.', '--format', 'json']);
    assert.equal(c.code, 1, c.stderr);
    const doc = JSON.parse(c.stdout) as JsonDoc;
    assert.deepEqual(errorsOf(doc), tsc);
    assert.equal(doc.summary.notFresh.total, 0, 'every file fresh');
    assert.ok(doc.summary.files > 400, `the program's files were checked (${doc.summary.files})`);
  });
});

/** Spawns the CLI, sends `signal` once stderr matches `ready`, collects the output. */
function runUntil(cwd: string, argv: string[], ready: RegExp, signal: NodeJS.Signals): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...argv], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out; stderr: ${stderr}`));
    }, TIMEOUT);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (!sent && ready.test(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
