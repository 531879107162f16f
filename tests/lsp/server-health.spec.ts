/**
 * ServerHealth: which signs make a live server count as failed, and which do not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActionError } from '../../src/errors.ts';
import { DEFAULT_HEALTH_POLICY, ServerHealth, unhealthyError } from '../../src/lsp/server-health.ts';

function watch(): { health: ServerHealth; reasons: string[] } {
  const reasons: string[] = [];
  return { health: new ServerHealth((reason) => reasons.push(reason)), reasons };
}

const timeout = new ActionError('LSP_ACTION_TIMEOUT', 'ran out of time');
const cancelled = new ActionError('LSP_ACTION_CANCELLED', 'cancelled');
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
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

  it('a caller giving up (deadline, cancellation) is never a sign by itself: each only asks the server, one probe at a time', async () => {
    const probes: Array<{ resolve: (v: unknown) => void; reject: (e: unknown) => void; signal: AbortSignal }> = [];
    const reasons: string[] = [];
    const health = new ServerHealth(
      (reason) => reasons.push(reason),
      (signal) => new Promise((resolve, reject) => probes.push({ resolve, reject, signal })),
    );
    for (let i = 0; i < 12; i++) health.failed(i % 3 === 0 ? cancelled : timeout);
    assert.equal(probes.length, 1, 'twelve give-ups in a row send one probe, not twelve');
    assert.equal(probes[0]?.signal.aborted, false, 'the probe has its own deadline, not the caller\'s');
    probes[0]?.resolve({ version: '5.9.3' });
    await settle();
    assert.deepEqual(reasons, []);
    health.failed(timeout);
    assert.equal(probes.length, 2, 'after the answer, the next give-up probes again');
    probes[1]?.reject(new ActionError('LSP_ACTION_PEER_ERROR', 'fake answered $/dsh-lsp-actions/probe with error -32601: Unhandled method'));
    await settle();
    assert.deepEqual(reasons, [], 'an error answer is an answer');
    assert.equal(health.unhealthy, false);
  });

  it('a probe unanswered within probeTimeoutMs, with no other answer meanwhile, is conclusive', async () => {
    const reasons: string[] = [];
    const health = new ServerHealth(
      (reason) => reasons.push(reason),
      (signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new ActionError('LSP_ACTION_TIMEOUT', 'ran out of time')))),
      { ...DEFAULT_HEALTH_POLICY, probeTimeoutMs: 30 },
    );
    health.failed(timeout);
    await until(() => reasons.length > 0);
    assert.match(reasons[0] ?? '', /answered neither a probe request within 30 ms \(probeTimeoutMs\) nor any other request/);
  });

  it('a probe that runs out while other requests are answered is no sign (a busy server that answers)', async () => {
    const reasons: string[] = [];
    let expire!: () => void;
    const health = new ServerHealth(
      (reason) => reasons.push(reason),
      () => new Promise((_resolve, reject) => (expire = () => reject(new ActionError('LSP_ACTION_TIMEOUT', 'ran out of time')))),
    );
    health.failed(timeout);
    health.answered();
    expire();
    await settle();
    assert.deepEqual(reasons, []);
  });

  it('without a probe, timeouts are no sign at all', () => {
    const { health, reasons } = watch();
    for (let i = 0; i < 50; i++) health.failed(timeout);
    assert.deepEqual(reasons, []);
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
    const error = unhealthyError('tsls', 'it answered neither a probe request within 60000 ms (probeTimeoutMs) nor any other request meanwhile', 'tail');
    assert.equal(error.code, 'LSP_ACTION_SERVER_CRASHED');
    assert.match(error.message, /stopped answering meaningfully \(it answered neither a probe/);
    assert.equal(error.details.stderrTail, 'tail');
  });
});
