/**
 * `check` as the compiler of record, round two (issue 21): the built executable, real servers,
 * and in the same test the compiler the project itself runs.
 *
 * - a TypeScript 7 project (the pinned typescript@7.0.2 of tests/servers as its
 *   node_modules/typescript): checked by its own `tsc --lsp`, the error set equal to its
 *   `tsc --noEmit -p` with injected errors (TS 7's strict default, a removed option, a syntax error);
 * - the graphql-js layout: a root program plus nested programs it does not reference;
 * - a project-references solution built by `tsc -b`, with a `/// <reference path>`d `.d.ts`
 *   carrying an error: the whole solution and folder by folder, five runs one file set, and a
 *   signature change in a referenced project seen by its dependent with no build output;
 * - the syntax-error rule and a tsconfig that is not valid JSON, against TypeScript 5.9's `tsc`.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TS7_TSC, testServersInstalled } from '../support/servers.ts';
import { REPO, spawnCli } from './cli-harness.ts';
import { descendants, running } from './serve-process.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const TSC_59 = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const TS7_PACKAGE = join(REPO, 'tests', 'servers', 'node_modules', 'typescript7');
const TIMEOUT = 240_000;
// The test's Node on PATH, nothing else: no preset server is found by accident.
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}/usr/bin${delimiter}/bin` };

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string>, typescript?: string): string {
  const root = mkdtempSync(join(tmpdir(), `dsh-programs-${name}-`));
  roots.push(root);
  write(root, files);
  if (typescript !== undefined) {
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    symlinkSync(typescript, join(root, 'node_modules', 'typescript'));
  }
  return root;
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** `file:line:col code` of every error a `tsc` prints (paths relative to the project). */
function tscRun(command: string[], cwd: string): { code: number; errors: string[] } {
  const [exe = '', ...args] = command;
  const r = spawnSync(exe, [...args, '--pretty', 'false'], { cwd, encoding: 'utf8' });
  const errors = [...r.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`);
  return { code: r.status ?? -1, errors: errors.sort() };
}
const tsc7 = (cwd: string, ...args: string[]) => tscRun([TS7_TSC, ...args], cwd);
const tsc59 = (cwd: string, ...args: string[]) => tscRun([process.execPath, TSC_59, ...args], cwd);

interface JsonDoc {
  outcome: string;
  typescript?: { source: string; version: string; path: string; server?: string };
  programs?: string[];
  skipped?: { unconfigured: string[]; ignored: string[]; programs?: string[] };
  summary: { files: number; errors: number; notFresh: { total: number } };
  files: Array<{ path: string; state: string; config?: boolean; diagnostics: Array<{ line: number; column: number; code: unknown; severity: string }> }>;
}

function errorsOf(doc: JsonDoc): string[] {
  return doc.files
    .flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${f.path}:${d.line}:${d.column} ${String(d.code)}`))
    .sort();
}

const checkedFiles = (doc: JsonDoc): string[] => doc.files.filter((f) => f.config !== true).map((f) => f.path);

