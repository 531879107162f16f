/**
 * Lifecycle and bounds of a real `dsh-lsp-actions serve` (real typescript-language-server):
 * every request accepted before EOF is answered and flushed into a pipe, even one without its
 * trailing newline and even when the reader is slow; the process exits when stdout's reader
 * goes away, leaving no language server behind; signals exit 128 + the signal number; a client
 * that never reads does not grow the backend without bound; 10⁵ lines of fuzz do not stop it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { descendants, rssKiB, running, ServeProcess, until } from './serve-process.ts';

const T = { timeout: 300_000 };
let ws: string;

before(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'serve-lifecycle-')));
  await writeFile(join(ws, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true}}');
  await writeFile(join(ws, 'a.ts'), 'export const a: number = "x";\n');
});
after(async () => {
  await rm(ws, { recursive: true, force: true });
});

/** Starts tsls behind the backend and returns the pids of its process tree. */
async function warmServer(serve: ServeProcess, id: string): Promise<number[]> {
  const envelope = await serve.run(id, 'diagnostics.get', { workspaceRoot: ws, filePath: 'a.ts' });
  assert.equal(envelope['status'], 'succeeded', JSON.stringify(envelope));
  const tree = descendants(serve.pid);
  assert.ok(tree.length > 0, 'a language server runs under serve');
  return tree;
}

