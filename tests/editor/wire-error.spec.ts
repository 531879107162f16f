import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toWireError, v1Code } from '../../src/editor/wire-error.ts';
import { ACTION_ERROR_CODES, ActionError, V1_ERROR_CODES } from '../../src/errors.ts';

const V1: readonly string[] = V1_ERROR_CODES;

test('every code this package produces reaches the wire as a v1 code', () => {
  for (const code of ACTION_ERROR_CODES) assert.ok(V1.includes(v1Code(code)), `${code} → ${v1Code(code)}`);
});

test('v1 codes pass through unchanged and carry no reason', () => {
  for (const code of V1) {
    const wire = toWireError(new ActionError(code as never, 'm'));
    assert.deepEqual(wire, { code, message: 'm' });
  }
});

test('the spec assigns the run timeout to LSP_ACTION_UNAVAILABLE; the precise code is the reason', () => {
  assert.deepEqual(toWireError(new ActionError('LSP_ACTION_TIMEOUT', 'late')), {
    code: 'LSP_ACTION_UNAVAILABLE',
    message: 'late',
    reason: 'LSP_ACTION_TIMEOUT',
  });
});

test('a crashed server is a v1 server failure with its own reason, distinct from "no server"', () => {
  const crash = toWireError(new ActionError('LSP_ACTION_SERVER_CRASHED', 'exit 3'));
  assert.equal(crash.code, 'LSP_ACTION_SERVER_FAILED');
  assert.equal(crash.reason, 'LSP_ACTION_SERVER_CRASHED');
  const none = toWireError(new ActionError('LSP_ACTION_UNAVAILABLE', 'no server'));
  assert.equal(none.reason, undefined);
});

test('why a write was refused reaches the wire as error.details (reason, paths, restored); server internals do not', () => {
  const pin = toWireError(new ActionError('LSP_ACTION_CONFLICT', 'changed', { paths: ['/w/a.ts'], reason: 'pin-mismatch', stderrTail: 'secret', serverId: 'tsls' }));
  assert.deepEqual(pin, { code: 'LSP_ACTION_CONFLICT', message: 'changed', details: { reason: 'pin-mismatch', paths: ['/w/a.ts'] } });
  const partial = toWireError(
    new ActionError('LSP_ACTION_WRITE_FAILED', 'm', { paths: ['/w/a.ts', '/w/b.ts'], failedPath: '/w/a.ts', causeCode: 'x', restored: ['/w/b.ts'], unrestored: [] }),
  );
  assert.deepEqual(partial.details, { paths: ['/w/a.ts', '/w/b.ts'], failedPath: '/w/a.ts', restored: ['/w/b.ts'], unrestored: [] });
  assert.equal(partial.reason, 'LSP_ACTION_WRITE_FAILED');
  assert.equal(toWireError(new ActionError('LSP_ACTION_TIMEOUT', 'late', { serverId: 'tsls' })).details, undefined);
});

test('a navigation target that cannot be settled carries its candidates to the wire', () => {
  const candidates = [{ name: 'cart', position: { line: 5, character: 6 } }];
  assert.deepEqual(toWireError(new ActionError('LSP_ACTION_NO_SYMBOL', 'no name on line 5', { candidates })), {
    code: 'LSP_ACTION_UNAVAILABLE',
    message: 'no name on line 5',
    reason: 'LSP_ACTION_NO_SYMBOL',
    details: { candidates },
  });
});
