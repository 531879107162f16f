/**
 * `check --watch` as a user runs it: the built CLI on a real TypeScript project (the embedded
 * typescript-language-server + TypeScript 5.9): the first check, an edit that adds an error →
 * "File change detected", the new error printed in the re-check, "Found 1 error"; the fix →
 * "Found 0 errors"; Ctrl-C (SIGINT) → exit 130 and no language-server process left. And a
 * solution of more programs than live servers (maxLiveServers 8): every program listed on its
 * own live server, a re-check in a program whose server was stopped since.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { alive, REPO } from './cli-harness.ts';

const CLI = join(REPO, 'lib', 'cli', 'main.js');
const ws = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-watch-'));

before(() => {
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true,"target":"es2022","module":"nodenext"},"include":["src"]}\n');
  writeFileSync(join(ws, 'src', 'point.ts'), 'export interface Point {\n  x: number;\n  y: number;\n}\n');
  writeFileSync(join(ws, 'src', 'app.ts'), "import type { Point } from './point.js';\nexport function draw(p: Point): number {\n  return p.x;\n}\n");
});
after(() => rmSync(ws, { recursive: true, force: true }));

/** Every descendant of `pid` (from /proc's children lists). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (parent: number): void => {
    const dir = `/proc/${parent}/task`;
    if (!existsSync(dir)) return;
    for (const task of readdirTasks(dir)) {
      let children = '';
      try {
        children = readFileSync(join(dir, task, 'children'), 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean).map(Number)) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

function readdirTasks(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    // The process ended meanwhile.
    return [];
  }
}

/** A `check --watch` run of the built CLI: its output so far, its exit, and a wait for a line. */
function startWatch(argv: string[], cwd: string, opts: { env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {}) {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), CLI, ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(opts.env === undefined ? {} : { env: opts.env }) });
  const run = {
    child,
    out: '',
    err: '',
    exited: new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code))),
    /** @returns the index (at or after `from`) where `pattern` first matches stdout, once it does */
    until: async (pattern: RegExp, from: number): Promise<number> => {
      for (;;) {
        const index = run.out.slice(from).search(pattern);
        if (index >= 0) return from + index;
        if (child.exitCode !== null) assert.fail(`exited before ${pattern}: ${run.out}\n${run.err}`);
        await new Promise((resolve) => child.stdout.once('data', resolve));
      }
    },
  };
  child.stdout.on('data', (chunk: Buffer) => (run.out += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (run.err += String(chunk)));
  return run;
}

/**
 * @returns one re-check of a `--log-level debug` watch: waits until the previous runs' declaration
 *   signatures are taken (after each report; an edit before that is judged without them), writes,
 *   and returns the output from "File change detected" to its "Found" line
 */
function signedRechecks(run: ReturnType<typeof startWatch>, found: RegExp): (from: number, write: () => void) => Promise<{ text: string; end: number }> {
  let runs = 0;
  return async (from, write) => {
    runs += 1;
    while ((run.err.match(/^debug: declaration signatures known for/gm) ?? []).length < runs) {
      if (run.child.exitCode !== null) assert.fail(`exited: ${run.err}`);
      await new Promise((resolve) => run.child.stderr.once('data', resolve));
    }
    write();
    const detected = await run.until(/File change detected\. Starting incremental compilation\.\.\.\n/, from);
    const at = await run.until(found, detected);
    const end = at + (run.out.slice(at).match(found)?.[0].length ?? 0);
    return { text: run.out.slice(detected, end), end };
  };
}

/**
 * @param prefix the temp folder's name prefix
 * @returns a new project root with a strict `tsconfig.json` including `src/` (and an empty `src/`)
 */
function srcProject(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true,"target":"es2022","module":"nodenext"},"include":["src"]}\n');
  return root;
}

/** The line ending each `--watch` report. */
const FOUND_LINE = /Found \d+ errors?\.[^\n]*Watching for file changes\.\n/;

/**
 * @param root the project
 * @returns `check --watch --log-level debug` started there, and its signed re-check ({@link signedRechecks})
 */
function startSignedWatch(root: string): { run: ReturnType<typeof startWatch>; recheck: ReturnType<typeof signedRechecks> } {
  const run = startWatch(['check', '--watch', '--typescript', 'embedded', '--no-progress', '--log-level', 'debug', '.'], root);
  return { run, recheck: signedRechecks(run, FOUND_LINE) };
}