describe('serve lifecycle', () => {
  it('answers all 1,000 requests sent before EOF into a slow pipe, the last one without a newline', T, async () => {
    const serve = new ServeProcess(['--workspace', ws, '--sandbox', 'read-only']);
    serve.child.stdout.pause();
    const lines: string[] = [];
    for (let i = 1; i < 1000; i++) {
      const run = { action: i % 2 === 0 ? 'hover.get' : 'diagnostics.get', params: { workspaceRoot: ws, filePath: 'a.ts', position: { line: 0, character: 14 } } };
      lines.push(JSON.stringify(i % 10 === 0 ? { jsonrpc: '2.0', id: i, method: 'lsp.actions.list', params: {} } : { jsonrpc: '2.0', id: i, method: 'lsp.actions.run', params: run }));
    }
    serve.child.stdin.end(`${lines.join('\n')}\n${JSON.stringify({ jsonrpc: '2.0', id: 1000, method: 'lsp.actions.list', params: {} })}`);
    await sleep(3000); // a reader that starts late: the backend must keep everything until it can write
    serve.child.stdout.resume();
    const exit = await serve.exited;
    assert.equal(exit.code, 0, serve.stderr.slice(-2000));
    const frames = serve.frames();
    const ids = new Set(frames.map((f) => f['id']));
    assert.equal(frames.length, 1000);
    for (let i = 1; i <= 1000; i++) assert.ok(ids.has(i), `answer ${i}`);
    const statuses = frames.filter((f) => f['result']?.status !== undefined).map((f) => f['result'].status as string);
    assert.ok(statuses.every((s) => s === 'succeeded'), 'accepted requests are served, not cancelled by the end of input');
  });

  it('with the output probe on, exits when stdout is closed while stdin stays open, leaving no language server', T, async () => {
    const serve = new ServeProcess(['--workspace', ws, '--sandbox', 'read-only'], { env: { DSH_LSP_ACTIONS_OUTPUT_PROBE_MS: '1000' } });
    const tree = await warmServer(serve, 'warm');
    serve.child.stdout.destroy();
    const exit = await serve.exited;
    assert.equal(exit.code, 0, serve.stderr.slice(-2000));
    assert.match(serve.stderr, /output closed/);
    await until('every language server is gone', () => tree.every((pid) => !running(pid)), 30_000);
    assert.equal(serve.child.stdin.writableEnded, false, 'stdin was never closed');
  });

  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    it(`exits ${code} on ${signal}, leaving no language server`, T, async () => {
      const serve = new ServeProcess(['--workspace', ws, '--sandbox', 'read-only']);
      const tree = await warmServer(serve, 'warm');
      serve.child.kill(signal);
      const exit = await serve.exited;
      assert.equal(exit.code, code, serve.stderr.slice(-2000));
      await until('every language server is gone', () => tree.every((pid) => !running(pid)), 30_000);
    });
  }

  it('stays bounded for a client that never reads: 10⁵ requests, RSS flat, then every answer arrives', T, async () => {
    const serve = new ServeProcess(['--workspace', ws, '--sandbox', 'read-only'], { readStdout: false });
    // boot and settle
    serve.child.stdin.write('{"jsonrpc":"2.0","id":"boot","method":"lsp.actions.cancel","params":{"requestId":"none"}}\n');
    await until('booted', () => /serving|input/.test(serve.stderr) || rssKiB(serve.pid) > 50_000, 60_000);
    await sleep(2000);
    const baseline = rssKiB(serve.pid);
    const total = 100_000;
    const chunk: string[] = [];
    for (let i = 0; i < total; i++) chunk.push(`{"jsonrpc":"2.0","id":${i},"method":"lsp.actions.cancel","params":{"requestId":"r${i}"}}`);
    serve.child.stdin.write(`${chunk.join('\n')}\n`);
    let peak = baseline;
    for (let i = 0; i < 40; i++) {
      await sleep(100);
      peak = Math.max(peak, rssKiB(serve.pid));
    }
    // now read everything
    let text = '';
    let answers = 0;
    serve.child.stdout.on('data', (data: Buffer) => {
      text += data.toString('utf8');
      const parts = text.split('\n');
      text = parts.pop() ?? '';
      answers += parts.filter((line) => line.includes('"cancelled":false')).length;
    });
    await until('every answer arrived', () => answers >= total + 1, 240_000);
    serve.child.stdin.end();
    const exit = await serve.exited;
    assert.equal(exit.code, 0);
    assert.equal(answers, total + 1, 'the boot request and every one of the 10⁵');
    const growthMiB = (peak - baseline) / 1024;
    console.log(`# unread stdout: baseline ${Math.round(baseline / 1024)} MiB, peak ${Math.round(peak / 1024)} MiB, growth ${growthMiB.toFixed(1)} MiB over ${total} requests`);
    assert.ok(growthMiB < 64, `RSS grew ${growthMiB.toFixed(1)} MiB while the client did not read (bounded queue + input backpressure)`);
  });

  it('keeps serving through 10⁵ lines of fuzz and answers the request after it', T, async () => {
    const serve = new ServeProcess(['--workspace', ws, '--sandbox', 'read-only']);
    let seed = 11;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const shapes: Array<() => string> = [
      () => 'x'.repeat(Math.floor(random() * 50)),
      () => JSON.stringify({ jsonrpc: '2.0', id: Math.floor(random() * 1e6), method: pick(['lsp.actions.run', 'lsp.actions.list', 'nope', 'lsp.actions.cancel']), params: pick([null, 1, 'x', [], {}, { action: 'hover.get' }, { action: 'diagnostics.get', params: { workspaceRoot: pick(['/', ws, 'rel', '']), filePath: pick(['a.ts', '../x', '', 'z'.repeat(5000)]) } }]) }),
      () => `[${'['.repeat(Math.floor(random() * 600))}`,
      () => `{"jsonrpc":"2.0","id":${'9'.repeat(Math.floor(random() * 30) + 1)},"method":"lsp.actions.list"}`,
      () => Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x7d]).toString('latin1'),
      () => JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'lsp.actions.list' }, 5]),
      () => JSON.stringify({ jsonrpc: '2.0', method: 'lsp.events', params: { subscribe: pick([true, false, 'x']) } }),
      () => JSON.stringify({ jsonrpc: '2.0', id: null, method: 'lsp.actions.run', params: { protocol: { deep: [[[[]]]] } } }),
    ];
    const fuzz: string[] = [];
    for (let i = 0; i < 100_000; i++) fuzz.push(pick(shapes)());
    serve.child.stdin.write(`${fuzz.join('\n')}\n`);
    serve.send({ jsonrpc: '2.0', id: 'after-fuzz', method: 'lsp.actions.run', params: { action: 'diagnostics.get', params: { workspaceRoot: ws, filePath: 'a.ts' } } });
    const answer = await serve.response('after-fuzz', 280_000);
    assert.equal(answer['result'].status, 'succeeded', JSON.stringify(answer));
    assert.equal(serve.child.exitCode, null, 'still running');
    serve.child.stdin.end();
    const exit = await serve.exited;
    assert.equal(exit.code, 0, serve.stderr.slice(-2000));
  });
});