// A generous wait: the machine is shared and loaded; a result that is not fresh would fail the comparison.
async function check(cwd: string, argv: string[]): Promise<{ code: number; doc: JsonDoc; stderr: string }> {
  const r = await spawnCli(MAIN, ['check', '--wait-ms', '150000', '--format', 'json', ...argv], { cwd, env, timeoutMs: TIMEOUT });
  let doc: JsonDoc;
  try {
    doc = JSON.parse(r.stdout) as JsonDoc;
  } catch {
    throw new Error(`check printed no JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
  }
  return { code: r.code, doc, stderr: r.stderr };
}

before(() => assert.ok(existsSync(MAIN), 'run `npm run build` first: lib/cli/main.js is missing'));

/** The tsserver processes under `pid` (typescript-language-server's children), from /proc. */
function tsservers(pid: number): number[] {
  return descendants(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('tsserver.js');
    } catch {
      return false; // it exited meanwhile
    }
  });
}

/** The build-order map file named in a process's environment (`DSH_LSP_SOLUTION_REFERENCES`), if any. */
function mapFileOf(pid: number): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((variable) => variable.startsWith('DSH_LSP_SOLUTION_REFERENCES='));
    return entry?.slice(entry.indexOf('=') + 1);
  } catch {
    return undefined; // it exited meanwhile
  }
}

/**
 * {@link check}, sampling the tsserver processes of its tree every 20 ms: the most at once, and
 * every process of the tree seen. `interrupt`: SIGINT once a second server was seen (no JSON then).
 */
async function checkSampled(
  cwd: string,
  argv: string[],
  { interrupt = false } = {},
): Promise<{ code: number; doc: JsonDoc; stderr: string; peakServers: number; startedServers: number; seen: number[]; pid: number; mapFiles: Map<string, boolean> }> {
  const child = spawn(process.execPath, [MAIN, 'check', '--wait-ms', '150000', '--format', 'json', ...argv], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  let peakServers = 0;
  const seen = new Set<number>();
  const tree = new Set<number>();
  // The build-order map files the servers were told of (decision 0108), each with whether it was seen on disk.
  const mapFiles = new Map<string, boolean>();
  const sampler = setInterval(() => {
    for (const pid of descendants(child.pid as number)) {
      tree.add(pid);
      const path = mapFileOf(pid);
      if (path !== undefined) mapFiles.set(path, mapFiles.get(path) === true || existsSync(path));
    }
    const now = tsservers(child.pid as number);
    for (const pid of now) seen.add(pid);
    peakServers = Math.max(peakServers, now.length);
    if (interrupt && seen.size >= 2 && child.exitCode === null) child.kill('SIGINT');
  }, 20);
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT);
  const code = await closed.finally(() => {
    clearInterval(sampler);
    clearTimeout(timer);
  });
  const done = { code, stderr, peakServers, startedServers: seen.size, seen: [...tree], pid: child.pid as number, mapFiles };
  if (interrupt) return { ...done, doc: { outcome: 'interrupted', summary: { files: 0, errors: 0, notFresh: { total: 0 } }, files: [] } };
  try {
    return { ...done, doc: JSON.parse(stdout) as JsonDoc };
  } catch {
    throw new Error(`check printed no JSON (exit ${code}): ${stdout}\n${stderr}`);
  }
}


describe('a TypeScript 7 workspace is checked by TypeScript 7', { timeout: TIMEOUT * 4, skip: !testServersInstalled() }, () => {
  const sources = {
    'src/geometry.ts': 'export interface Point { x: number; y: number }\nexport function norm(p: Point): number {\n  return Math.sqrt(p.x * p.x + p.y * p.y);\n}\n',
    // TS 7 turns strict on by default: an implicit any is an error (TS7006) that 5.9 does not report.
    'src/scale.ts': 'export function scale(p, k: number) {\n  return { x: p.x * k, y: p.y * k };\n}\n',
    'src/main.ts': "import { norm } from './geometry';\nimport { scale } from './scale';\nexport const n: string = norm({ x: 1, y: 2 });\nexport const s = scale({ x: 1, y: 1 }, '2');\nexport const m = norm({ x: 1 });\n",
    'src/ok.ts': 'export const ok: number = 1;\n',
  };

  it("equals that TypeScript's tsc --noEmit -p, names the compiler, and the embedded 5.9 would not", async () => {
    const root = project('ts7', { 'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', noEmit: true }, include: ['src'] }), ...sources }, TS7_PACKAGE);
    const tsc = tsc7(root, '--noEmit', '-p', '.');
    assert.ok(tsc.errors.includes('src/scale.ts:1:23 7006'), `TS 7 reports the implicit any: ${tsc.errors.join(', ')}`);
    assert.ok(tsc.errors.length >= 4, tsc.errors.join(', '));
    // debug: the engine says how the files were asked
    const r = await check(root, ['.', '--log-level', 'debug']);
    assert.equal(r.code, 1, r.stderr);
    // pulled without opening them (decision 0039), all four in one batch
    assert.match(r.stderr, /typescript: pulled 4 of 4 files unopened\n/);
    assert.doesNotMatch(r.stderr, /asked per file|answers pending/);
    assert.deepEqual(
      r.doc.files.filter((f) => f.state !== 'fresh').map((f) => `${f.path} ${f.state}`),
      [],
    );
    assert.equal(r.doc.typescript?.version, '7.0.2');
    assert.equal(r.doc.typescript?.server, 'tsc --lsp');
    assert.equal(r.doc.typescript?.source, 'workspace');
    assert.match(r.stderr, /^TypeScript: the workspace's 7\.0\.2 \(.*, its own language server: tsc --lsp\)$/m);
    assert.equal(r.doc.summary.notFresh.total, 0);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    assert.deepEqual(checkedFiles(r.doc), ['src/geometry.ts', 'src/main.ts', 'src/ok.ts', 'src/scale.ts']);
    // The same tree with the embedded 5.9 misses TS 7's strict default: the choice matters.
    const embedded = await check(root, ['.', '--typescript', 'embedded']);
    assert.ok(!errorsOf(embedded.doc).includes('src/scale.ts:1:23 7006'));
  });

  it('an option TypeScript 7 removed (baseUrl) is its error on the tsconfig, and tsc stops there', async () => {
    const root = project('ts7-baseurl', { 'tsconfig.json': '{\n  "compilerOptions": { "baseUrl": ".", "noEmit": true },\n  "include": ["src"]\n}\n', ...sources }, TS7_PACKAGE);
    const tsc = tsc7(root, '--noEmit', '-p', '.');
    assert.deepEqual(tsc.errors.map((e) => e.replace(/:\d+:\d+ /, ' ')), ['tsconfig.json 5102'], 'only the removed option: tsc stops there');
    const r = await check(root, ['.']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    // tsc parsed every file before it stopped (a syntax error would have been reported): all judged
    assert.deepEqual(checkedFiles(r.doc), ['src/geometry.ts', 'src/main.ts', 'src/ok.ts', 'src/scale.ts']);
  });

  it('a syntax error: only the syntax error, as its tsc', async () => {
    const root = project('ts7-syntax', { 'tsconfig.json': JSON.stringify({ compilerOptions: { noEmit: true }, include: ['src'] }), ...sources, 'src/broken.ts': 'export const b: number = "x";\nlet = ;\n' }, TS7_PACKAGE);
    const tsc = tsc7(root, '--noEmit', '-p', '.');
    assert.deepEqual(tsc.errors.map((e) => e.replace(/:\d+:\d+ /, ' ')), ['src/broken.ts 1109'], 'only the syntax error');
    const r = await check(root, ['.']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    // Every file of the program was judged (parsed: no other syntax error), not only the broken one:
    // the count is the program's files, as TypeScript 5.9's path counts them (once said "1 file checked").
    const judged = ['src/broken.ts', 'src/geometry.ts', 'src/main.ts', 'src/ok.ts', 'src/scale.ts'];
    assert.deepEqual(checkedFiles(r.doc), judged);
    assert.equal(r.doc.summary.files, judged.length);
    assert.deepEqual(r.doc.files.filter((f) => f.state !== 'fresh').map((f) => f.path), []);
    const text = await spawnCli(MAIN, ['check', '--wait-ms', '150000', '--no-progress', '.'], { cwd: root, env, timeoutMs: TIMEOUT });
    assert.match(text.stdout, /^1 error, 0 warnings in 1 file \(5 files checked\)$/m, text.stdout);
    // The file given by name is judged in its program, by the same rule.
    const named = await check(root, ['src/broken.ts']);
    assert.equal(named.code, 1, named.stderr);
    assert.deepEqual(errorsOf(named.doc), tsc.errors);
    assert.deepEqual(named.doc.programs?.map((config) => config.replace(/\\/g, '/').split('/').pop()), ['tsconfig.json']);
    assert.deepEqual(checkedFiles(named.doc), ['src/broken.ts'], 'narrowed to the file named, as with TypeScript 5.9');
  });

  it('a tsconfig that is not valid JSON: its TS1005, exit 1', async () => {
    const root = project('ts7-json', { 'tsconfig.json': '{ "compilerOptions": { "noEmit": true }, "include": ["src"]\n', ...sources }, TS7_PACKAGE);
    const tsc = tsc7(root, '--noEmit', '-p', '.');
    assert.notEqual(tsc.code, 0);
    const r = await check(root, ['.']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    assert.ok(errorsOf(r.doc).some((e) => e.startsWith('tsconfig.json:') && e.endsWith(' 1005')), errorsOf(r.doc).join(', '));
  });
});

describe('the compiler-of-record rules with TypeScript 5.9', { timeout: TIMEOUT * 4 }, () => {
  it('syntax errors: only those, as tsc (not the semantic errors that follow)', async () => {
    const root = project('syntax', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
      'src/broken.ts': 'export const b: number = "x";\nlet = ;\n',
      'src/other.ts': 'export const y: number = "not a number";\n',
    });
    const tsc = tsc59(root, '--noEmit', '-p', '.');
    assert.deepEqual(tsc.errors.map((e) => e.replace(/:\d+:\d+ /, ' ')), ['src/broken.ts 1109'], 'only the syntax error');
    const r = await check(root, ['.']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    // The file given by name is judged in its program, by the same rule.
    const named = await check(root, ['src/broken.ts']);
    assert.equal(named.code, 1, named.stderr);
    assert.deepEqual(errorsOf(named.doc), tsc.errors);
    assert.deepEqual(named.doc.programs?.map((config) => config.replace(/\\/g, '/').split('/').pop()), ['tsconfig.json']);
  });

  it('a tsconfig that is not valid JSON is an error on the tsconfig (exit 1), never a clean pass', async () => {
    const root = project('json', { 'tsconfig.json': '{ "compilerOptions": { "strict": true, }\n', 'src/a.ts': 'export const a = 1;\n' });
    const tsc = tsc59(root, '--noEmit', '-p', '.');
    assert.deepEqual(tsc.errors, ['tsconfig.json:2:1 1005']);
    const r = await check(root, ['.']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    assert.equal(r.doc.files.find((f) => f.path === 'tsconfig.json')?.config, true);
  });

  it('the graphql-js layout: the root program is checked, nested programs it does not reference are skipped and named', async () => {
    const root = project('graphql', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
      'src/index.ts': 'export const version: string = "16";\n',
      'integrationTests/ts/tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
      'integrationTests/ts/basic-test.ts': 'export const n: number = "integration";\n',
      'website/tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
      'website/page.ts': 'export const p: boolean = 1;\n',
    });
    assert.equal(tsc59(root, '--noEmit', '-p', '.').code, 0, "the repository's own gate is clean");
    const r = await check(root, ['.']);
    assert.equal(r.code, 0, JSON.stringify(r.doc));
    assert.deepEqual(r.doc.programs, ['tsconfig.json']);
    assert.deepEqual(r.doc.skipped?.programs, ['integrationTests/ts/tsconfig.json', 'website/tsconfig.json']);
    assert.deepEqual(checkedFiles(r.doc), ['src/index.ts']);
    assert.match(r.stderr, /^note: skipped 2 tsconfig programs nested under the given path that its own tsconfig does not reference \(integrationTests\/ts\/tsconfig\.json, website\/tsconfig\.json\); --all-programs checks them$/m);
    const all = await check(root, ['.', '--all-programs']);
    assert.equal(all.code, 1);
    assert.deepEqual(errorsOf(all.doc), ['integrationTests/ts/basic-test.ts:1:14 2322', 'website/page.ts:1:14 2322']);
    // A nested program given as the path is that program.
    const site = await check(root, ['website']);
    assert.deepEqual(errorsOf(site.doc), ['website/page.ts:1:14 2322']);
  });

  it('a jsconfig.json next to the tsconfig.json is not what tsc -b builds: skipped and named, as on vscode-languageserver-node', async () => {
    const root = project('jsconfig-beside', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
      'src/index.ts': 'export const version: string = "1";\n',
      // The repository's own editor setup for a build script: checkJs, an error tsc -b never sees.
      'jsconfig.json': JSON.stringify({ compilerOptions: { checkJs: true, strict: true }, include: ['./.buildrc.js'] }),
      '.buildrc.js': '// @ts-check\n/** @type {number} */\nconst n = "one";\nmodule.exports = n;\n',
    });
    const built = tsc59(root, '-b', '.');
    assert.deepEqual(built, { code: 0, errors: [] }, 'tsc -b reads the tsconfig.json only');
    const r = await check(root, ['.']);
    assert.equal(r.code, 0, JSON.stringify(r.doc));
    assert.deepEqual(r.doc.programs, ['tsconfig.json']);
    assert.deepEqual(r.doc.skipped?.programs, ['jsconfig.json']);
    assert.deepEqual(checkedFiles(r.doc), ['src/index.ts']);
    // It is still a program: asked for, it is checked.
    const all = await check(root, ['.', '--all-programs']);
    assert.equal(all.code, 1);
    assert.deepEqual(errorsOf(all.doc), ['.buildrc.js:3:7 2322']);
  });
});

/** A fresh clone: no outDir, no .tsbuildinfo. */
function removeBuildOutput(root: string): void {
  for (const dir of ['app', 'cli', 'core']) {
    rmSync(join(root, dir, 'out'), { recursive: true, force: true });
    rmSync(join(root, dir, 'tsconfig.tsbuildinfo'), { force: true });
  }
}

const SERVERS_BIN = join(REPO, 'tests', 'servers', 'node_modules', '.bin');

describe('a pyright-configured Python project: the files pyright checks', { timeout: TIMEOUT * 2, skip: !existsSync(join(SERVERS_BIN, 'pyright')) }, () => {
  it('[tool.pyright] include/exclude decide, as pyright run in the same folder', async () => {
    const root = project('pyright', {
      'pyproject.toml': '[project]\nname = "pkg"\n\n[tool.pyright]\ninclude = ["src", "tests/typing"]\nexclude = ["src/pkg/generated"]\n',
      'src/pkg/__init__.py': '',
      'src/pkg/core.py': 'def total(xs: list[int]) -> int:\n    return sum(xs)\n\n\nlabel: str = total([1])\n',
      'src/pkg/generated/models.py': 'x: int = "generated"\n',
      'tests/typing/check_types.py': 'from pkg.core import total\n\ncount: int = total("x")\n',
      'tests/test_core.py': 'broken: int = "not checked by pyright"\n',
      'docs/conf.py': 'project: int = "docs"\n',
      'examples/demo.py': 'undefined_name\n',
    });
    const pyright = spawnSync(join(SERVERS_BIN, 'pyright'), ['--outputjson'], { cwd: root, encoding: 'utf8', env: { ...env, PATH: `${SERVERS_BIN}${delimiter}${env.PATH}` } });
    const out = JSON.parse(pyright.stdout) as { generalDiagnostics: Array<{ file: string; severity: string; rule?: string; range: { start: { line: number; character: number } } }> };
    const expected = out.generalDiagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.file.slice(root.length + 1)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.rule}`)
      .sort();
    assert.ok(expected.length >= 2 && expected.every((e) => e.startsWith('src/pkg/core.py') || e.startsWith('tests/typing/')), expected.join(', '));
    const r = await spawnCli(MAIN, ['check', '--wait-ms', '150000', '--format', 'json', '.'], { cwd: root, env: { ...env, PATH: `${SERVERS_BIN}${delimiter}${env.PATH}` }, timeoutMs: TIMEOUT });
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as JsonDoc & { skipped?: { outsidePyright?: string[] } };
    assert.deepEqual(errorsOf(doc), expected);
    assert.deepEqual(doc.skipped?.outsidePyright, ['docs/conf.py', 'examples/demo.py', 'src/pkg/generated/models.py', 'tests/test_core.py']);
    assert.match(r.stderr, /^note: skipped 4 Python files that the pyright configuration \(pyproject\.toml\) does not check/m);
  });
});

