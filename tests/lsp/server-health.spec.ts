/**
 * ServerHealth: which signs make a live server count as failed, and which do not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActionError } from '../../src/errors.ts';
import { ServerHealth, unhealthyError } from '../../src/lsp/server-health.ts';

function watch(): { health: ServerHealth; reasons: string[] } {
  const reasons: string[] = [];
  return { health: new ServerHealth((reason) => reasons.push(reason)), reasons };
}

const timeout = new ActionError('LSP_ACTION_TIMEOUT', 'ran out of time');
const noProject = new ActionError('LSP_ACTION_PEER_ERROR', 'tsls answered textDocument/hover with error -32603: Error: No Project.');

describe('ServerHealth', () => {
  it('a dead tsserver reported by typescript-language-server is conclusive at once', () => {
    const { health, reasons } = watch();
    health.observeLog('tsls: [tsclient] [tsserver] Exited. Code: null. Signal: SIGKILL');
    assert.equal(reasons.length, 1);
    assert.match(reasons[0] ?? '', /backend gone/);
    health.observeLog('tsls: tsserver process has exited (exit code: 1, signal: null). Stopping the server.');
    assert.equal(reasons.length, 1, 'reported once');
  });

  it('ordinary log lines are not signs', () => {
    const { health, reasons } = watch();
    health.observeLog('tsls: Using Typescript version (user-setting) 5.9.3');
    health.observeLog('tsls: [tsclient] Exited the loop');
    assert.deepEqual(reasons, []);
  });

  it('three timeouts in a row are conclusive; an answer in between resets the count', () => {
    const { health, reasons } = watch();
    health.failed(timeout);
    health.failed(timeout);
    health.answered();
    health.failed(timeout);
    health.failed(timeout);
    assert.deepEqual(reasons, []);
    health.failed(timeout);
    assert.equal(reasons.length, 1);
    assert.match(reasons[0] ?? '', /3 requests in a row ran out of time/);
  });

  it('"No Project" answers in a row are conclusive; other peer errors count as answers; cancellations count as nothing', () => {
    const { health, reasons } = watch();
    health.failed(noProject);
    health.failed(noProject);
    health.failed(new ActionError('LSP_ACTION_PEER_ERROR', 'tsls answered with error -32602: bad position'));
    health.failed(noProject);
    health.failed(new ActionError('LSP_ACTION_CANCELLED', 'cancelled'));
    health.failed(noProject);
    assert.deepEqual(reasons, []);
    health.failed(noProject);
    assert.match(reasons[0] ?? '', /"No Project"/);
  });

  it('the failure says what happened, as a crash (the pool restarts it)', () => {
    const error = unhealthyError('tsls', '3 requests in a row ran out of time without an answer', 'tail');
    assert.equal(error.code, 'LSP_ACTION_SERVER_CRASHED');
    assert.match(error.message, /stopped answering meaningfully \(3 requests in a row ran out of time/);
    assert.equal(error.details.stderrTail, 'tail');
  });
});
