/**
 * `check`'s file set without a server: tsconfig programs parsed by TypeScript's own API
 * (include/exclude/files/extends/references, jsconfig), configs above the path, config errors,
 * `.gitignore` through git, `--include-unconfigured`; the choice of TypeScript; exit codes of
 * signals.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { planFileSet } from '../../src/cli/check-file-set.ts';
import { signalExitCode } from '../../src/cli/cli-io.ts';
import { loadTypeScript, parsePrograms, parseProgramsIsolated, type TsProgram } from '../../src/cli/typescript-programs.ts';
import { chooseTypeScript, describeTypeScript, embeddedTypeScript, inspectTypeScript } from '../../src/cli/workspace-typescript.ts';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function tree(files: Record<string, string>, git = false): string {
  const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-fileset-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  if (git) assert.equal(spawnSync('git', ['init', '-q', root]).status, 0);
  return root;
}

const ts = loadTypeScript(embeddedTypeScript().packageDir);
const TS_EXT = /\.(c|m)?(t|j)sx?$/;
/** The TypeScript/JavaScript files of a list. */
const tsOnly = (files: string[]): string[] => files.filter((f) => TS_EXT.test(f));
const rel = (root: string, paths: Iterable<string>) => [...paths].map((p) => p.slice(root.length + 1)).sort();

/** TypeScript 7's program structure: configs and references only, files known after the listing. */
const structure = (configs: readonly string[]): Promise<TsProgram[]> => Promise.resolve(configs.map((configPath) => ({ configPath, files: [], errors: [], references: [] })));

function plan(root: string, paths: string[] = ['.'], includeUnconfigured = false, cwd = root, allPrograms = false) {
  return planFileSet({ paths, cwd, workspace: root, parsePrograms: (configs) => parsePrograms(ts, configs), isTypeScriptFile: (f) => TS_EXT.test(f), includeUnconfigured, allPrograms });
}

