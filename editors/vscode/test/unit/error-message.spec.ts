import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorNotification } from '../../src/error-message.ts';

describe('error notifications', () => {
  it('say what happened, what to do, and end with the code', () => {
    const text = errorNotification('Format Document', { code: 'LSP_ACTION_READ_ONLY', message: 'the sandbox preset is read-only.' });
    assert.match(text, /^Format Document failed: the sandbox preset is read-only\. /);
    assert.match(text, /Nothing was changed\. .*dshLspActions\.sandbox/);
    assert.match(text, /\(LSP_ACTION_READ_ONLY\)$/);
  });

  it('route on the precise reason when there is one and show both codes', () => {
    const text = errorNotification('Rename', { code: 'LSP_ACTION_UNAVAILABLE', reason: 'LSP_ACTION_NO_SYMBOL', message: 'nothing to rename' });
    assert.match(text, /Put the cursor on a symbol/);
    assert.match(text, /\(LSP_ACTION_UNAVAILABLE, LSP_ACTION_NO_SYMBOL\)$/);
  });

  it('tell a conflict apart: nothing was written', () => {
    assert.match(errorNotification('x', { code: 'LSP_ACTION_CONFLICT', message: 'changed on disk' }), /Nothing was changed: the file changed/);
  });

  it('a read-only or hard-linked target gets its own advice, not "the file changed"', () => {
    const ro = errorNotification('Rename', { code: 'LSP_ACTION_CONFLICT', message: 'a.ts is read-only', details: { reason: 'read-only-file' } });
    assert.match(ro, /the file is read-only/);
    assert.doesNotMatch(ro, /changed since/);
    assert.match(errorNotification('Format', { code: 'LSP_ACTION_CONFLICT', message: 'linked', details: { reason: 'hard-link' } }), /other hard links/);
    assert.match(errorNotification('x', { code: 'LSP_ACTION_CONFLICT', message: 'moved', details: { reason: 'basis-mismatch' } }), /the file changed since/);
  });

  it('still show an unknown code, with no invented advice', () => {
    assert.equal(errorNotification('x', { code: 'LSP_FUTURE', message: 'new' }), 'x failed: new. (LSP_FUTURE)');
  });
});
