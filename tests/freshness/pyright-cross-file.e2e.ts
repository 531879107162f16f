/**
 * Issue 7 with a pull server: pyright on a two-module Python package of the same shape as the
 * TypeScript scenarios (`main.py` imports `f` from `lib.py`). `lib.py` changes on disk (an extra
 * parameter; another return type), is deleted, is recreated; `main.py` is asked at once and then
 * polled. The expected errors come from the pyright CLI (`--outputjson`) run on the same files
 * in the same test. One test per scenario.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testServersInstalled } from '../support/servers.ts';
import { put } from './cross-file-fixtures.ts';
import { PYRIGHT_ENTRY, startFreshnessEngine, type FreshnessEngine } from './freshness-engine.ts';
import { errorCodes, pollVerdicts, type Verdict } from './poll-verdicts.ts';

const T = { timeout: 300_000 };
const PYRIGHT_CLI = join(import.meta.dirname, '..', 'servers', 'node_modules', 'pyright', 'index.js');
const LIB_PY = 'def f(a: int) -> int:\n    return a\n';
const MAIN_PY = 'from .lib import f\n\nr: int = f(1)\n';
let ws: string;
let f: FreshnessEngine;

before(async () => {
  ws = mkdtempSync(join(tmpdir(), 'lsp-fresh-py-'));
  put(ws, 'pyproject.toml', '[tool.pyright]\ntypeCheckingMode = "standard"\n');
  for (const pkg of ['changed', 'retyped', 'deleted', 'recreated']) {
    put(ws, `${pkg}/__init__.py`, '');
    put(ws, `${pkg}/lib.py`, LIB_PY);
    put(ws, `${pkg}/main.py`, MAIN_PY);
  }
  f = await startFreshnessEngine({ pyright: { ...PYRIGHT_ENTRY, configuration: { python: { analysis: { typeCheckingMode: 'standard' } } } } });
});
after(async () => {
  await f?.close();
  rmSync(ws, { recursive: true, force: true });
});

async function ask(rel: string): Promise<Verdict> {
  const d = await f.engine.diagnostics({ root: ws, path: join(ws, rel) });
  assert.equal(d.servers[0]?.mode, 'pull');
  return { state: d.state, errors: errorCodes(d.diagnostics) };
}

/** The errors the pyright CLI reports for one file of `root` now (its `rule` names, sorted). */
function pyrightErrors(rel: string, root = ws): string[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [PYRIGHT_CLI, '--outputjson', '-p', root, join(root, rel)], { cwd: root, encoding: 'utf8' });
  } catch (error) {
    out = String((error as { stdout?: unknown }).stdout ?? ''); // exit 1 when it found errors
  }
  const report = JSON.parse(out) as { generalDiagnostics: Array<{ severity: string; rule?: string }> };
  return report.generalDiagnostics.filter((d) => d.severity === 'error').map((d) => String(d.rule)).sort();
}

/**
 * What pyright will say about `main.py` once `change` is made — computed on a scratch copy of the
 * package first, so the real change can be asked about at once, with no pause after it.
 */
function expectedAfter(pkg: string, change: (root: string) => void): string[] {
  const scratch = mkdtempSync(join(tmpdir(), 'lsp-fresh-py-expect-'));
  try {
    cpSync(join(ws, 'pyproject.toml'), join(scratch, 'pyproject.toml'));
    cpSync(join(ws, pkg), join(scratch, pkg), { recursive: true });
    change(scratch);
    return pyrightErrors(`${pkg}/main.py`, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Computes the CLI's verdict on a copy, makes the change, then asks at once and polls. */
async function changeAndPoll(pkg: string, change: (root: string) => void, label: string, expectError = true): Promise<void> {
  const expected = expectedAfter(pkg, change);
  assert.equal(expected.length > 0, expectError, `${label}: pyright CLI says ${JSON.stringify(expected)}`);
  change(ws);
  await pollVerdicts(() => ask(`${pkg}/main.py`), expected, label);
}

async function baseline(pkg: string): Promise<void> {
  assert.deepEqual(pyrightErrors(`${pkg}/main.py`), [], 'the package starts clean');
  await pollVerdicts(() => ask(`${pkg}/main.py`), [], `${pkg} baseline main.py`);
  await pollVerdicts(() => ask(`${pkg}/lib.py`), [], `${pkg} baseline lib.py`);
}

describe('cross-file freshness with pyright (pull), real', { skip: !testServersInstalled() && 'run npm run test:servers' }, () => {
  it('lib.py gains a required parameter: main.py gets the call error', T, async () => {
    await baseline('changed');
    await changeAndPoll('changed', (root) => writeFileSync(join(root, 'changed/lib.py'), 'def f(a: int, b: int) -> int:\n    return a + b\n'), 'extra parameter');
  });

  it('lib.py returns another type: main.py gets the assignment error', T, async () => {
    await baseline('retyped');
    await changeAndPoll('retyped', (root) => writeFileSync(join(root, 'retyped/lib.py'), 'def f(a: int) -> str:\n    return str(a)\n'), 'return type');
  });

  it('lib.py deleted: main.py gets the import error', T, async () => {
    await baseline('deleted');
    await changeAndPoll('deleted', (root) => unlinkSync(join(root, 'deleted/lib.py')), 'deleted');
  });

  it('lib.py deleted and recreated: main.py is clean again', T, async () => {
    await baseline('recreated');
    await changeAndPoll('recreated', (root) => unlinkSync(join(root, 'recreated/lib.py')), 'deleted');
    await changeAndPoll('recreated', (root) => writeFileSync(join(root, 'recreated/lib.py'), LIB_PY), 'recreated', false);
  });
});
