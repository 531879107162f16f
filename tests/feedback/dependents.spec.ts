/**
 * Which files a change could affect: transitive importers nearest first, the whole program for a
 * change that reaches it without an import, "not known" when no server can tell.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDependents, isGlobalScope, type DependentsDeps } from '../../src/feedback/dependents.ts';

const importers: Record<string, string[]> = {
  '/ws/a.ts': ['/ws/b.ts', '/ws/node_modules/x/i.ts'],
  '/ws/b.ts': ['/ws/c.ts', '/ws/a.ts'],
  '/ws/c.ts': [],
};
const texts: Record<string, string> = { '/ws/a.ts': 'export const a = 1;\n', '/ws/g.ts': 'declare const g: number;\n', '/ws/m.ts': "export {};\ndeclare global { interface X {} }\n" };

function deps(known = importers): DependentsDeps & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    engine: {
      fileImporters: async (path) => (asked.push(path), known[path]),
      projectFiles: async (path) => (path === '/ws/gone.ts' ? undefined : ['/ws/a.ts', '/ws/b.ts', '/ws/c.ts', '/lib/lib.d.ts', '/ws/node_modules/x/i.ts']),
    },
    readText: async (path) => texts[path] ?? 'import "./a";\n',
  };
}

const signal = new AbortController().signal;

test('transitive importers, nearest first, inside the root and outside node_modules, each once', async () => {
  const d = deps();
  const found = await findDependents(d, '/ws', [{ path: '/ws/a.ts', kind: 'changed', since: 1 }], [], signal);
  assert.deepEqual(found, { files: ['/ws/b.ts', '/ws/c.ts'], found: ['/ws/a.ts'], unknown: [] });
  assert.deepEqual(d.asked, ['/ws/a.ts', '/ws/b.ts', '/ws/c.ts'], 'the cycle back to a.ts is not followed');
});

test('a caller that has enough stops the walk after a level, and is told the list is cut', async () => {
  const d = deps();
  const cut = await findDependents(d, '/ws', [{ path: '/ws/a.ts', kind: 'changed', since: 1 }], [], signal, (files) => files.length >= 1);
  assert.deepEqual(cut, { files: ['/ws/b.ts'], found: ['/ws/a.ts'], unknown: [], cut: true });
  assert.deepEqual(d.asked, ['/ws/a.ts'], 'b.ts was not asked');
  const whole = await findDependents(deps(), '/ws', [{ path: '/ws/a.ts', kind: 'changed', since: 1 }], [], signal, (files) => files.length >= 5);
  assert.equal(whole.cut, undefined, 'the walk ended before it had enough');
});

test('a deleted file, a script, declare global and a tsconfig stand for the whole program', async () => {
  for (const source of [
    { path: '/ws/gone.ts', kind: 'deleted' as const },
    { path: '/ws/g.ts', kind: 'changed' as const },
    { path: '/ws/m.ts', kind: 'changed' as const },
    { path: '/ws/tsconfig.json', kind: 'changed' as const },
  ]) {
    const found = await findDependents(deps(), '/ws', [{ ...source, since: 1 }], ['/ws/a.ts'], signal);
    assert.deepEqual(found.files, source.path === '/ws/gone.ts' ? ['/ws/a.ts', '/ws/b.ts', '/ws/c.ts'] : ['/ws/a.ts', '/ws/b.ts', '/ws/c.ts'].filter((p) => p !== source.path), source.path);
    assert.deepEqual(found.found, [source.path]);
  }
});

test('no server can list importers: the change\'s dependents are "not known", never "none"', async () => {
  const found = await findDependents(deps({}), '/ws', [{ path: '/ws/a.ts', kind: 'changed', since: 1 }], [], signal);
  assert.deepEqual(found, { files: [], found: [], unknown: ['/ws/a.ts'] });
  const noProgram = await findDependents(deps(), '/ws', [{ path: '/ws/gone.ts', kind: 'deleted', since: 1 }], [], signal);
  assert.deepEqual(noProgram.unknown, ['/ws/gone.ts']);
});

test('global scope by text', () => {
  assert.equal(isGlobalScope('export const a = 1;\n'), false);
  assert.equal(isGlobalScope("import { a } from './a';\nconsole.log(a);\n"), false);
  assert.equal(isGlobalScope('const local = 1;\n'), true, 'a script');
  assert.equal(isGlobalScope("export {};\ndeclare global {\n  interface Window { x: number }\n}\n"), true);
  assert.equal(isGlobalScope("export {};\ndeclare module 'lib' {\n}\n"), true);
});