/** The errors a report prints, as `path:line:col TScode`. */
function printedErrors(text: string): string[] {
  return [...text.matchAll(/^(\S+):(\d+):(\d+) error .*\[typescript (\d+)\]$/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} TS${m[4]}`).sort();
}

describe('check --watch (real TypeScript project)', { skip: existsSync(CLI) ? false : 'run `npm run build` first' }, () => {
  it('re-checks on an edit, prints the new error, exits 130 on Ctrl-C leaving no server', { timeout: 240_000 }, async () => {
    const run = startWatch(['check', '--watch', '--typescript', 'embedded', '.'], ws);
    const { child, exited, until } = run;
    try {
      const first = await until(/Found 0 errors\. Watching for file changes\.\n/, 0);
      assert.match(run.out.slice(0, first), /^\[\d\d:\d\d:\d\d\] Starting compilation in watch mode\.\.\.\n/);
      const servers = descendants(child.pid as number);
      assert.ok(servers.length > 0, 'a language server runs');

      writeFileSync(join(ws, 'src', 'app.ts'), `${readFileSync(join(ws, 'src', 'app.ts'), 'utf8')}draw({ x: 1 });\n`);
      const detected = await until(/\[\d\d:\d\d:\d\d\] File change detected\. Starting incremental compilation\.\.\.\n/, first);
      const found = await until(/Found 1 error\. Watching for file changes\.\n/, detected);
      const recheck = run.out.slice(detected, found);
      assert.match(recheck, /src\/app\.ts:5:6 error Argument of type '\{ x: number; \}' is not assignable to parameter of type 'Point'\. \[typescript 2345\]/);
      assert.match(recheck, /src\/point\.ts:3:3 note 'y' is declared here\./);
      // The same servers answered: nothing was restarted for the re-check.
      assert.deepEqual(descendants(child.pid as number).filter((pid) => servers.includes(pid)).sort(), [...servers].sort());

      writeFileSync(join(ws, 'src', 'app.ts'), "import type { Point } from './point.js';\nexport function draw(p: Point): number {\n  return p.x;\n}\ndraw({ x: 1, y: 2 });\n");
      await until(/Found 0 errors\. Watching for file changes\.\n/, found);

      child.kill('SIGINT');
      assert.equal(await exited, 130, run.err);
      for (const pid of servers) assert.equal(alive(pid), false, `language server ${pid} stopped`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('a degraded watcher is said once, not at every re-check', { timeout: 240_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-watch-degraded-'));
    mkdirSync(join(root, 'src', 'unwatchable'), { recursive: true });
    writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true,"target":"es2022","module":"nodenext"},"include":["src"]}\n');
    writeFileSync(join(root, 'src', 'app.ts'), 'export const n: number = 1;\n');
    writeFileSync(join(root, 'src', 'unwatchable', 'deep.ts'), 'export const d: number = 2;\n');
    // Every watch of src/unwatchable fails as an exhausted inotify fails it; the rest are watched.
    const preload = join(import.meta.dirname, '..', 'fixtures', 'inotify-limit-preload.ts');
    const run = startWatch(['check', '--watch', '--typescript', 'embedded', '--no-progress', '.'], root, { env: { ...process.env, DSH_TEST_WATCH_FAIL_MATCH: 'unwatchable' }, nodeArgs: ['--import', preload] });
    const { child, exited, until } = run;
    try {
      let at = await until(/Found 0 errors\.[^\n]*Watching for file changes\.\n/, 0);
      for (const value of ['"one"', '2', '"three"']) {
        writeFileSync(join(root, 'src', 'app.ts'), `export const n: number = ${value};\n`);
        const detected = await until(/File change detected\./, at + 1);
        at = await until(/Found \d+ errors?\.[^\n]*Watching for file changes\.\n/, detected);
      }
      assert.match(run.out.slice(at), /^Found 1 error\./, 'the last edit was judged');
      const said = run.err.split('\n').filter((line) => /^warning: watching .* is degraded/.test(line));
      assert.equal(said.length, 1, `said once: ${run.err}`);
      child.kill('SIGINT');
      assert.equal(await exited, 130, run.err);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("keeps the importers' reports when a shared file's declarations stay the same (tsc's builder rule), re-checks them when they change", { timeout: 240_000 }, async () => {
    const root = srcProject('dsh-lsp-cli-watch-declarations-');
    const at = (name: string): string => join(root, 'src', name);
    const shared = 'export interface Point {\n  x: number;\n  y: number;\n}\nexport function make(x: number, y: number): Point {\n  return { x, y };\n}\n';
    writeFileSync(at('shared.ts'), shared);
    writeFileSync(at('a.ts'), "import { make } from './shared.js';\nexport const a = make(1, 2);\n");
    writeFileSync(at('b.ts'), "import type { Point } from './shared.js';\nexport const b: Point = { x: 1, y: 2 };\n");
    writeFileSync(at('c.ts'), "import { a } from './a.js';\nexport const c: number = a.x;\n");
    writeFileSync(at('d.ts'), "import { make } from './shared.js';\nexport const d: string = make(1, 2).x;\n");
    for (let i = 0; i < 6; i++) writeFileSync(at(`leaf${i}.ts`), `export const leaf${i} = ${i};\n`);
    // the error set `tsc --noEmit` gives on the tree as it is, as `path:line:col TScode`
    const tscErrors = (): string[] => {
      const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--pretty', 'false', '-p', '.'], { cwd: root, encoding: 'utf8' });
      return [...tsc.stdout.matchAll(/^(\S+)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} TS${m[4]}`).sort();
    };
    const { run, recheck } = startSignedWatch(root);
    const { child, exited, until } = run;
    const FOUND = FOUND_LINE;
    try {
      const first = await until(FOUND, 0);
      assert.match(run.out.slice(0, first), /\(11 files checked\)\n/);
      assert.deepEqual(printedErrors(run.out.slice(0, first)), tscErrors());
      assert.deepEqual(printedErrors(run.out.slice(0, first)), ['src/d.ts:2:14 TS2322']);
      const end = first + (run.out.slice(first).match(FOUND)?.[0].length ?? 0);

      // a comment and a body: shared.ts's declarations are as they were — it alone is asked
      const body = await recheck(end, () => writeFileSync(at('shared.ts'), `// points\n${shared.replace('return { x, y };', 'const p = { x, y };\n  return p;')}`));
      assert.match(body.text, /\(11 files checked, 1 re-checked\)\n/);
      assert.deepEqual(printedErrors(body.text), tscErrors(), 'the kept reports are what tsc says of the tree now');
      assert.match(body.text, /Found 1 error\. Watching/);

      // Point gains a required `z`: its importers (and theirs) are asked, b.ts now has an error
      const typed = shared.replace('  y: number;\n}', '  y: number;\n  z: number;\n}').replace('return { x, y };', 'return { x, y, z: 0 };');
      const changed = await recheck(body.end, () => writeFileSync(at('shared.ts'), typed));
      assert.match(changed.text, /\(11 files checked, 5 re-checked\)\n/, 'shared.ts, a.ts, b.ts, d.ts and c.ts (through a.ts)');
      assert.match(changed.text, /src\/b\.ts:2:14 error Property 'z' is missing in type '\{ x: number; y: number; \}' but required in type 'Point'\. \[typescript 2741\]/);
      assert.match(changed.text, /src\/shared\.ts:4:3 note 'z' is declared here\./);
      assert.deepEqual(printedErrors(changed.text), tscErrors());
      assert.deepEqual(printedErrors(changed.text), ['src/b.ts:2:14 TS2741', 'src/d.ts:2:14 TS2322']);

      // a line above the declarations, which stay the same: b.ts's note points into shared.ts, so it is asked again
      const shifted = await recheck(changed.end, () => writeFileSync(at('shared.ts'), `// moved down\n${typed}`));
      assert.match(shifted.text, /\(11 files checked, 2 re-checked\)\n/);
      assert.match(shifted.text, /src\/shared\.ts:5:3 note 'z' is declared here\./);
      assert.deepEqual(printedErrors(shifted.text), tscErrors());

      child.kill('SIGINT');
      assert.equal(await exited, 130, run.err);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('asks a file imported from outside the include once per re-check, also when the importers are asked in a second pass', { timeout: 240_000 }, async () => {
    const root = srcProject('dsh-lsp-cli-watch-reimport-');
    mkdirSync(join(root, 'lib'));
    const shared = 'export interface Point {\n  x: number;\n}\n';
    writeFileSync(join(root, 'src', 'shared.ts'), shared);
    writeFileSync(join(root, 'src', 'b.ts'), "import type { Point } from './shared.js';\nexport const b: Point = { x: 1 };\n");
    writeFileSync(join(root, 'src', 'x.ts'), "import { extra } from '../lib/extra.js';\nexport const x: number = extra;\n");
    writeFileSync(join(root, 'lib', 'extra.ts'), 'export const extra = 1;\n');
    const { run, recheck } = startSignedWatch(root);
    const { child, exited, until } = run;
    const FOUND = FOUND_LINE;
    try {
      const first = await until(FOUND, 0);
      assert.match(run.out.slice(0, first), /\(4 files checked\)\n/, 'src/*.ts and lib/extra.ts');
      const end = first + (run.out.slice(first).match(FOUND)?.[0].length ?? 0);
      // Point gains `y`: shared.ts and lib/extra.ts (every run) first, then b.ts in the second pass — not extra.ts again
      const changed = await recheck(end, () => writeFileSync(join(root, 'src', 'shared.ts'), shared.replace('  x: number;\n', '  x: number;\n  y: number;\n')));
      assert.match(changed.text, /\(4 files checked, 3 re-checked\)\n/);
      assert.match(changed.text, /src\/b\.ts:2:14 error Property 'y' is missing/);
      child.kill('SIGINT');
      assert.equal(await exited, 130, run.err);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("sees a private member's new type that the .d.ts leaves out (tsc --watch does not), and keeps the importers for a public body edit", { timeout: 240_000 }, async () => {
    const root = srcProject('dsh-lsp-cli-watch-private-');
    const at = (name: string): string => join(root, 'src', name);
    const foo = 'export class Foo {\n  private p = 1;\n  size(): number {\n    return 1;\n  }\n}\n';
    writeFileSync(at('foo.ts'), foo);
    writeFileSync(at('use.ts'), "import { Foo } from './foo.js';\nexport const n: number = new Foo()['p'];\n");
    for (let i = 0; i < 3; i++) writeFileSync(at(`leaf${i}.ts`), `export const leaf${i} = ${i};\n`);
    const { run, recheck } = startSignedWatch(root);
    const { child, exited, until } = run;
    const FOUND = FOUND_LINE;
    try {
      const first = await until(FOUND, 0);
      assert.match(run.out.slice(first), /^Found 0 errors\./);
      const end = first + (run.out.slice(first).match(FOUND)?.[0].length ?? 0);
      const body = await recheck(end, () => writeFileSync(at('foo.ts'), foo.replace('return 1;', 'const one = 1;\n    return one;')));
      assert.match(body.text, /\(5 files checked, 1 re-checked\)\n/);
      // `private p` is emitted without its type: the text of the private member counts too
      const typed = await recheck(body.end, () => writeFileSync(at('foo.ts'), foo.replace('private p = 1;', "private p = 'one';")));
      assert.match(typed.text, /src\/use\.ts:2:14 error Type 'string' is not assignable to type 'number'\. \[typescript 2322\]/);
      assert.match(typed.text, /\(5 files checked, 2 re-checked\)\n/);
      child.kill('SIGINT');
      assert.equal(await exited, 130, run.err);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('re-checks what an edit reaches: an imported file and its importer, a leaf alone, everything when globals go', { timeout: 240_000 }, async () => {
    const root = srcProject('dsh-lsp-cli-watch-affected-');
    const at = (name: string): string => join(root, 'src', name);
    writeFileSync(at('point.ts'), 'export interface Point {\n  x: number;\n  y: number;\n}\n');
    writeFileSync(at('app.ts'), "import type { Point } from './point.js';\nexport const origin: Point = { x: 0, y: 0 };\n");
    writeFileSync(at('leaf.ts'), 'export const leaf: number = 1;\n');
    writeFileSync(at('globals.ts'), 'export {};\ndeclare global {\n  var appName: string;\n}\n');
    writeFileSync(at('uses-global.ts'), 'export const name: string = globalThis.appName;\n');
    for (let i = 0; i < 4; i++) writeFileSync(at(`other${i}.ts`), `export const other${i} = ${i};\n`);
    const run = startWatch(['check', '--watch', '--typescript', 'embedded', '--no-progress', '.'], root);
    const { child, exited, until } = run;
    const FOUND = /Found \d+ errors?\.[^\n]*Watching for file changes\.\n/;
    // one re-check: its output from "File change detected" to its "Found" line
    const recheck = async (from: number, write: () => void): Promise<{ text: string; end: number }> => {
      write();
      const detected = await until(/File change detected\. Starting incremental compilation\.\.\.\n/, from);
      const found = await until(FOUND, detected);
      const end = found + (run.out.slice(found).match(FOUND)?.[0].length ?? 0);
      return { text: run.out.slice(detected, end), end };
    };
    try {
      const first = await until(FOUND, 0);
      assert.match(run.out.slice(0, first), /\(9 files checked\)\n/);
      assert.match(run.out.slice(first), /^Found 0 errors\./);
      let end = first + (run.out.slice(first).match(FOUND)?.[0].length ?? 0);

      // `y` leaves Point: app.ts, which imports it, is asked again and now has an error
      const imported = await recheck(end, () => writeFileSync(at('point.ts'), 'export interface Point {\n  x: number;\n}\n'));
      assert.match(imported.text, /src\/app\.ts:2:38 error Object literal may only specify known properties, and 'y' does not exist in type 'Point'\. \[typescript 2353\]/);
      assert.match(imported.text, /\(9 files checked, 2 re-checked\)\n/);
      assert.match(imported.text, /Found 1 error\. Watching/);

      // a leaf nobody imports: only it is asked; app.ts's error is still printed, from the kept report
      const leaf = await recheck(imported.end, () => writeFileSync(at('leaf.ts'), "export const leaf: number = 'one';\n"));
      assert.match(leaf.text, /\(9 files checked, 1 re-checked\)\n/);
      assert.match(leaf.text, /src\/app\.ts:2:38 error Object literal may only specify known properties/);
      assert.match(leaf.text, /src\/leaf\.ts:1:14 error Type 'string' is not assignable to type 'number'\./);
      assert.match(leaf.text, /Found 2 errors\. Watching/);

      // globals.ts stops declaring `appName` (its new text declares no global): every file is asked
      const globals = await recheck(leaf.end, () => writeFileSync(at('globals.ts'), 'export {};\n'));
      assert.match(globals.text, /\(9 files checked\)\n/, 'no "re-checked" count: the whole file set was asked');
      assert.match(globals.text, /src\/uses-global\.ts:1:40 error Element implicitly has an 'any' type because type 'typeof globalThis' has no index signature\. \[typescript 7017\]/);
      assert.match(globals.text, /Found 3 errors\. Watching/);

      child.kill('SIGINT');
      assert.equal(await exited, 130, run.err);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** `file:line:col code` of every error line of a text report. */
const errorsOfText = (text: string): string[] => [...text.matchAll(/^(\S+?):(\d+):(\d+) error .* \[typescript (\d+)\]$/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
/** The lines of a text report naming a file without a fresh result (`path: failed: …`, `pending`, `stale`). */
const notFreshLines = (text: string): string[] => text.split('\n').filter((line) => /^\S+: (failed|pending|stale|skipped)\b/.test(line));

/** `file:line:col code` of every error `tsc -b` (TypeScript 5.9, the embedded one) prints. */
function tscBuildErrors(cwd: string): string[] {
  const r = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', '--pretty', 'false'], { cwd, encoding: 'utf8' });
  return [...r.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
}

/** The tsserver processes under `pid`. */
function tsserversUnder(pid: number): number[] {
  return descendants(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('tsserver.js');
    } catch {
      return false; // it exited meanwhile
    }
  });
}

describe('check --watch on more programs than live servers', { skip: existsSync(CLI) ? false : 'run `npm run build` first' }, () => {
  it('lists every program while its server is live, and re-checks a program whose server was stopped since', { timeout: 480_000 }, async () => {
    // A chain of ten programs (each imports the previous), more than maxLiveServers (8): a
    // program listed after all were checked was listed through a restarted server that had no
    // project (`failed`, and p2's import from outside its include went unchecked).
    const PROGRAMS = 10;
    const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-watch-programs-'));
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('tsconfig.json', JSON.stringify({ files: [], references: Array.from({ length: PROGRAMS }, (_, i) => ({ path: `./p${i}` })) }));
    write('shared/helper.ts', 'export const helper: number = "not a number";\n');
    for (let i = 0; i < PROGRAMS; i += 1) {
      const references = i === 0 ? {} : { references: [{ path: `../p${i - 1}` }] };
      write(`p${i}/tsconfig.json`, JSON.stringify({ compilerOptions: { composite: true, strict: true, outDir: 'out', rootDir: 'src' }, include: ['src'], ...references }));
      const upstream = i === 0 ? '' : `import { v${i - 1} } from '../../p${i - 1}/src/index';\n`;
      const helper = i === 2 ? "import { helper } from '../../shared/helper';\nexport const h: number = helper;\n" : '';
      write(`p${i}/src/index.ts`, `${upstream}${helper}export const v${i}: number = ${i === 0 ? '0' : `v${i - 1} + 1`};\n${i === PROGRAMS - 1 ? `export const wrong: string = v${i};\n` : ''}`);
    }
    // a file nobody imports, in the first program (whose server the later programs' push out)
    write('p0/src/leaf.ts', 'export const leaf: number = 1;\n');
    const built = tscBuildErrors(root);
    assert.ok(built.includes('shared/helper.ts:1:14 2322') && built.includes(`p${PROGRAMS - 1}/src/index.ts:3:14 2322`), built.join(', '));
    for (let i = 0; i < PROGRAMS; i += 1) rmSync(join(root, `p${i}`, 'out'), { recursive: true, force: true });

    const run = startWatch(['check', '--watch', '--typescript', 'embedded', '--no-progress', '--wait-ms', '150000', '.'], root);
    const { child, exited, until } = run;
    const FOUND = /\[\d\d:\d\d:\d\d\] Found \d+ errors?\.[^\n]*Watching for file changes\.\n/;
    /** The report printed from `from` up to the next "Found" line (included), and where it ends. */
    const report = async (from: number): Promise<{ text: string; end: number }> => {
      const found = await until(FOUND, from);
      const end = found + (run.out.slice(found).match(FOUND)?.[0].length ?? 0);
      return { text: run.out.slice(from, end), end };
    };
    const FILES = PROGRAMS + 2; // every index.ts, leaf.ts, and shared/helper.ts (imported by p2 from outside its include)
    try {
      const first = await report(0);
      assert.deepEqual(notFreshLines(first.text), [], 'every program listed, every file fresh');
      assert.match(first.text, new RegExp(`\\(${FILES} files checked\\)\\n`), 'every file of every program');
      assert.match(first.text, /Found \d+ errors\. Watching for file changes\.\n$/, 'no file without a fresh result');
      assert.deepEqual(errorsOfText(first.text), built);
      const warm = tsserversUnder(child.pid as number);
      assert.ok(warm.length > 0 && warm.length <= 8, `at most maxLiveServers tsservers live: ${warm.length}`);

      // p0's server was stopped for the later programs' (least recently used): the re-check starts one
      writeFileSync(join(root, 'p0', 'src', 'leaf.ts'), "export const leaf: number = 'one';\n");
      const detected = await until(/File change detected\. Starting incremental compilation\.\.\.\n/, first.end);
      const second = await report(detected);
      assert.deepEqual(notFreshLines(second.text), []);
      assert.match(second.text, new RegExp(`\\(${FILES} files checked(, \\d+ re-checked)?\\)\\n`));
      assert.match(second.text, /Found \d+ errors\. Watching for file changes\.\n$/);
      assert.deepEqual(errorsOfText(second.text), [...built, 'p0/src/leaf.ts:1:14 2322'].sort());
      const now = tsserversUnder(child.pid as number);
      assert.ok(now.some((pid) => !warm.includes(pid)), 'a server was started again for the re-check');
      assert.ok(now.length <= 8, `at most maxLiveServers tsservers live: ${now.length}`);

      // The last program, which nothing imports: only its file is asked again (and what p2 imports
      // from outside its include); the other programs keep their listings, their servers not restarted.
      const last = `p${PROGRAMS - 1}/src/index.ts`;
      writeFileSync(join(root, last), readFileSync(join(root, last), 'utf8').replace(`wrong: string = v${PROGRAMS - 1}`, `wrong: string = String(v${PROGRAMS - 1})`));
      const fixed = await until(/File change detected\. Starting incremental compilation\.\.\.\n/, second.end);
      const third = await report(fixed);
      assert.deepEqual(notFreshLines(third.text), []);
      assert.match(third.text, new RegExp(`\\(${FILES} files checked, 2 re-checked\\)\\n`), 'the edited file and shared/helper.ts');
      assert.deepEqual(errorsOfText(third.text), [...built.filter((error) => !error.startsWith(last)), 'p0/src/leaf.ts:1:14 2322'].sort());
      const later = tsserversUnder(child.pid as number);
      assert.deepEqual(later.filter((pid) => !now.includes(pid)), [], 'no server started for the programs not re-checked');

      child.kill('SIGINT');
      assert.equal(await exited, 130, run.err);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    }
  });
});
