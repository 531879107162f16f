import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isActionError } from '../../src/errors.ts';
import { parseEscalationArgs } from '../../src/permission/parse-escalation-args.ts';

function invalid(raw: unknown): { message: string; field: unknown } {
  try {
    parseEscalationArgs(raw);
  } catch (error) {
    assert.ok(isActionError(error));
    assert.equal(error.code, 'LSP_ACTION_INVALID_ARGS');
    return { message: error.message, field: error.details.field };
  }
  assert.fail('expected LSP_ACTION_INVALID_ARGS');
}

describe('parseEscalationArgs', () => {
  it('returns undefined when neither field is present', () => {
    assert.equal(parseEscalationArgs({ filePath: 'a.ts' }), undefined);
    assert.equal(parseEscalationArgs({ sandbox_permissions: null, justification: null }), undefined);
    assert.equal(parseEscalationArgs(undefined), undefined);
  });

  it('returns the paired request', () => {
    assert.deepEqual(parseEscalationArgs({ sandbox_permissions: 'workspace-write', justification: 'format the file' }), {
      requestedMode: 'workspace-write',
      justification: 'format the file',
    });
    assert.equal(
      parseEscalationArgs({ sandbox_permissions: 'danger-full-access', justification: 'edit outside' })?.requestedMode,
      'danger-full-access',
    );
  });

  it("refuses unpaired fields and an empty justification with the harness's own wording", () => {
    assert.deepEqual(invalid({ sandbox_permissions: 'workspace-write' }), {
      message: 'invalid escalation: sandbox_permissions requires a justification',
      field: 'justification',
    });
    assert.equal(invalid({ justification: 'why' }).field, 'sandbox_permissions');
    assert.match(invalid({ sandbox_permissions: 'workspace-write', justification: '  ' }).message, /non-empty sentence/);
  });

  it('refuses modes outside ESCALATION_TARGETS and non-string fields', () => {
    assert.match(invalid({ sandbox_permissions: 'read-only', justification: 'x' }).message, /expected one of workspace-write, danger-full-access/);
    assert.equal(invalid({ sandbox_permissions: 1, justification: 'x' }).field, 'sandbox_permissions');
  });
});
