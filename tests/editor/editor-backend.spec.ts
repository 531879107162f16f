/**
 * The backend's lifecycle: Loader readiness, stdio claim, EOF, backpressure end to end, and a
 * disposer that releases streams, listeners, timers and cache and aborts runs in flight.
 */
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { Context } from '@deepseek-ai/cordis';
import { startEditorBackend } from '../../src/editor/start-editor-backend.ts';
import { deferred, editorConfig, fakeEngine, fakeRunner, startFake, v1Actions } from './editor-harness.ts';

const FILE = { filePath: 'a.ts', workspaceRoot: '/ws' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('editor backend lifecycle', () => {
  it('answers nothing before ctx.loader.await() settles (entries mount concurrently)', async () => {
    const gate = deferred();
    const { wire, dispose } = startFake({ services: { loader: { await: () => gate.promise } } });
    wire.send({ jsonrpc: '2.0', method: 'lsp.events', params: { subscribe: true } });
    wire.send({ jsonrpc: '2.0', id: 'l', method: 'lsp.actions.list', params: {} });
    wire.send({ jsonrpc: '2.0', id: 'u', method: 'nope', params: {} });
    await sleep(30);
    assert.equal(wire.lines.length, 0);
    gate.resolve();
    assert.equal((await wire.response('l'))['result'].protocol, 'lsp-actions/v1');
    assert.equal((await wire.response('u'))['error'].code, -32601);
    await dispose();
  });

  it('a Loader that reports a startup failure is logged and the backend serves anyway', async () => {
    const { request, logs, dispose } = startFake({ services: { loader: { await: () => Promise.reject(new Error('entry x failed')) } } });
    assert.equal((await request('lsp.actions.list', {}))['result'].version, 1);
    assert.ok(logs.some((l) => l.includes('entry x failed')));
    await dispose();
  });

  it('input EOF calls onClose once and does not dispose anything by itself', async () => {
    let closed = 0;
    const { wire, engine, dispose } = startFake({ onClose: () => closed++ });
    wire.input.end();
    await sleep(20);
    assert.equal(closed, 1);
    assert.equal(engine.listeners.size, 1, 'still listening: the host decides');
    await dispose();
  });

  it('the disposer releases streams, listeners, timers and cache, and aborts runs in flight (their envelopes still go out)', async () => {
    let seen: AbortSignal | undefined;
    const actions = v1Actions().map((a) =>
      a.action === 'format'
        ? { ...a, run: (req: { signal: AbortSignal }) => ((seen = req.signal), new Promise<never>(() => {})) }
        : a,
    );
    const { wire, engine, ctx, dispose } = startFake({ actions, config: { diagnosticsDebounceMs: 50 } });
    assert.ok(ctx.listenerCount() >= 3);
    wire.send({ jsonrpc: '2.0', method: 'lsp.events', params: { subscribe: true } });
    wire.send({ jsonrpc: '2.0', id: 'f', method: 'lsp.actions.run', params: { action: 'format', params: FILE, requestId: 'inflight' } });
    await wire.waitFor((f) => f['params']?.status === 'started');
    engine.push({ root: '/ws', path: '/ws/a.ts', serverId: 'ts', diagnostics: { path: '/ws/a.ts', version: 1, state: 'fresh', diagnostics: [], servers: [] } });
    await dispose();
    const env = (await wire.response('f'))['result'];
    assert.equal(env['error'].code, 'LSP_ACTION_UNAVAILABLE');
    assert.equal(env['error'].reason, 'LSP_ACTION_CANCELLED');
    assert.equal(seen?.aborted, true);
    assert.equal(ctx.listenerCount(), 0);
    assert.equal(engine.listeners.size, 0);
    assert.equal(wire.input.listenerCount('data'), 0);
    assert.equal(wire.output.listenerCount('drain'), 0);
    const count = wire.lines.length;
    await sleep(80); // the debounced push was dropped with its timer
    wire.input.write('{"jsonrpc":"2.0","id":"late","method":"lsp.actions.list"}\n');
    await sleep(20);
    assert.equal(wire.lines.length, count);
    await dispose(); // idempotent
  });

  it('claims process.stdin/stdout only when no streams are given, and gives them back', async () => {
    const before = { data: process.stdin.listenerCount('data'), drain: process.stdout.listenerCount('drain') };
    const dispose = startEditorBackend(new Context(), {
      runner: fakeRunner(v1Actions()) as never,
      engine: fakeEngine(),
      config: editorConfig(),
      log: () => {},
    });
    assert.equal(process.stdin.listenerCount('data'), before.data + 1);
    assert.equal(process.stdout.listenerCount('drain'), before.drain + 1);
    await dispose();
    assert.equal(process.stdin.listenerCount('data'), before.data);
    assert.equal(process.stdout.listenerCount('drain'), before.drain);
  });

  it('works on a real cordis Context inside ctx.effect: events reach it, and the effect disposer unhooks them', async () => {
    const ctx = new Context();
    const wire = { input: new PassThrough(), output: new PassThrough() };
    const agents = { list: () => [] };
    ctx.provide('agents', agents as never);
    // as the plugin mounts it: inside ctx.effect, the returned function being the effect's disposer
    const dispose = ctx.effect(() =>
      startEditorBackend(ctx, {
        runner: fakeRunner(v1Actions()) as never,
        engine: fakeEngine(),
        config: editorConfig(),
        input: wire.input,
        output: wire.output,
        log: () => {},
      }),
    );
    wire.input.write('{"jsonrpc":"2.0","method":"lsp.events","params":{"subscribe":true}}\n');
    await sleep(10);
    const bus = ctx as unknown as { emit(name: string, ...args: unknown[]): void };
    bus.emit('agent/created', { agent: {} });
    await sleep(10);
    assert.match(String(wire.output.read()), /"kind":"sessions.changed","sessions":\[\]/);
    await dispose();
    bus.emit('agent/created', { agent: {} });
    await sleep(10);
    assert.equal(wire.output.read(), null);
  });

  it('respects backpressure end to end: a slow client still receives every frame, in order', async () => {
    const received: string[] = [];
    const slow = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _enc, callback) {
        received.push(chunk.toString());
        setTimeout(callback, 2);
      },
    });
    const input = new PassThrough();
    const dispose = startEditorBackend(new Context(), {
      runner: fakeRunner(v1Actions()) as never,
      engine: fakeEngine(),
      config: editorConfig(),
      input,
      output: slow,
      log: () => {},
    });
    input.write('{"jsonrpc":"2.0","method":"lsp.events","params":{"subscribe":true}}\n');
    for (let i = 0; i < 20; i++) {
      input.write(`{"jsonrpc":"2.0","id":${i},"method":"lsp.actions.run","params":{"action":"diagnostics.get","params":{"filePath":"a.ts","workspaceRoot":"/ws"},"requestId":"r${i}"}}\n`);
    }
    const deadline = Date.now() + 3_000;
    while (received.filter((l) => l.includes('"result"')).length < 20 && Date.now() < deadline) await sleep(10);
    const frames = received.map((l) => JSON.parse(l));
    assert.equal(frames.filter((f) => 'result' in f).length, 20);
    for (let i = 0; i < 20; i++) {
      const order = frames.map((f, n) => [f, n] as const).filter(([f]) => f.params?.requestId === `r${i}` || f.id === i).map(([f]) => f.params?.kind ?? 'response');
      assert.deepEqual(order, ['action.status', 'diagnostics.updated', 'action.status', 'response']);
    }
    await dispose();
  });
});
