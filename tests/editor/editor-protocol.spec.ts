/**
 * One test per statement of `editor-protocol-v1.md` that the dispatcher owns: list, envelope,
 * requestId, the error codes it produces itself, JSON-RPC errors, notifications, concurrency,
 * cancellation and the run timeout.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActionError } from '../../src/errors.ts';
import { deferred, startFake, v1Actions, type FakeAction } from './editor-harness.ts';

const FILE = { filePath: 'a.ts', workspaceRoot: '/ws' };

function withRun(id: string, run: FakeAction['run']): FakeAction[] {
  return v1Actions().map((a) => (a.action === id ? { ...a, run } : a));
}

describe('lsp.actions.list', () => {
  it('answers protocol, version, the registry catalog and the live sessions', async () => {
    const agents = { list: () => [{ id: 's1', status: 'idle', session: { header: { cwd: '/ws' } } }, { id: 's2', status: 'idle', session: { header: {} } }] };
    const { request, dispose } = startFake({ services: { agents } });
    const res = await request('lsp.actions.list', {});
    assert.deepEqual(res['result'], {
      protocol: 'lsp-actions/v1',
      version: 1,
      actions: v1Actions().map(({ action, writes, description }) => ({ action, writes, description })),
      sessions: [
        { sessionId: 's1', cwd: '/ws', live: true },
        { sessionId: 's2', cwd: '', live: true },
      ],
    });
    await dispose();
  });

  it('echoes the JSON-RPC id with its JSON type (string stays string, number stays number)', async () => {
    const { wire, dispose } = startFake();
    wire.send({ jsonrpc: '2.0', id: '7', method: 'lsp.actions.list', params: {} });
    wire.send({ jsonrpc: '2.0', id: 7, method: 'lsp.actions.list' });
    assert.equal((await wire.response('7'))['id'], '7');
    assert.equal((await wire.response(7))['id'], 7);
    await dispose();
  });
});

describe('lsp.actions.run envelope', () => {
  it('succeeded: {requestId, action, status, result}, requestId echoed', async () => {
    const { run, runner, dispose } = startFake();
    const env = await run({ action: 'completion.get', params: { ...FILE, position: { line: 0, character: 0 } }, requestId: 'q1' });
    assert.deepEqual(env, { requestId: 'q1', action: 'completion.get', status: 'succeeded', result: { kind: 'ok', action: 'completion.get' } });
    assert.equal(runner.requests[0]?.actor, undefined, 'editor runs are agentless');
    assert.equal(runner.requests[0]?.toolName, 'editor:completion.get');
    assert.equal(runner.requests[0]?.callId, 'q1');
    await dispose();
  });

  it('failed: the runner\'s coded error is carried as {code, message} in a JSON-RPC result', async () => {
    const { run, dispose } = startFake({
      actions: withRun('format', async () => {
        throw new ActionError('LSP_ACTION_READ_ONLY', 'read-only preset');
      }),
    });
    const env = await run({ action: 'format', params: FILE, requestId: 'f1' });
    assert.deepEqual(env, { requestId: 'f1', action: 'format', status: 'failed', error: { code: 'LSP_ACTION_READ_ONLY', message: 'read-only preset' } });
    await dispose();
  });

  it('an uncoded runner failure becomes LSP_ACTION_SERVER_FAILED, still an envelope', async () => {
    const { run, dispose } = startFake({ actions: withRun('format', () => Promise.reject(new Error('boom'))) });
    assert.deepEqual((await run({ action: 'format', params: FILE }))['error'], { code: 'LSP_ACTION_SERVER_FAILED', message: 'boom' });
    await dispose();
  });

  it('generates a requestId when absent, empty or not a string, and uses it on every action.status event', async () => {
    const { run, wire, dispose } = startFake();
    wire.send({ jsonrpc: '2.0', method: 'lsp.events', params: { subscribe: true } });
    for (const requestId of [undefined, '', 12]) {
      const env = await run({ action: 'diagnostics.get', params: FILE, ...(requestId === undefined ? {} : { requestId }) });
      assert.match(env['requestId'], /^editor-[0-9a-f-]{36}$/);
      const statuses = wire.events('action.status').filter((e) => e['requestId'] === env['requestId']);
      assert.deepEqual(statuses.map((e) => e['status']), ['started', 'succeeded']);
    }
    await dispose();
  });

  it('accepts protocol "lsp-actions/v1"; any other protocol fails LSP_PROTOCOL_VERSION_UNSUPPORTED before running', async () => {
    const { run, runner, dispose } = startFake();
    assert.equal((await run({ action: 'diagnostics.get', params: FILE, protocol: 'lsp-actions/v1' }))['status'], 'succeeded');
    const env = await run({ action: 'diagnostics.get', params: FILE, protocol: 'lsp-actions/v2', requestId: 'p' });
    assert.equal(env['error'].code, 'LSP_PROTOCOL_VERSION_UNSUPPORTED');
    assert.equal(env['requestId'], 'p');
    assert.equal(runner.requests.length, 1);
    await dispose();
  });

  it('unknown action → LSP_ACTION_UNKNOWN; missing action or non-object params → LSP_ACTION_INVALID_ARGS with action ""', async () => {
    const { run, request, dispose } = startFake();
    assert.equal((await run({ action: 'nope' }))['error'].code, 'LSP_ACTION_UNKNOWN');
    const missing = await run({ params: FILE });
    assert.equal(missing['error'].code, 'LSP_ACTION_INVALID_ARGS');
    assert.equal(missing['action'], '');
    const scalar = (await request('lsp.actions.run', 42))['result'];
    assert.equal(scalar['error'].code, 'LSP_ACTION_INVALID_ARGS');
    await dispose();
  });

  it('a requestId already in flight is refused (LSP_ACTION_INVALID_ARGS) without touching the first run', async () => {
    const gate = deferred<unknown>();
    const { run, dispose } = startFake({ actions: withRun('diagnostics.get', () => gate.promise) });
    const first = run({ action: 'diagnostics.get', params: FILE, requestId: 'dup' });
    await new Promise((r) => setTimeout(r, 20));
    const second = await run({ action: 'diagnostics.get', params: FILE, requestId: 'dup' });
    assert.equal(second['error'].code, 'LSP_ACTION_INVALID_ARGS');
    gate.resolve({ kind: 'diagnostics', filePath: 'a.ts', diagnostics: [], truncated: false, total: 0 });
    assert.equal((await first)['status'], 'succeeded');
    await dispose();
  });
});

describe('JSON-RPC level', () => {
  it('unknown methods answer -32601 and the server keeps serving', async () => {
    const { request, dispose } = startFake();
    assert.deepEqual((await request('lsp.unknown', {}))['error'], { code: -32601, message: 'method not found: lsp.unknown' });
    assert.equal((await request('lsp.actions.list', {}))['result'].protocol, 'lsp-actions/v1');
    await dispose();
  });

  it('handler failures answer -32603 with the message', async () => {
    const fake = startFake();
    fake.runner.registry.list = () => {
      throw new Error('catalog exploded');
    };
    assert.deepEqual((await fake.request('lsp.actions.list', {}))['error'], { code: -32603, message: 'catalog exploded' });
    await fake.dispose();
  });

  it('notifications are never answered (known or unknown, even a run sent as a notification)', async () => {
    const { wire, request, dispose } = startFake();
    wire.send({ jsonrpc: '2.0', method: 'lsp.events', params: { subscribe: false } });
    wire.send({ jsonrpc: '2.0', method: 'lsp.whatever', params: {} });
    wire.send({ jsonrpc: '2.0', method: 'lsp.actions.run', params: { action: 'diagnostics.get', params: FILE } });
    await request('lsp.actions.list', {});
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(wire.frames.filter((f) => 'id' in f).length, 1);
    await dispose();
  });

  it('requests are served concurrently: a slow run does not block a fast one', async () => {
    const gate = deferred<unknown>();
    const { run, dispose } = startFake({ actions: withRun('format', () => gate.promise) });
    const slow = run({ action: 'format', params: FILE, requestId: 'slow' });
    const fast = await run({ action: 'diagnostics.get', params: FILE, requestId: 'fast' });
    assert.equal(fast['status'], 'succeeded');
    gate.resolve({ kind: 'unchanged', filePath: 'a.ts' });
    assert.equal((await slow)['status'], 'succeeded');
    await dispose();
  });
});

describe('cancellation and timeout', () => {
  it('lsp.actions.cancel {requestId} aborts the run; its envelope fails with v1 code LSP_ACTION_UNAVAILABLE and reason LSP_ACTION_CANCELLED', async () => {
    let seen: AbortSignal | undefined;
    const { run, request, dispose } = startFake({
      actions: withRun('format', (req) => {
        seen = req.signal;
        return new Promise(() => {}); // ignores its signal on purpose
      }),
    });
    const pending = run({ action: 'format', params: FILE, requestId: 'c1' });
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual((await request('lsp.actions.cancel', { requestId: 'c1' }))['result'], { requestId: 'c1', cancelled: true });
    const env = await pending;
    assert.equal(env['error'].code, 'LSP_ACTION_UNAVAILABLE');
    assert.equal(env['error'].reason, 'LSP_ACTION_CANCELLED');
    assert.equal(seen?.aborted, true);
    assert.deepEqual((await request('lsp.actions.cancel', { requestId: 'c1' }))['result'], { requestId: 'c1', cancelled: false });
    assert.equal((await request('lsp.actions.cancel', {}))['error'].code, -32602);
    await dispose();
  });

  it('a run past editor.requestTimeoutMs fails with the v1 timeout code LSP_ACTION_UNAVAILABLE, reason LSP_ACTION_TIMEOUT, and its signal is aborted', async () => {
    let seen: AbortSignal | undefined;
    const { run, dispose } = startFake({
      config: { requestTimeoutMs: 40 },
      actions: withRun('diagnostics.get', (req) => {
        seen = req.signal;
        return new Promise(() => {});
      }),
    });
    const started = Date.now();
    const env = await run({ action: 'diagnostics.get', params: FILE, requestId: 't' });
    assert.equal(env['error'].code, 'LSP_ACTION_UNAVAILABLE');
    assert.equal(env['error'].reason, 'LSP_ACTION_TIMEOUT');
    assert.match(env['error'].message, /editor\.requestTimeoutMs \(40 ms\)/);
    assert.ok(Date.now() - started >= 35);
    assert.equal(seen?.aborted, true);
    await dispose();
  });
});
