/**
 * Params validation: every INVALID_ARGS path names the offending field; a missing workspace
 * root is WORKSPACE_REQUIRED, a relative one INVALID_ARGS; a path leaving the root is OUTSIDE_WORKSPACE.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActionParams } from '../../src/actions/action-params.ts';
import { BUILTIN_ACTIONS } from '../../src/actions/builtin-actions.ts';
import { isActionError } from '../../src/errors.ts';
import { ROOT, actionError } from './support/action-fixtures.ts';

const byId = new Map(BUILTIN_ACTIONS.map((action) => [action.id, action]));
const parse = (id: string, raw: unknown): unknown => {
  const action = byId.get(id);
  if (!action) throw new Error(`no action ${id}`);
  return action.parse(raw);
};
const base = { workspaceRoot: ROOT, filePath: 'src/a.ts' };
const pos = { line: 1, character: 2 };
const fmt = (r: unknown): unknown => parse('format', { ...base, range: r });

describe('ActionParams', () => {
  it('refuses non-object params', () => {
    for (const raw of [null, 42, 'x', [1]]) assert.throws(() => new ActionParams(raw), actionError('LSP_ACTION_INVALID_ARGS', /params must be an object/));
  });

  it('workspaceRoot: missing or blank is WORKSPACE_REQUIRED ("none was given")', () => {
    for (const workspaceRoot of [undefined, null, '', '  ']) {
      assert.throws(() => parse('diagnostics.get', { filePath: 'a.ts', workspaceRoot }), actionError('LSP_ACTION_WORKSPACE_REQUIRED', /\(params\.workspaceRoot\); none was given/));
    }
  });

  it('workspaceRoot: given but relative or not a string is INVALID_ARGS naming the field, for every action that takes one', () => {
    const takingRoot = BUILTIN_ACTIONS.filter((action) => {
      try {
        action.parse({});
      } catch (error) {
        return isActionError(error) && error.code === 'LSP_ACTION_WORKSPACE_REQUIRED';
      }
      return false;
    });
    assert.ok(takingRoot.length >= 15, `${takingRoot.length} actions refuse a missing workspaceRoot`);
    for (const action of takingRoot) {
      const raw = { filePath: 'a.ts', position: pos, newName: 'b', workspaceRoot: 'relative/dir' };
      assert.throws(() => action.parse(raw), actionError('LSP_ACTION_INVALID_ARGS', /^params\.workspaceRoot must be an absolute path; "relative\/dir" is relative/), action.id);
      assert.throws(() => action.parse({ ...raw, workspaceRoot: './' }), actionError('LSP_ACTION_INVALID_ARGS', /params\.workspaceRoot must be an absolute path/), action.id);
      assert.throws(() => action.parse({ ...raw, workspaceRoot: 7 }), actionError('LSP_ACTION_INVALID_ARGS', /^params\.workspaceRoot must be a string \(an absolute path\), not number/), action.id);
    }
  });

  it('filePath: missing, empty, non-string, NUL', () => {
    assert.throws(() => parse('diagnostics.get', { workspaceRoot: ROOT }), actionError('LSP_ACTION_INVALID_ARGS', /params\.filePath is required/));
    assert.throws(() => parse('diagnostics.get', { ...base, filePath: ' ' }), actionError('LSP_ACTION_INVALID_ARGS', /params\.filePath must not be empty/));
    assert.throws(() => parse('diagnostics.get', { ...base, filePath: 3 }), actionError('LSP_ACTION_INVALID_ARGS', /params\.filePath must be a string/));
    assert.throws(() => parse('diagnostics.get', { ...base, filePath: 'a\0b' }), actionError('LSP_ACTION_INVALID_ARGS', /NUL/));
  });

  it('position: required, object, non-negative integers', () => {
    assert.throws(() => parse('completion.get', base), actionError('LSP_ACTION_INVALID_ARGS', /params\.position is required/));
    assert.throws(() => parse('completion.get', { ...base, position: [1, 2] }), actionError('LSP_ACTION_INVALID_ARGS', /params\.position must be \{ line, character \}/));
    assert.throws(() => parse('completion.get', { ...base, position: { line: -1, character: 0 } }), actionError('LSP_ACTION_INVALID_ARGS', /^params\.position\.line must be a non-negative integer$/));
    assert.throws(() => parse('completion.get', { ...base, position: { line: 0, character: 1.5 } }), actionError('LSP_ACTION_INVALID_ARGS', /params\.position\.character must be a non-negative integer/));
    assert.throws(() => parse('hover.get', { ...base, position: { line: '1', character: 0 } }), actionError('LSP_ACTION_INVALID_ARGS', /params\.position\.line/));
    assert.deepEqual((parse('completion.get', { ...base, position: pos }) as { position: unknown }).position, pos);
  });

  it('range: shape, start/end, integers, order', () => {
    assert.throws(() => fmt('0-1'), actionError('LSP_ACTION_INVALID_ARGS', /params\.range must be \{ start, end \}/));
    assert.throws(() => fmt({ end: pos }), actionError('LSP_ACTION_INVALID_ARGS', /params\.range\.start is required/));
    assert.throws(() => fmt({ start: pos }), actionError('LSP_ACTION_INVALID_ARGS', /params\.range\.end is required/));
    assert.throws(() => fmt({ start: { line: -2, character: 0 }, end: pos }), actionError('LSP_ACTION_INVALID_ARGS', /^params\.range\.start\.line must be a non-negative integer$/));
    assert.throws(() => fmt({ start: pos, end: { line: 1, character: NaN } }), actionError('LSP_ACTION_INVALID_ARGS', /params\.range\.end\.character/));
    assert.throws(() => fmt({ start: { line: 2, character: 0 }, end: { line: 1, character: 9 } }), actionError('LSP_ACTION_INVALID_ARGS', /params\.range\.end must not be before params\.range\.start/));
    assert.throws(() => fmt({ start: { line: 1, character: 3 }, end: { line: 1, character: 2 } }), actionError('LSP_ACTION_INVALID_ARGS', /must not be before/));
    assert.deepEqual((fmt({ start: pos, end: pos }) as { range: unknown }).range, { start: pos, end: pos });
    assert.throws(() => parse('inlayHints.get', { ...base, range: { start: pos, end: { line: 0, character: 0 } } }), actionError('LSP_ACTION_INVALID_ARGS', /params\.range\.end/));
  });

  it('maxItems and waitMs: positive integers', () => {
    for (const maxItems of [0, -1, 1.5, '3', true]) {
      assert.throws(() => parse('diagnostics.get', { ...base, maxItems }), actionError('LSP_ACTION_INVALID_ARGS', /params\.maxItems must be a positive integer/));
    }
    assert.throws(() => parse('diagnostics.get', { ...base, waitMs: 0 }), actionError('LSP_ACTION_INVALID_ARGS', /params\.waitMs/));
    assert.equal((parse('diagnostics.get', { ...base, maxItems: 3 }) as { maxItems: number }).maxItems, 3);
  });

  it('booleans, strings and string arrays', () => {
    assert.throws(() => parse('diagnostics.get', { ...base, includeSource: 'yes' }), actionError('LSP_ACTION_INVALID_ARGS', /params\.includeSource must be true or false/));
    assert.throws(() => parse('diagnostics.get', { ...base, text: 5 }), actionError('LSP_ACTION_INVALID_ARGS', /params\.text must be a string/));
    assert.throws(() => parse('quickfix.apply', { ...base, title: 1 }), actionError('LSP_ACTION_INVALID_ARGS', /params\.title must be a string/));
    assert.throws(() => parse('quickfix.apply', { ...base, only: 'quickfix' }), actionError('LSP_ACTION_INVALID_ARGS', /params\.only must be an array of strings/));
    assert.throws(() => parse('quickfix.apply', { ...base, only: ['quickfix', ''] }), actionError('LSP_ACTION_INVALID_ARGS', /params\.only\[1\] must be a non-empty string/));
    assert.throws(() => parse('references.get', { ...base, position: pos, includeDeclaration: 1 }), actionError('LSP_ACTION_INVALID_ARGS', /includeDeclaration/));
    assert.throws(() => parse('codeAction.apply', { ...base, runCommand: 'no' }), actionError('LSP_ACTION_INVALID_ARGS', /params\.runCommand/));
    assert.throws(() => parse('codeActions.list', { ...base, preview: 0 }), actionError('LSP_ACTION_INVALID_ARGS', /params\.preview/));
    assert.throws(() => parse('diagnostics.workspace', { workspaceRoot: ROOT, filePaths: [1] }), actionError('LSP_ACTION_INVALID_ARGS', /params\.filePaths\[0\]/));
  });

  it('index: non-negative integer; empty title counts as absent', () => {
    assert.throws(() => parse('quickfix.apply', { ...base, index: -1 }), actionError('LSP_ACTION_INVALID_ARGS', /params\.index must be a non-negative integer/));
    assert.throws(() => parse('quickfix.apply', { ...base, index: 0.5 }), actionError('LSP_ACTION_INVALID_ARGS', /params\.index/));
    assert.deepEqual(parse('quickfix.apply', { ...base, title: '', index: 2 }), { ...base, index: 2 });
  });

  it('text overlay: read actions only', () => {
    assert.equal((parse('diagnostics.get', { ...base, text: 'x' }) as { text: string }).text, 'x');
    for (const id of ['format', 'quickfix.apply', 'codeAction.apply', 'organizeImports']) {
      assert.throws(() => parse(id, { ...base, text: 'x' }), actionError('LSP_ACTION_INVALID_ARGS', /params\.text is accepted by read actions only/), id);
    }
    assert.throws(() => parse('rename', { ...base, position: pos, newName: 'b', text: 'x' }), actionError('LSP_ACTION_INVALID_ARGS', /params\.text/));
  });

  it('rename: newName required and not blank', () => {
    assert.throws(() => parse('rename', { ...base, position: pos }), actionError('LSP_ACTION_INVALID_ARGS', /params\.newName is required/));
    assert.throws(() => parse('rename', { ...base, position: pos, newName: '  ' }), actionError('LSP_ACTION_INVALID_ARGS', /params\.newName must not be blank/));
  });

  it('symbols.get: filePath or query', () => {
    assert.throws(() => parse('symbols.get', { workspaceRoot: ROOT }), actionError('LSP_ACTION_INVALID_ARGS', /params\.filePath is required for a file outline/));
    assert.deepEqual(parse('symbols.get', { workspaceRoot: ROOT, query: 'Foo' }), { workspaceRoot: ROOT, query: 'Foo' });
  });

  it('keeps the escalation pair and ignores unknown fields', () => {
    const parsed = parse('format', { ...base, sandbox_permissions: 'workspace-write', justification: 'fmt', extra: { a: 1 } });
    assert.deepEqual(parsed, { ...base, sandbox_permissions: 'workspace-write', justification: 'fmt' });
  });
});
