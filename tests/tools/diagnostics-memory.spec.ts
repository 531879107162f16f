import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiagnosticsMemory, diffDiagnostics } from '../../src/tools/diagnostics-memory.ts';
import { diag } from './tool-fixtures.ts';

describe('changes_only diffing', () => {
  it('reports new and resolved problems, and counts the rest as unchanged', () => {
    const before = [diag(1, 'a'), diag(5, 'b'), diag(9, 'c')];
    const after = [diag(1, 'a'), diag(9, 'c'), diag(12, 'd')];
    const changes = diffDiagnostics(before, after);
    assert.deepEqual(changes.added.map((d) => d.message), ['d']);
    assert.deepEqual(changes.resolved.map((d) => d.message), ['b']);
    assert.equal(changes.unchanged, 2);
  });

  it('treats a problem that only moved (lines inserted above) as unchanged', () => {
    const changes = diffDiagnostics([diag(3, 'x')], [diag(7, 'x')]);
    assert.deepEqual(changes, { added: [], resolved: [], unchanged: 1 });
  });

  it('tells problems apart by severity, source and code, not only by message', () => {
    const changes = diffDiagnostics([diag(3, 'x')], [diag(3, 'x', { severity: 2 }), diag(3, 'x', { code: 7 })]);
    assert.equal(changes.added.length, 2);
    assert.equal(changes.resolved.length, 1);
  });

  it('resolves the instance nearest to where the others still are, for repeated messages', () => {
    const before = [diag(2, 'dup'), diag(40, 'dup'), diag(80, 'dup')];
    const after = [diag(3, 'dup'), diag(81, 'dup')];
    const changes = diffDiagnostics(before, after);
    assert.equal(changes.unchanged, 2);
    assert.deepEqual(changes.resolved.map((d) => d.range.start.line), [40]);
  });

  it('lists resolved problems in position order', () => {
    const changes = diffDiagnostics([diag(9, 'z'), diag(2, 'y'), diag(2, 'x', { range: { start: { line: 2, character: 1 }, end: { line: 2, character: 2 } } })], []);
    assert.deepEqual(changes.resolved.map((d) => d.message), ['x', 'y', 'z']);
  });
});

describe('diagnostics memory', () => {
  it('keys baselines by session and path', () => {
    const memory = new DiagnosticsMemory(10);
    memory.set('s1', '/ws/a.ts', [diag(1, 'a')]);
    assert.equal(memory.get('s1', '/ws/a.ts')?.[0]?.message, 'a');
    assert.equal(memory.get('s2', '/ws/a.ts'), undefined);
    assert.equal(memory.get('s1', '/ws/b.ts'), undefined);
  });

  it('keeps only what a resolved line needs', () => {
    const memory = new DiagnosticsMemory(10);
    memory.set('s', '/a', [diag(1, 'a', { tags: [1] })]);
    assert.deepEqual(memory.get('s', '/a'), [{ severity: 1, range: diag(1, 'a').range, message: 'a', source: 'typescript', code: 2322 }]);
  });

  it('is bounded: the least recently used baseline goes first', () => {
    const memory = new DiagnosticsMemory(2);
    memory.set('s', '/a', []);
    memory.set('s', '/b', []);
    memory.get('s', '/a');
    memory.set('s', '/c', []);
    assert.equal(memory.size, 2);
    assert.notEqual(memory.get('s', '/a'), undefined);
    assert.equal(memory.get('s', '/b'), undefined);
    assert.notEqual(memory.get('s', '/c'), undefined);
  });

  it('forgets a session, and everything on clear', () => {
    const memory = new DiagnosticsMemory(10);
    memory.set('s1', '/a', []);
    memory.set('s1', '/b', []);
    memory.set('s2', '/a', []);
    memory.forgetSession('s1');
    assert.equal(memory.size, 1);
    assert.notEqual(memory.get('s2', '/a'), undefined);
    memory.clear();
    assert.equal(memory.size, 0);
  });
});
