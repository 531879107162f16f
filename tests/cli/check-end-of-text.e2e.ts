/**
 * A syntax error on a file's empty last line (an unclosed call before the final line break):
 * `tsc` reports it at line N+1, column 1. `check` — the built executable with real servers —
 * reports the same set as the compiler of the workspace, with TypeScript 5.9 (tsserver: the
 * program's first file opened, the others asked unopened; a single file target opened) and with
 * TypeScript 7 (`tsc --lsp`), and prints it in every format (JSON, SARIF, pretty with the empty
 * source line). Issue 21.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TS7_TSC, testServersInstalled } from '../support/servers.ts';
import { REPO, spawnCli } from './cli-harness.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const TSC_59 = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const TS7_PACKAGE = join(REPO, 'tests', 'servers', 'node_modules', 'typescript7');
const TIMEOUT = 240_000;
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}/usr/bin${delimiter}/bin` };

// Two files broken at their end (the first of a program is opened, the next asked unopened), one clean.
const SOURCES = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
  'src/a.ts': 'export const a = 1;\nexport const m = Math.max(a,\n',
  'src/b.ts': 'export const b = Math.min(1,\r\n',
  'src/c.ts': 'export const c: number = 1;\n',
};

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function project(name: string, typescript?: string): string {
  const root = mkdtempSync(join(tmpdir(), `dsh-eot-${name}-`));
  roots.push(root);
  for (const [path, text] of Object.entries(SOURCES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  if (typescript !== undefined) {
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    symlinkSync(typescript, join(root, 'node_modules', 'typescript'));
  }
  return root;
}

/** `file:line:col code` of every error a `tsc` prints. */
function tscErrors(command: string[], cwd: string): string[] {
  const [exe = '', ...args] = command;
  const r = spawnSync(exe, [...args, '--noEmit', '-p', '.', '--pretty', 'false'], { cwd, encoding: 'utf8' });
  return [...r.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
}

interface JsonDoc {
  summary: { notFresh: { total: number } };
  files: Array<{ path: string; diagnostics: Array<{ line: number; column: number; code: unknown; severity: string }> }>;
}

async function check(cwd: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return spawnCli(MAIN, ['check', '--wait-ms', '150000', ...argv], { cwd, env, timeoutMs: TIMEOUT });
}

async function checkErrors(cwd: string, argv: string[]): Promise<string[]> {
  const r = await check(cwd, ['--format', 'json', ...argv]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const doc = JSON.parse(r.stdout) as JsonDoc;
  assert.equal(doc.summary.notFresh.total, 0, r.stdout);
  return doc.files.flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${f.path}:${d.line}:${d.column} ${String(d.code)}`)).sort();
}

before(() => assert.ok(existsSync(MAIN), 'run `npm run build` first: lib/cli/main.js is missing'));

describe('a syntax error at the end of the text, with TypeScript 5.9 (tsserver)', { timeout: TIMEOUT * 4 }, () => {
  let root = '';
  before(() => {
    root = project('ts59');
  });

  it('check . reports what tsc reports, at line N+1 column 1', async () => {
    const tsc = tscErrors([process.execPath, TSC_59], root);
    assert.deepEqual(tsc, ['src/a.ts:3:1 1005', 'src/b.ts:2:1 1005']);
    assert.deepEqual(await checkErrors(root, ['.']), tsc);
  });

  it('check FILE (the file opened on the server) reports it there too', async () => {
    assert.deepEqual(await checkErrors(root, ['src/a.ts']), ['src/a.ts:3:1 1005']);
  });

  it('SARIF and pretty text print it: region line N+1, the empty source line under the head', async () => {
    const sarif = await check(root, ['--format', 'sarif', 'src/a.ts']);
    const log = JSON.parse(sarif.stdout) as { runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { region: Record<string, number> } }> }> }> };
    assert.deepEqual(log.runs[0]?.results.map((r) => r.locations[0]?.physicalLocation.region), [{ startLine: 3, startColumn: 1, endLine: 3, endColumn: 1 }]);
    const pretty = await check(root, ['--pretty', 'src/a.ts']);
    // eslint-disable-next-line no-control-regex
    const plain = pretty.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    assert.match(plain, /^src\/a\.ts:3:1 error '\)' expected\. \[typescript 1005\]\n\n3 \n  ~\n/m);
  });
});

describe('a syntax error at the end of the text, with TypeScript 7 (tsc --lsp)', { timeout: TIMEOUT * 4, skip: !testServersInstalled() }, () => {
  it('check . and check FILE report what its tsc reports', async () => {
    const root = project('ts7', TS7_PACKAGE);
    const tsc = tscErrors([TS7_TSC], root);
    assert.deepEqual(tsc, ['src/a.ts:3:1 1005', 'src/b.ts:2:1 1005']);
    assert.deepEqual(await checkErrors(root, ['.']), tsc);
    assert.deepEqual(await checkErrors(root, ['src/a.ts']), ['src/a.ts:3:1 1005']);
  });
});
