/**
 * The Python file set follows the pyright configuration (pyrightconfig.json, [tool.pyright] in
 * pyproject.toml): include/exclude/ignore with pyright's wildcards, found where `pyright` finds it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { planFileSet } from '../../src/cli/check-file-set.ts';
import { findPyrightScope, pyrightChecks, specToRegExp } from '../../src/cli/pyright-scope.ts';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'dsh-pyright-scope-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const plan = (root: string, paths: string[] = ['.']) =>
  planFileSet({ paths, cwd: root, workspace: root, parsePrograms: undefined, isTypeScriptFile: () => false, includeUnconfigured: false });
const rel = (root: string, files: string[]) => files.map((f) => relative(root, f));

describe('pyright scope', () => {
  it('[tool.pyright] include decides: docs/, examples/ and tests/ outside it are skipped and named', async () => {
    const root = tree({
      'pyproject.toml': '[project]\nname = "x"\n\n[tool.pyright]\ninclude = ["src", "tests/typing"]\n',
      'src/pkg/a.py': '',
      'tests/typing/t.py': '',
      'tests/test_a.py': '',
      'docs/conf.py': '',
      'examples/e.py': '',
      'README.md': '',
    });
    const set = await plan(root);
    assert.deepEqual(rel(root, set.files.filter((f) => f.endsWith('.py'))), ['src/pkg/a.py', 'tests/typing/t.py']);
    assert.deepEqual(rel(root, set.outsidePyright), ['docs/conf.py', 'examples/e.py', 'tests/test_a.py']);
    assert.deepEqual(rel(root, set.pyrightConfigs), ['pyproject.toml']);
    // Found from a subdirectory too (the nearest ancestor's config), and an explicit file is always checked.
    const sub = await plan(root, ['tests', 'docs/conf.py']);
    assert.deepEqual(rel(root, sub.files.filter((f) => f.endsWith('.py'))), ['docs/conf.py', 'tests/typing/t.py']);
  });

  it('pyrightconfig.json wins over pyproject.toml; exclude and ignore with wildcards; comments allowed', async () => {
    const root = tree({
      'pyproject.toml': '[tool.pyright]\ninclude = ["nothing"]\n',
      'pyrightconfig.json': '{\n  // JSON with comments\n  "exclude": ["**/gen_*", "build"],\n  "ignore": ["vendored"],\n}\n',
      'app/main.py': '',
      'app/gen_models.py': '',
      'build/x.py': '',
      'vendored/v.py': '',
    });
    const set = await plan(root);
    assert.deepEqual(rel(root, set.files.filter((f) => f.endsWith('.py'))), ['app/main.py']);
    assert.deepEqual(rel(root, set.outsidePyright), ['app/gen_models.py', 'build/x.py', 'vendored/v.py']);
  });

  it('no pyright configuration: every Python file, as before; a pyproject.toml without [tool.pyright] is not one', async () => {
    const root = tree({ 'pyproject.toml': '[project]\nname = "x"\n', 'a.py': '', 'docs/b.py': '' });
    assert.equal(findPyrightScope(root, root), undefined);
    assert.deepEqual(rel(root, (await plan(root)).files.filter((f) => f.endsWith('.py'))), ['a.py', 'docs/b.py']);
  });

  it('a pyproject.toml that does not parse is an error on it, not a silent pass', async () => {
    const root = tree({ 'pyproject.toml': '[tool.pyright\ninclude = [\n', 'a.py': '' });
    const set = await plan(root);
    const errors = set.configErrors.get(join(root, 'pyproject.toml')) ?? [];
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.severity, 'error');
  });

  it("wildcards: ** any directories, * within a name, ? one character; a path selects what is below it", () => {
    const root = '/w';
    assert.ok(specToRegExp(root, 'src').test('/w/src/a/b.py'));
    assert.ok(!specToRegExp(root, 'src').test('/w/srcx/b.py'));
    assert.ok(specToRegExp(root, '**/tests').test('/w/a/b/tests/t.py'));
    assert.ok(specToRegExp(root, '**/tests').test('/w/tests/t.py'));
    assert.ok(specToRegExp(root, 'pkg/*_pb2.py').test('/w/pkg/x_pb2.py'));
    assert.ok(!specToRegExp(root, 'pkg/*_pb2.py').test('/w/pkg/sub/x_pb2.py'));
    assert.ok(specToRegExp(root, 'v?').test('/w/v1/x.py'));
    const scope = { configPath: '/w/pyrightconfig.json', include: [specToRegExp(root, '.')], exclude: [specToRegExp(root, '**/.*')], ignore: [] };
    assert.ok(pyrightChecks(scope, '/w/a.py'));
    assert.ok(!pyrightChecks(scope, '/w/.hidden/a.py'));
  });
});