describe('planFileSet', () => {
  it('include/exclude decide; lib/ and dist/ are ordinary directories; other languages are kept', async () => {
    const root = tree({
      'tsconfig.json': JSON.stringify({ include: ['lib', 'dist'], exclude: ['lib/**/*.test.ts'] }),
      'lib/a.ts': '',
      'lib/a.test.ts': '',
      'dist/b.js': '',
      'dist/c.ts': '',
      'test/t.ts': '',
      'tools/x.py': '',
    });
    const set = await plan(root);
    assert.deepEqual(rel(root, set.files), ['dist/c.ts', 'lib/a.ts', 'tools/x.py', 'tsconfig.json']);
    assert.deepEqual(rel(root, set.unconfigured), ['dist/b.js', 'lib/a.test.ts', 'test/t.ts']);
    assert.deepEqual(rel(root, set.programs.map((p) => p.configPath)), ['tsconfig.json']);
    const wider = await plan(root, ['.'], true);
    assert.deepEqual(wider.unconfigured, []);
    assert.deepEqual(rel(root, wider.inferred), ['dist/b.js', 'lib/a.test.ts', 'test/t.ts']);
  });

  it('follows references and extends; a config above the path counts; jsconfig includes JavaScript', async () => {
    const root = tree({
      'tsconfig.base.json': JSON.stringify({ compilerOptions: { strict: true }, exclude: ['**/gen'] }),
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './packages/core' }, { path: './packages/web/tsconfig.app.json' }] }),
      'packages/core/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json', include: ['src'] }),
      'packages/core/src/a.ts': '',
      'packages/core/src/gen/g.ts': '',
      'packages/web/tsconfig.app.json': JSON.stringify({ include: ['app'] }),
      'packages/web/app/w.tsx': '',
      'packages/web/other.ts': '',
      'scripts/jsconfig.json': JSON.stringify({}),
      'scripts/run.js': '',
    });
    // The root's own tsconfig decides (tsc -b): its references are checked, scripts/ is skipped and named.
    const own = await plan(root);
    assert.deepEqual(rel(root, own.programs.map((p) => p.configPath)), ['packages/core/tsconfig.json', 'packages/web/tsconfig.app.json', 'tsconfig.json']);
    assert.deepEqual(rel(root, own.skippedPrograms.map((p) => p.configPath)), ['scripts/jsconfig.json']);
    // the configs a program extends are named (check --watch proves them unchanged when unwatched)
    assert.deepEqual(rel(root, own.programs[0]?.extended ?? []), ['tsconfig.base.json']);
    assert.equal(own.programs[1]?.extended, undefined);
    assert.deepEqual(rel(root, own.files.filter((f) => TS_EXT.test(f))), ['packages/core/src/a.ts', 'packages/web/app/w.tsx']);
    assert.deepEqual(rel(root, own.unconfigured), ['packages/core/src/gen/g.ts', 'packages/web/other.ts']);
    // --all-programs: every program found.
    const all = await plan(root, ['.'], false, root, true);
    assert.deepEqual(rel(root, all.programs.map((p) => p.configPath)), [
      'packages/core/tsconfig.json',
      'packages/web/tsconfig.app.json',
      'scripts/jsconfig.json',
      'tsconfig.json',
    ]);
    assert.deepEqual(all.skippedPrograms, []);
    assert.deepEqual(rel(root, all.files.filter((f) => TS_EXT.test(f))), ['packages/core/src/a.ts', 'packages/web/app/w.tsx', 'scripts/run.js']);
    assert.deepEqual(rel(root, all.unconfigured), ['packages/core/src/gen/g.ts', 'packages/web/other.ts']);
    // Checking only packages/core/src: its program comes from the config above it.
    const sub = await plan(root, ['packages/core/src']);
    assert.deepEqual(rel(root, sub.files), ['packages/core/src/a.ts']);
    assert.deepEqual(rel(root, sub.unconfigured), ['packages/core/src/gen/g.ts']);
  });

  it('an explicitly named file is checked even in no program', async () => {
    const root = tree({ 'tsconfig.json': JSON.stringify({ include: ['src'] }), 'src/a.ts': '', 'test/t.ts': '' });
    const set = await plan(root, ['test/t.ts', 'src']);
    assert.deepEqual(rel(root, set.files), ['src/a.ts', 'test/t.ts']);
    assert.deepEqual(set.unconfigured, []);
  });

  it('a file given by name is judged in its nearest program, narrowed to the file; its errors on other files are not taken', async () => {
    const root = tree({
      'tsconfig.json': JSON.stringify({ include: ['src'] }),
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'pkg/tsconfig.json': JSON.stringify({ include: ['lib'] }),
      'pkg/lib/c.ts': 'export const c = 3;\n',
      'pkg/loose.ts': 'export const loose = 4;\n',
    });
    const one = await plan(root, ['src/a.ts']);
    assert.deepEqual(rel(root, one.files), ['src/a.ts']);
    assert.deepEqual(rel(root, one.programs.map((p) => p.configPath)), ['tsconfig.json']);
    assert.deepEqual(one.whole.size, 0);
    // nearest first: pkg/lib/c.ts is pkg's; a file its nearest program does not include has none
    const nested = await plan(root, ['pkg/lib/c.ts', 'pkg/loose.ts']);
    assert.deepEqual(rel(root, nested.programs.map((p) => p.configPath)), ['pkg/tsconfig.json']);
    assert.deepEqual(rel(root, nested.files), ['pkg/lib/c.ts', 'pkg/loose.ts']);
    // a program whose files are known only after its listing (TypeScript 7): kept only if the listing has the file
    const listedAs = (files: Record<string, string[]>) => (programs: TsProgram[]) => Promise.resolve(programs.map((p) => ({ ...p, files: (files[p.configPath.slice(root.length + 1)] ?? []).map((f) => join(root, f)), complete: true as const })));
    const request = { cwd: root, workspace: root, parsePrograms: structure, isTypeScriptFile: (f: string) => TS_EXT.test(f), includeUnconfigured: false };
    const kept = await planFileSet({ ...request, paths: ['src/a.ts'], completePrograms: listedAs({ 'tsconfig.json': ['src/a.ts', 'src/b.ts'] }) });
    assert.deepEqual(rel(root, kept.programs.map((p) => p.configPath)), ['tsconfig.json']);
    const dropped = await planFileSet({ ...request, paths: ['pkg/loose.ts'], completePrograms: listedAs({ 'pkg/tsconfig.json': ['pkg/lib/c.ts'] }) });
    assert.deepEqual(dropped.programs, []);
    const withErrors = (programs: TsProgram[]) =>
      listedAs({ 'tsconfig.json': ['src/a.ts', 'src/b.ts'] })(programs).then((listed) =>
        listed.map((p) => ({ ...p, errors: ['src/a.ts', 'src/b.ts', 'tsconfig.json'].map((f) => ({ path: join(root, f), diagnostic: { message: `in ${f}`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: 'error' as const, code: 1005 } })) })),
      );
    const narrowed = await planFileSet({ ...request, paths: ['src/a.ts'], completePrograms: withErrors });
    assert.deepEqual(rel(root, narrowed.configErrors.keys()), ['src/a.ts', 'tsconfig.json']);
  });

  it('no config at all: every TypeScript file is checked (inferred)', async () => {
    const root = tree({ 'a.ts': '', 'b/c.js': '' });
    const set = await plan(root);
    assert.deepEqual(rel(root, set.files), ['a.ts', 'b/c.js']);
    assert.deepEqual(rel(root, set.inferred), ['a.ts', 'b/c.js']);
    assert.deepEqual(set.programs, []);
  });

  it('config errors are kept as diagnostics of the config, positioned as tsc positions them', async () => {
    const text = '{ "compilerOptions": { "notAnOption": true }, "include": ["src"] }';
    const root = tree({ 'tsconfig.json': text, 'src/a.ts': '', 'empty/tsconfig.json': JSON.stringify({ include: ['nothing'] }) });
    const set = await plan(root);
    const errors = set.configErrors.get(join(root, 'tsconfig.json')) ?? [];
    assert.deepEqual(
      errors.map((d) => [d.severity, d.code, d.range.start.line, d.range.start.character, d.message]),
      [['error', 5023, 0, text.indexOf('"notAnOption"'), "Unknown compiler option 'notAnOption'."]],
    );
    // A nested program the root does not reference is not built by tsc -b: its errors only with --all-programs.
    assert.equal(set.configErrors.get(join(root, 'empty', 'tsconfig.json')), undefined);
    const all = await plan(root, ['.'], false, root, true);
    const empty = all.configErrors.get(join(root, 'empty', 'tsconfig.json')) ?? [];
    assert.deepEqual(empty.map((d) => d.code), [18003]);
  });

  it('a tsconfig that is not valid JSON is an error on the tsconfig (tsc: TS1005), never a clean pass', async () => {
    const text = '{ "compilerOptions": { "strict": true, }\n';
    const root = tree({ 'tsconfig.json': text, 'src/a.ts': '' });
    const set = await plan(root);
    const errors = set.configErrors.get(join(root, 'tsconfig.json')) ?? [];
    assert.deepEqual(
      errors.map((d) => [d.severity, d.code, d.range.start.line]),
      [['error', 1005, 1]],
    );
  });

  it('a directory with its own tsconfig: that program and its references whole (files outside the directory too), nested others skipped', async () => {
    const root = tree({
      'tsconfig.json': JSON.stringify({ include: ['src'] }),
      'src/a.ts': '',
      'website/tsconfig.json': JSON.stringify({}),
      'website/w.ts': '',
      'integrationTests/ts/tsconfig.json': JSON.stringify({}),
      'integrationTests/ts/t.ts': '',
      'app/tsconfig.json': JSON.stringify({ include: ['src', '../types/*.d.ts'], references: [{ path: '../core' }] }),
      'app/src/m.ts': '',
      'types/g.d.ts': '',
      'core/tsconfig.json': JSON.stringify({ include: ['src'] }),
      'core/src/c.ts': '',
    });
    const set = await plan(root);
    assert.deepEqual(rel(root, set.programs.map((p) => p.configPath)), ['tsconfig.json']);
    assert.deepEqual(rel(root, set.skippedPrograms.map((p) => p.configPath)).sort(), ['app/tsconfig.json', 'core/tsconfig.json', 'integrationTests/ts/tsconfig.json', 'website/tsconfig.json']);
    assert.deepEqual(rel(root, tsOnly(set.files)), ['src/a.ts']);
    assert.deepEqual(set.unconfigured, [], 'files of skipped programs are named with their program, not as in no program');
    const app = await plan(root, ['app']);
    assert.deepEqual(rel(root, app.programs.map((p) => p.configPath)), ['app/tsconfig.json', 'core/tsconfig.json']);
    assert.deepEqual(rel(root, tsOnly(app.files)), ['app/src/m.ts', 'core/src/c.ts', 'types/g.d.ts']);
    // Without a tsconfig at the path, the programs below it are found as before.
    const loose = tree({ 'a/tsconfig.json': '{}', 'a/x.ts': '', 'b/tsconfig.json': '{}', 'b/y.ts': '' });
    assert.deepEqual(rel(loose, tsOnly((await plan(loose)).files)), ['a/x.ts', 'b/y.ts']);
  });

  it('.gitignore (asked from git) is skipped and listed, except a program file', async () => {
    const root = tree(
      {
        '.gitignore': 'build/\n*.log.py\ngenerated.ts\n',
        'tsconfig.json': JSON.stringify({ include: ['src', 'generated.ts'] }),
        'src/a.ts': '',
        'build/out.js': '',
        'tools/x.py': '',
        'tools/debug.log.py': '',
        'generated.ts': '',
      },
      true,
    );
    const set = await plan(root);
    assert.deepEqual(rel(root, set.ignored), ['build', 'generated.ts', 'tools/debug.log.py']);
    assert.deepEqual(rel(root, set.files), ['.gitignore', 'generated.ts', 'src/a.ts', 'tools/x.py', 'tsconfig.json']);
    assert.deepEqual(set.gitignoreUnread, []);
  });

  it('outside a git work tree a .gitignore is not applied, and that is said', async () => {
    const root = tree({ '.gitignore': 'build/\n', 'build/x.py': '' });
    const set = await plan(root);
    assert.deepEqual(rel(root, set.files), ['.gitignore', 'build/x.py']);
    assert.deepEqual(set.gitignoreUnread, [root]);
  });
});

