import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectTargetPaths, groupStepsByFile } from '../../src/edits/edit-plan.ts';
import { isActionError } from '../../src/errors.ts';
import type { NormalizedWorkspaceEdit, TextEdit } from '../../src/lsp/engine-types.ts';

const insert = (text: string): TextEdit => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: text });

function refusal(edit: NormalizedWorkspaceEdit): { code: string; message: string; operation: unknown } {
  try {
    collectTargetPaths(edit);
  } catch (error) {
    assert.ok(isActionError(error));
    return { code: error.code, message: error.message, operation: error.details.operation };
  }
  assert.fail('expected a refusal');
}

describe('edit plan', () => {
  it('lists distinct target paths in first-seen order', () => {
    const edit: NormalizedWorkspaceEdit = {
      steps: [
        { kind: 'edit', path: '/w/b.ts', edits: [insert('1')] },
        { kind: 'create', path: '/w/new.ts' },
        { kind: 'edit', path: '/w/a.ts', edits: [insert('2')] },
        { kind: 'edit', path: '/w/b.ts', edits: [insert('3')] },
      ],
    };
    assert.deepEqual(collectTargetPaths(edit), ['/w/b.ts', '/w/new.ts', '/w/a.ts']);
  });

  it('keeps documentChanges order per file, the same file twice composing in order', () => {
    const edit: NormalizedWorkspaceEdit = {
      steps: [
        { kind: 'edit', path: '/w/a.ts', edits: [insert('first')] },
        { kind: 'create', path: '/w/c.ts', ignoreIfExists: true },
        { kind: 'edit', path: '/w/c.ts', edits: [insert('new')] },
        { kind: 'edit', path: '/w/a.ts', edits: [insert('second')] },
      ],
    };
    const plans = groupStepsByFile(edit, (path) => path);
    assert.deepEqual(
      plans.map((plan) => [plan.key, plan.operations.map((op) => (op.kind === 'edit' ? op.edits[0]?.newText : `create:${op.ignoreIfExists}`))]),
      [
        ['/w/a.ts', ['first', 'second']],
        ['/w/c.ts', ['create:true', 'new']],
      ],
    );
  });

  it('groups aliases of one file under one key, keeping every spelling', () => {
    const edit: NormalizedWorkspaceEdit = {
      steps: [
        { kind: 'edit', path: '/w/link.ts', edits: [insert('1')] },
        { kind: 'edit', path: '/w/real.ts', edits: [insert('2')] },
      ],
    };
    const plans = groupStepsByFile(edit, () => '/w/real.ts');
    assert.equal(plans.length, 1);
    assert.deepEqual(plans[0]?.paths, ['/w/link.ts', '/w/real.ts']);
    assert.equal(plans[0]?.operations.length, 2);
  });

  it('refuses a rename anywhere in the edit, naming the operation', () => {
    const result = refusal({
      steps: [
        { kind: 'edit', path: '/w/a.ts', edits: [insert('x')] },
        { kind: 'rename', oldPath: '/w/a.ts', newPath: '/w/b.ts' },
      ],
    });
    assert.equal(result.code, 'LSP_ACTION_UNSUPPORTED');
    assert.equal(result.operation, 'rename');
    assert.match(result.message, /renames \/w\/a\.ts to \/w\/b\.ts/);
  });

  it('refuses a delete, naming the operation', () => {
    const result = refusal({ steps: [{ kind: 'delete', path: '/w/a.ts', ignoreIfNotExists: true }] });
    assert.equal(result.code, 'LSP_ACTION_UNSUPPORTED');
    assert.equal(result.operation, 'delete');
  });

  it('refuses a step without an absolute path', () => {
    const result = refusal({ steps: [{ kind: 'edit', path: 'a.ts', edits: [] }] });
    assert.equal(result.code, 'LSP_ACTION_MALFORMED_RESPONSE');
  });
});
