/**
 * The fs fence's denial says what happened: under `read-only` the preset forbids writing
 * (`LSP_ACTION_READ_ONLY`); under a writable mode the target lies outside what the preset lets
 * write (`LSP_ACTION_OUTSIDE_WORKSPACE`), which is not "read-only" (issue 11, item 9).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toWriteActionError } from '../../src/edits/fs-error-map.ts';

const denial = (): Error => Object.assign(new Error('path is outside the writable roots'), { code: 'FS_SANDBOX_DENIED' });

/**
 * @param mode the sandbox mode the seam's message names
 * @returns the error the harness's fs seam throws for a denied write
 */
function seam(mode: string): Error {
  return Object.assign(new Error(`cannot write "/w/.dsh-lsp-actions/write-journal.json": file access denied under ${mode} mode`), { code: 'FS_SANDBOX_DENIED' });
}

describe('FS_SANDBOX_DENIED by mode', () => {
  it('a caller that does not pass the mode gets the one the seam\'s denial names (issue 18: a journal write denied under workspace-write was "read-only")', () => {
    const denied = toWriteActionError(seam('workspace-write'), { path: '/w/.dsh-lsp-actions/write-journal.json', stage: 'write' });
    assert.equal(denied.code, 'LSP_ACTION_OUTSIDE_WORKSPACE');
    assert.equal(denied.details['mode'], 'workspace-write');
    assert.match(denied.message, /\[sandbox: file access denied under workspace-write mode\]/);
    assert.equal(toWriteActionError(seam('read-only'), { path: '/w/a.ts', stage: 'write' }).code, 'LSP_ACTION_READ_ONLY');
    // an explicit mode still wins
    assert.equal(toWriteActionError(seam('read-only'), { path: '/w/a.ts', stage: 'write', mode: 'workspace-write' }).code, 'LSP_ACTION_OUTSIDE_WORKSPACE');
  });

  it('read-only (or unknown): LSP_ACTION_READ_ONLY with the marker', () => {
    for (const mode of ['read-only', undefined] as const) {
      const error = toWriteActionError(denial(), { path: '/w/a.ts', stage: 'write', ...(mode ? { mode } : {}) });
      assert.equal(error.code, 'LSP_ACTION_READ_ONLY');
      assert.match(error.message, /\[sandbox: file access denied under read-only mode\]/);
    }
  });

  it('workspace-write and danger-full-access: LSP_ACTION_OUTSIDE_WORKSPACE, marker kept', () => {
    for (const mode of ['workspace-write', 'danger-full-access'] as const) {
      const error = toWriteActionError(denial(), { path: '/elsewhere/a.ts', stage: 'write', mode });
      assert.equal(error.code, 'LSP_ACTION_OUTSIDE_WORKSPACE', mode);
      assert.match(error.message, new RegExp(`under ${mode} mode`));
      assert.equal(error.details.fsCode, 'FS_SANDBOX_DENIED');
    }
  });
});