function fake(root: string, version: string, tsserver: boolean): void {
  mkdirSync(join(root, 'node_modules', 'typescript', 'lib'), { recursive: true });
  writeFileSync(join(root, 'node_modules', 'typescript', 'package.json'), JSON.stringify({ name: 'typescript', version }));
  if (tsserver) writeFileSync(join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js'), '');
}

describe('chooseTypeScript', () => {
  it("uses the workspace's when it has a tsserver and is 4.0 or newer, found from a parent directory", () => {
    const root = tree({ 'pkg/a.ts': '' });
    fake(root, '4.9.5', true);
    const choice = chooseTypeScript(join(root, 'pkg'), 'auto', root);
    assert.equal(choice.source, 'workspace');
    assert.equal(choice.version, '4.9.5');
    assert.equal(choice.serverPath, join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js'));
    assert.equal(describeTypeScript(choice), `TypeScript: the workspace's 4.9.5 (${choice.serverPath})`);
    assert.equal(chooseTypeScript(root, 'embedded', root).source, 'embedded');
  });

  it('falls back to the embedded one, saying why, for a TypeScript 7 with no tsc at all or one older than 4.0', () => {
    const seven = tree({});
    fake(seven, '7.0.2', false);
    const a = chooseTypeScript(seven, 'auto', seven);
    assert.equal(a.source, 'embedded');
    assert.match(a.rejected ?? '', /TypeScript 7\.0\.2 .* has neither its native tsc nor bin\/tsc/);
    assert.match(describeTypeScript(a), /^TypeScript: the embedded 5\.9\.3 \(.*\) \(not the workspace's: TypeScript 7\.0\.2/);
    assert.throws(() => chooseTypeScript(seven, 'workspace', seven), /--typescript workspace: TypeScript 7\.0\.2/);
    const old = tree({});
    fake(old, '3.9.10', true);
    assert.match(chooseTypeScript(old, 'auto', old).rejected ?? '', /older than 4\.0/);
  });

  it('a path names a package directory or its tsserver.js; a bad one is an error', () => {
    const root = tree({});
    fake(root, '5.4.5', true);
    const dir = join(root, 'node_modules', 'typescript');
    assert.equal(chooseTypeScript(root, dir, root).source, 'user');
    assert.equal(chooseTypeScript(root, join(dir, 'lib', 'tsserver.js'), root).version, '5.4.5');
    assert.throws(() => chooseTypeScript(root, 'nowhere', root), /--typescript nowhere: .*no readable package\.json/);
    assert.deepEqual(inspectTypeScript(join(root, 'nowhere')), { problem: `${join(root, 'nowhere')} has no readable package.json` });
  });
});

describe('parseProgramsIsolated', () => {
  it('gives the same programs as parsing in-process, from a child process', async () => {
    const root = tree({ 'tsconfig.json': '{ "compilerOptions": { "bogus": 1 }, "references": [{ "path": "./sub" }] }', 'a.ts': '', 'sub/tsconfig.json': '{}', 'sub/b.ts': '' });
    const configs = [join(root, 'tsconfig.json')];
    const isolated = await parseProgramsIsolated(embeddedTypeScript().packageDir, configs);
    assert.deepEqual(isolated, JSON.parse(JSON.stringify(parsePrograms(ts, configs))));
    assert.deepEqual(isolated.map((p) => rel(root, p.files)), [['a.ts', 'sub/b.ts'], ['sub/b.ts']]);
    assert.equal(isolated[0]?.errors[0]?.diagnostic.code, 5023);
  });
});

describe('signal exit codes', () => {
  it('are 128 + the signal number', () => {
    assert.equal(signalExitCode('SIGINT'), 130);
    assert.equal(signalExitCode('SIGTERM'), 143);
  });
});