/** A composite project's tsconfig. */
const composite = (extra: Record<string, unknown> = {}) => JSON.stringify({ compilerOptions: { composite: true, strict: true, outDir: 'out', rootDir: 'src' }, include: ['src'], ...extra });

describe('a project-references solution, judged as tsc -b judges it', { timeout: TIMEOUT * 8 }, () => {
  const files = {
    'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './core' }, { path: './app' }, { path: './cli' }] }),
    'core/tsconfig.json': composite(),
    'core/src/area.ts': 'export function area(w: number, h: number): number {\n  return w * h;\n}\n',
    'core/src/index.ts': "export { area } from './area';\n",
    'app/tsconfig.json': composite({ references: [{ path: '../core' }] }),
    'app/src/main.ts': '/// <reference path="../../types/globals.d.ts" />\nimport { area } from "../../core/src/index";\nexport const a: number = area(2, 3);\nexport const name: string = APP_NAME;\n',
    'cli/tsconfig.json': composite({ references: [{ path: '../core' }, { path: '../app' }] }),
    'cli/src/run.ts': "import { a } from '../../app/src/main';\nimport { area } from '../../core/src/area';\nexport const total: number = a + area(1, 1);\n",
    // Outside every include: in the program only through the /// reference, with an error.
    'types/globals.d.ts': 'declare const APP_NAME: string;\ndeclare const VERSION: number = "1";\n',
  };

  it('the whole solution and folder by folder: every file tsc -b checks, five runs one file set, exit 1 as tsc -b', async () => {
    const root = project('solution', files);
    const tsc = tsc59(root, '-b');
    assert.notEqual(tsc.code, 0);
    assert.ok(tsc.errors.some((e) => e.startsWith('types/globals.d.ts:2:')), tsc.errors.join(', '));
    removeBuildOutput(root);
    const sets: string[] = [];
    for (let run = 0; run < 5; run += 1) {
      const r = await check(root, ['.']);
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(errorsOf(r.doc), tsc.errors, `run ${run}`);
      assert.equal(r.doc.summary.notFresh.total, 0);
      assert.deepEqual([...(r.doc.programs ?? [])].sort(), ['app/tsconfig.json', 'cli/tsconfig.json', 'core/tsconfig.json', 'tsconfig.json']);
      sets.push(JSON.stringify(checkedFiles(r.doc)));
    }
    assert.deepEqual(new Set(sets).size, 1, sets.join('\n'));
    assert.deepEqual(JSON.parse(sets[0] ?? '[]'), ['app/src/main.ts', 'cli/src/run.ts', 'core/src/area.ts', 'core/src/index.ts', 'types/globals.d.ts']);
    // Folder by folder, in either order: the folder's program and what it references, the .d.ts included.
    for (const paths of [['app'], ['cli'], ['cli', 'app'], ['app', 'cli']]) {
      const r = await check(root, paths);
      assert.equal(r.code, 1, `${paths.join(' ')}: ${r.stderr}`);
      assert.ok(errorsOf(r.doc).some((e) => e.startsWith('types/globals.d.ts:2:')), `${paths.join(' ')}: ${errorsOf(r.doc).join(', ')}`);
    }
    const core = await check(root, ['core']);
    assert.equal(core.code, 0, 'core references nothing and has no error');
    assert.deepEqual(core.doc.programs, ['core/tsconfig.json']);
  });

  it('a signature change in a referenced project shows in its dependents, with stale build output or none', async () => {
    const root = project('solution-change', { ...files, 'types/globals.d.ts': 'declare const APP_NAME: string;\n' });
    assert.equal(tsc59(root, '-b').code, 0, 'the solution builds');
    // The referenced project changes; its build output (core/out/*.d.ts) is now stale.
    write(root, { 'core/src/area.ts': 'export function area(w: number, h: number, d: number): number {\n  return w * h * d;\n}\n' });
    const changed = await check(root, ['app']);
    assert.equal(changed.code, 1, 'the stale .d.ts is not what app is judged against');
    assert.deepEqual(errorsOf(changed.doc), ['app/src/main.ts:3:26 2554']);
    // And with no build output at all (a fresh clone): no error invented, the change still seen.
    removeBuildOutput(root);
    const tsc = tsc59(root, '-b');
    removeBuildOutput(root);
    const fresh = await check(root, ['.']);
    assert.deepEqual(errorsOf(fresh.doc), tsc.errors);
  });

  it("program by program: one program's server live at a time, each stopped when done, every program listed, the errors of tsc -b", async () => {
    // A chain of nine programs (each imports the previous), more than maxLiveServers (8): every
    // program is listed on its own live server (an earlier run listed some through a restarted
    // one that had no project: `failed`, and p2's import from outside its include went unchecked).
    const PROGRAMS = 9;
    const chain: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ files: [], references: Array.from({ length: PROGRAMS }, (_, i) => ({ path: `./p${i}` })) }),
      'shared/helper.ts': 'export const helper: number = "not a number";\n',
    };
    for (let i = 0; i < PROGRAMS; i += 1) {
      chain[`p${i}/tsconfig.json`] = composite(i === 0 ? {} : { references: [{ path: `../p${i - 1}` }] });
      const upstream = i === 0 ? '' : `import { v${i - 1} } from '../../p${i - 1}/src/index';\n`;
      const helper = i === 2 ? "import { helper } from '../../shared/helper';\nexport const h: number = helper;\n" : '';
      chain[`p${i}/src/index.ts`] = `${upstream}${helper}export const v${i}: number = ${i === 0 ? '0' : `v${i - 1} + 1`};\n${i === PROGRAMS - 1 ? `export const wrong: string = v${i};\n` : ''}`;
    }
    const root = project('solution-bound', chain);
    const tsc = tsc59(root, '-b');
    assert.ok(tsc.errors.includes('shared/helper.ts:1:14 2322') && tsc.errors.includes(`p${PROGRAMS - 1}/src/index.ts:3:14 2322`), tsc.errors.join(', '));
    for (let i = 0; i < PROGRAMS; i += 1) rmSync(join(root, `p${i}`, 'out'), { recursive: true, force: true });
    const r = await checkSampled(root, ['.']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    assert.equal(r.doc.summary.notFresh.total, 0);
    assert.ok(r.peakServers >= 1, 'the servers were seen');
    assert.equal(r.peakServers, 1, `one tsserver process at a time, saw ${r.peakServers}`);
    assert.ok(r.startedServers >= PROGRAMS, `one server per program, started one after the other: ${r.startedServers}`);
    // Ctrl-C while a program's server works and others wait (or stop): exit 130, no server left behind.
    const stopped = await checkSampled(root, ['.'], { interrupt: true });
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.ok(stopped.seen.length >= 1);
    for (const pid of stopped.seen) assert.equal(running(pid), false, `server process ${pid} ended with the check`);
    assert.ok(stopped.startedServers >= 2, `the servers were seen: ${stopped.startedServers}`);
    // The build-order map for tsserver (decision 0108), the file this run handed its servers, goes with it.
    assert.equal(stopped.mapFiles.size, 1, `one map file named to the servers: ${[...stopped.mapFiles.keys()].join(', ')}`);
    for (const [path, existed] of stopped.mapFiles) {
      assert.ok(existed, `${path} was written while the servers ran`);
      assert.equal(existsSync(path), false, `${path} removed at Ctrl-C`);
    }
  });

  it("a program that reads another project's .d.ts through a package name, without a reference: the solution's order reads its source; built after it, stale output is said", async () => {
    const root = project('solution-package', {
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './core' }, { path: './app' }] }),
      'core/tsconfig.json': composite({ compilerOptions: { composite: true, strict: true, outDir: 'out', rootDir: 'src', module: 'commonjs' } }),
      'core/package.json': JSON.stringify({ name: 'core-pkg', version: '1.0.0', main: 'out/index.js', types: 'out/index.d.ts' }),
      'core/src/index.ts': 'export function area(w: number, h: number): number {\n  return w * h;\n}\n',
      'app/tsconfig.json': composite({ compilerOptions: { composite: true, strict: true, outDir: 'out', rootDir: 'src', module: 'commonjs' } }),
      'app/src/main.ts': 'import { area } from "core-pkg";\nexport const a: number = area(2, 3);\n',
    });
    mkdirSync(join(root, 'node_modules'));
    symlinkSync('../core', join(root, 'node_modules', 'core-pkg'));
    assert.equal(tsc59(root, '-b').code, 0);
    // The source changes after the build: core/out/index.d.ts is now older than core/src/index.ts.
    await new Promise((done) => setTimeout(done, 20));
    write(root, { 'core/src/index.ts': 'export function area(w: number, h: number, d: number): number {\n  return w * h * d;\n}\n' });
    // The solution: tsc -b builds core before app, so app is judged against core as it is now.
    const r = await check(root, ['.']);
    // A solution that builds app first: tsc -b reads core's old .d.ts there; said, never a clean pass.
    write(root, { 'late/tsconfig.json': JSON.stringify({ files: [], references: [{ path: '../app' }, { path: '../core' }] }) });
    const late = await check(root, ['late']);
    assert.equal(late.code, 1, 'not a clean pass on an old .d.ts');
    assert.equal(late.doc.files.find((f) => f.path === 'app/src/main.ts')?.state, 'stale');
    assert.match(late.stderr, /^warning: app\/tsconfig\.json judged against core\/out\/index\.d\.ts, older than its source core\/src\/index\.ts/m);
    // app alone is what tsc -b app builds: the .d.ts on disk, nothing before it.
    const alone = await check(root, ['app']);
    const appOnly = tsc59(root, '-b', 'app');
    assert.deepEqual(errorsOf(alone.doc), appOnly.errors);
    const tsc = tsc59(root, '-b', '--force');
    assert.deepEqual(tsc.errors, ['app/src/main.ts:2:26 2554']);
    assert.equal(r.code, 1);
    assert.equal(r.doc.summary.notFresh.total, 0, r.stderr);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    // Built again, the output is current: the verdict is the compiler's either way.
    const rebuilt = await check(root, ['app']);
    assert.equal(rebuilt.doc.summary.notFresh.total, 0);
    assert.deepEqual(errorsOf(rebuilt.doc), tsc.errors);
  });

  it('a fresh clone of a solution whose projects import each other by package name without references (vscode-languageserver-node): no build needed, the errors of tsc -b', async () => {
    const options = { composite: true, strict: true, module: 'node16', moduleResolution: 'node16', target: 'es2022', types: [], rootDir: 'src' };
    const root = project('solution-fresh', {
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './core' }, { path: './umd' }, { path: './app' }] }),
      'core/tsconfig.json': JSON.stringify({ compilerOptions: { ...options, outDir: 'lib' }, include: ['src'] }),
      // Its declarations through an exports "types" condition (vscode-jsonrpc's layout) …
      'core/package.json': JSON.stringify({ name: 'core-pkg', version: '1.0.0', exports: { '.': { types: './lib/index.d.ts', default: './lib/index.js' } } }),
      'core/src/index.ts': 'export function area(w: number, h: number): number {\n  return w * h;\n}\n',
      // … or beside the .js an exports target names (vscode-languageserver-types' layout).
      'umd/tsconfig.json': JSON.stringify({ compilerOptions: { ...options, outDir: 'lib/umd' }, include: ['src'] }),
      'umd/package.json': JSON.stringify({ name: 'umd-pkg', version: '1.0.0', main: './lib/umd/main.js', typings: './lib/umd/main', exports: { '.': { import: './lib/esm/main.js', default: './lib/umd/main.js' } } }),
      'umd/src/main.ts': 'export type Unit = "cm" | "in";\n',
      // No references: the root solution orders the projects, as vscode-languageserver-node's protocol/src/common.
      'app/tsconfig.json': JSON.stringify({ compilerOptions: { ...options, outDir: 'lib' }, include: ['src'] }),
      'app/src/main.ts': 'import { area } from "core-pkg";\nimport type { Unit } from "umd-pkg";\nexport const a: string = area(2, 3);\nexport const u: Unit = "cm";\nexport const twice = [1].map((x) => x * 2);\n',
    });
    mkdirSync(join(root, 'app', 'node_modules'));
    symlinkSync('../../core', join(root, 'app', 'node_modules', 'core-pkg'));
    symlinkSync('../../umd', join(root, 'app', 'node_modules', 'umd-pkg'));
    const tsc = tsc59(root, '-b');
    assert.deepEqual(tsc.errors, ['app/src/main.ts:3:14 2322']);
    for (const dir of ['core', 'umd', 'app']) rmSync(join(root, dir, 'lib'), { recursive: true, force: true });
    const r = await check(root, ['.']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.doc.summary.notFresh.total, 0, r.stderr);
    assert.deepEqual(errorsOf(r.doc), tsc.errors);
    for (const dir of ['core', 'umd', 'app']) assert.equal(existsSync(join(root, dir, 'lib')), false, `nothing written in ${dir}`);
    // app alone is what tsc -b app builds: nothing before it, so its imports are unresolved, as there.
    const alone = await check(root, ['app']);
    const appOnly = tsc59(root, '-b', 'app');
    assert.ok(appOnly.errors.includes('app/src/main.ts:1:22 2307'), appOnly.errors.join(', '));
    assert.deepEqual(errorsOf(alone.doc), appOnly.errors);
  });
});
