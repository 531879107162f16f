/**
 * `lsp.events` / `lsp.event`: subscription, and each event kind with its payload layout
 * (flat `{kind, ...}`), plus session binding and fail-closed escalation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DiagnosticsEvent } from '../../src/lsp/engine-types.ts';
import { startFake, v1Actions, type FakeAction } from './editor-harness.ts';

const FILE = { filePath: 'a.ts', workspaceRoot: '/ws' };
const subscribe = (wire: { send(m: object): void }, on: unknown = true) =>
  wire.send({ jsonrpc: '2.0', method: 'lsp.events', params: on === undefined ? {} : { subscribe: on } });

function quickfixWritingTwoFiles(): FakeAction[] {
  return v1Actions().map((a) =>
    a.action === 'quickfix.apply'
      ? {
          ...a,
          run: async () => ({
            kind: 'quickfixApplied',
            filePath: 'a.ts',
            title: 'Add import',
            filesChanged: 2,
            appliedEdits: 2,
            diffs: [
              { filePath: 'a.ts', before: 'x', after: 'y' },
              { filePath: 'lib/b.ts', before: 'x', after: 'y' },
            ],
          }),
        }
      : a,
  );
}

function pushEvent(path: string, version: number, message: string, state: 'fresh' | 'pending' | 'stale' = 'fresh'): DiagnosticsEvent {
  const range = { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } };
  return {
    root: '/ws',
    path,
    serverId: 'ts',
    diagnostics: {
      path,
      version,
      state,
      diagnostics: message === '' ? [] : [{ serverId: 'ts', range, severity: 'error', message, source: 'ts', code: 1 }],
      servers: [],
    },
  };
}

describe('subscription', () => {
  it('no events before subscribing; subscribe:true (or absent) turns them on, subscribe:false off', async () => {
    const { run, wire, dispose } = startFake();
    await run({ action: 'format', params: FILE });
    assert.equal(wire.events().length, 0);
    subscribe(wire, undefined);
    await run({ action: 'format', params: FILE });
    assert.ok(wire.events().length > 0);
    const before = wire.events().length;
    subscribe(wire, false);
    await run({ action: 'format', params: FILE });
    assert.equal(wire.events().length, before);
    await dispose();
  });
});

describe('event kinds', () => {
  it('action.status: started → succeeded, started → failed with {code, message}; a refusal is one failed', async () => {
    const { run, wire, dispose } = startFake({
      actions: v1Actions().map((a) => (a.action === 'format' ? { ...a, run: () => Promise.reject(new Error('x')) } : a)),
    });
    subscribe(wire);
    await run({ action: 'diagnostics.get', params: FILE, requestId: 'ok' });
    await run({ action: 'format', params: FILE, requestId: 'bad' });
    await run({ action: 'nope', requestId: 'refused' });
    const by = (id: string) => wire.events('action.status').filter((e) => e['requestId'] === id);
    assert.deepEqual(by('ok'), [
      { kind: 'action.status', requestId: 'ok', action: 'diagnostics.get', status: 'started' },
      { kind: 'action.status', requestId: 'ok', action: 'diagnostics.get', status: 'succeeded' },
    ]);
    assert.deepEqual(by('bad').map((e) => [e['status'], e['error']?.code]), [['started', undefined], ['failed', 'LSP_ACTION_SERVER_FAILED']]);
    assert.deepEqual(by('refused').map((e) => e['status']), ['failed']);
    await dispose();
  });

  it('diagnostics.updated after each diagnostics.get, in the client\'s path style, with the first source name', async () => {
    const { run, wire, dispose } = startFake();
    subscribe(wire);
    await run({ action: 'diagnostics.get', params: FILE, requestId: 'd' });
    assert.deepEqual(wire.events('diagnostics.updated'), [
      { kind: 'diagnostics.updated', filePath: 'a.ts', diagnostics: [], truncated: false, total: 0, workspaceRoot: '/ws', origin: 'run', requestId: 'd' },
    ]);
    await dispose();
  });

  it('file.changed for every file a write changed (diffs), none for unchanged', async () => {
    const { run, wire, dispose } = startFake({ actions: quickfixWritingTwoFiles() });
    subscribe(wire);
    await run({ action: 'quickfix.apply', params: { ...FILE, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }, requestId: 'q' });
    assert.deepEqual(wire.events('file.changed'), [
      { kind: 'file.changed', filePath: 'a.ts', workspaceRoot: '/ws', requestId: 'q' },
      { kind: 'file.changed', filePath: 'lib/b.ts', workspaceRoot: '/ws', requestId: 'q' },
    ]);
    await dispose();
  });

  it('sessions.changed on agent/created and agent/disposed (the disposed agent left out)', async () => {
    const live: Array<Record<string, unknown>> = [];
    const { ctx, wire, dispose } = startFake({ services: { agents: { list: () => [...live] } } });
    subscribe(wire);
    await new Promise((r) => setTimeout(r, 20));
    const agent = { id: 's9', status: 'idle', session: { header: { cwd: '/ws' } } };
    live.push(agent);
    ctx.emit('agent/created', { agent });
    ctx.emit('agent/disposed', { agent });
    await wire.waitFor(() => wire.events('sessions.changed').length === 2);
    assert.deepEqual(wire.events('sessions.changed'), [
      { kind: 'sessions.changed', sessions: [{ sessionId: 's9', cwd: '/ws', live: true }] },
      { kind: 'sessions.changed', sessions: [] },
    ]);
    await dispose();
  });

  it('unsolicited diagnostics.updated when a server publishes, coalesced within diagnosticsDebounceMs', async () => {
    const { engine, run, wire, dispose } = startFake({ config: { diagnosticsDebounceMs: 30 } });
    subscribe(wire);
    await run({ action: 'format', params: { filePath: 'src/x.ts', workspaceRoot: '/ws' } }); // teaches the client's relative style
    engine.push(pushEvent('/ws/src/a.ts', 1, 'first'));
    engine.push(pushEvent('/ws/src/a.ts', 2, 'second'));
    engine.push(pushEvent('/ws/src/b.ts', 1, 'other'));
    await wire.waitFor(() => wire.events('diagnostics.updated').length === 2);
    await new Promise((r) => setTimeout(r, 60));
    const updates = wire.events('diagnostics.updated');
    assert.equal(updates.length, 2);
    assert.deepEqual(updates[0], {
      kind: 'diagnostics.updated',
      filePath: 'src/a.ts',
      diagnostics: [{ severity: 1, range: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } }, message: 'second', source: 'ts', code: 1, serverId: 'ts' }],
      truncated: false,
      total: 1,
      source: 'ts',
      workspaceRoot: '/ws',
      state: 'fresh',
      version: 2,
      origin: 'push',
    });
    assert.equal(updates[1]?.['filePath'], 'src/b.ts');
    await dispose();
  });

  it('non-fresh pushes (an interim empty list, a stale result) are not sent to a v1 client; the fresh one that follows is', async () => {
    const { engine, wire, dispose } = startFake({ config: { diagnosticsDebounceMs: 5 } });
    subscribe(wire);
    engine.push(pushEvent('/ws/a.ts', 1, '', 'pending'));
    engine.push(pushEvent('/ws/b.ts', 1, 'old', 'stale'));
    await new Promise((r) => setTimeout(r, 40));
    assert.deepEqual(wire.events('diagnostics.updated'), [], 'nothing non-fresh by default');
    engine.push(pushEvent('/ws/a.ts', 1, 'semantic'));
    await wire.waitFor(() => wire.events('diagnostics.updated').length === 1);
    assert.deepEqual(
      wire.events('diagnostics.updated').map((e) => [e['filePath'], e['state'], e['total']]),
      [['a.ts', 'fresh', 1]],
    );
    await dispose();
  });

  it('includeNonFresh: true opts in to non-fresh pushes (with their state); a later lsp.events without it opts out', async () => {
    const { engine, wire, dispose } = startFake({ config: { diagnosticsDebounceMs: 5 } });
    wire.send({ jsonrpc: '2.0', method: 'lsp.events', params: { subscribe: true, includeNonFresh: true } });
    engine.push(pushEvent('/ws/a.ts', 1, '', 'pending'));
    await wire.waitFor(() => wire.events('diagnostics.updated').length === 1);
    assert.deepEqual(
      wire.events('diagnostics.updated').map((e) => [e['filePath'], e['state'], e['total']]),
      [['a.ts', 'pending', 0]],
    );
    wire.send({ jsonrpc: '2.0', method: 'lsp.events', params: { subscribe: true, includeNonFresh: 'yes' } });
    engine.push(pushEvent('/ws/a.ts', 2, '', 'pending'));
    engine.push(pushEvent('/ws/c.ts', 2, 'e'));
    await wire.waitFor(() => wire.events('diagnostics.updated').length === 2);
    await new Promise((r) => setTimeout(r, 40));
    assert.deepEqual(
      wire.events('diagnostics.updated').map((e) => [e['filePath'], e['state']]),
      [['a.ts', 'pending'], ['c.ts', 'fresh']],
      'only a literal true opts in',
    );
    await dispose();
  });
});

const agent = (status: string, cwd?: string) => ({ id: 's1', status, session: { header: cwd ? { cwd } : {} } });

describe('sessions and permissions', () => {
  it('a run with sessionId binds session, agent and containingRoot = cwd', async () => {
    const a = agent('idle', '/ws');
    const { run, runner, dispose } = startFake({ services: { agents: { list: () => [a] } } });
    assert.equal((await run({ action: 'format', params: FILE, sessionId: 's1' }))['status'], 'succeeded');
    const req = runner.requests[0];
    assert.equal(req?.agent, a);
    assert.equal(req?.session, a.session);
    assert.equal(req?.containingRoot, '/ws');
    await dispose();
  });

  it('an unknown or malformed sessionId fails closed (LSP_ACTION_INVALID_ARGS); a session without cwd → LSP_ACTION_WORKSPACE_REQUIRED', async () => {
    const { run, runner, dispose } = startFake({ services: { agents: { list: () => [agent('idle')] } } });
    assert.equal((await run({ action: 'format', params: FILE, sessionId: 'ghost' }))['error'].code, 'LSP_ACTION_INVALID_ARGS');
    assert.equal((await run({ action: 'format', params: FILE, sessionId: 5 }))['error'].code, 'LSP_ACTION_INVALID_ARGS');
    assert.equal((await run({ action: 'format', params: FILE, sessionId: 's1' }))['error'].code, 'LSP_ACTION_WORKSPACE_REQUIRED');
    assert.equal(runner.requests.length, 0);
    await dispose();
  });

  it('a sessionId inside params (instead of next to action) fails LSP_ACTION_INVALID_ARGS naming the field, before anything runs', async () => {
    const { run, runner, wire, dispose } = startFake({ services: { agents: { list: () => [agent('idle', '/ws')] } } });
    subscribe(wire);
    for (const request of [
      { action: 'format', params: { ...FILE, sessionId: 's1' } },
      { action: 'diagnostics.get', params: { ...FILE, sessionId: 's1' } },
      { action: 'format', params: { ...FILE, sessionId: 's1' }, sessionId: 's1' },
      { action: 'format', params: { ...FILE, sessionId: null } },
    ]) {
      const envelope = await run(request);
      assert.equal(envelope['status'], 'failed', JSON.stringify(request));
      assert.equal(envelope['error'].code, 'LSP_ACTION_INVALID_ARGS');
      assert.match(envelope['error'].message, /^params\.sessionId is not an action parameter: send sessionId next to action/);
    }
    assert.equal(runner.requests.length, 0);
    // refused before it started: one failed status per run, no started
    assert.deepEqual(wire.events().map((e) => `${e['kind']}:${e['status']}`), Array(4).fill('action.status:failed'));
    // the same session, where it belongs, binds the run
    assert.equal((await run({ action: 'format', params: FILE, sessionId: 's1' }))['status'], 'succeeded');
    assert.equal(runner.requests[0]?.containingRoot, '/ws');
    await dispose();
  });

  it('escalation without a bound session, or with an idle agent, fails LSP_ACTION_APPROVAL_UNAVAILABLE before anything runs', async () => {
    const esc = { ...FILE, sandbox_permissions: 'workspace-write', justification: 'format the file' };
    const { run, runner, dispose } = startFake({ services: { agents: { list: () => [agent('idle', '/ws')] } } });
    assert.equal((await run({ action: 'format', params: esc }))['error'].code, 'LSP_ACTION_APPROVAL_UNAVAILABLE');
    assert.equal((await run({ action: 'format', params: esc, sessionId: 's1' }))['error'].code, 'LSP_ACTION_APPROVAL_UNAVAILABLE');
    assert.equal((await run({ action: 'format', params: { ...FILE, sandbox_permissions: 'workspace-write' } }))['error'].code, 'LSP_ACTION_INVALID_ARGS');
    assert.equal((await run({ action: 'format', params: { ...esc, sandbox_permissions: 'read-only' } }))['error'].code, 'LSP_ACTION_INVALID_ARGS');
    assert.equal(runner.requests.length, 0);
    await dispose();
  });

  it('escalation with the bound session\'s agent in an open turn is passed to the runner; reads ignore it', async () => {
    const { run, runner, dispose } = startFake({ services: { agents: { list: () => [agent('running', '/ws')] } } });
    const esc = { ...FILE, sandbox_permissions: 'danger-full-access', justification: 'needs it' };
    assert.equal((await run({ action: 'format', params: esc, sessionId: 's1' }))['status'], 'succeeded');
    assert.deepEqual(runner.requests[0]?.escalation, { requestedMode: 'danger-full-access', justification: 'needs it' });
    assert.equal((await run({ action: 'diagnostics.get', params: esc }))['status'], 'succeeded');
    assert.equal(runner.requests[1]?.escalation, undefined);
    await dispose();
  });
});
