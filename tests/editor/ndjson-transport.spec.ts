/**
 * Transport statements of the spec: one UTF-8 JSON object per `\n`-terminated line; malformed
 * lines ignored (the server keeps serving); bounds; backpressure.
 */
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import type { JsonRpcInbound } from '../../src/editor/json-rpc.ts';
import { parseJsonRpcLine, peekRequestId } from '../../src/editor/json-rpc.ts';
import { NdjsonTransport } from '../../src/editor/ndjson-transport.ts';

function transport(maxLineBytes = 64) {
  const input = new PassThrough();
  const output = new PassThrough();
  const messages: JsonRpcInbound[] = [];
  const ignored: string[] = [];
  let closed = 0;
  const t = new NdjsonTransport({
    input,
    output,
    maxLineBytes,
    onMessage: (m) => messages.push(m),
    onIgnored: (r) => ignored.push(r),
    onClose: () => closed++,
  });
  t.start();
  const out = (): string => String(output.read() ?? '');
  return { t, input, output, messages, ignored, out, closed: () => closed };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('ndjson transport: input framing', () => {
  it('splits on \\n, tolerates \\r\\n, skips blank lines', async () => {
    const { input, messages } = transport();
    input.write('{"jsonrpc":"2.0","method":"a"}\r\n\n   \r\n{"jsonrpc":"2.0","id":1,"method":"b"}\n');
    await tick();
    assert.deepEqual(messages, [
      { kind: 'notification', method: 'a', params: undefined },
      { kind: 'request', id: 1, method: 'b', params: undefined },
    ]);
  });

  it('reassembles a multi-byte UTF-8 character split across chunks', async () => {
    const { input, messages } = transport(1024);
    const bytes = Buffer.from('{"jsonrpc":"2.0","method":"m","params":{"s":"héllo 🌍 世界"}}\n', 'utf8');
    const cut = bytes.indexOf(Buffer.from('🌍', 'utf8')) + 2; // inside the 4-byte emoji
    input.write(bytes.subarray(0, cut));
    input.write(bytes.subarray(cut, cut + 1));
    input.write(bytes.subarray(cut + 1));
    await tick();
    assert.deepEqual(messages, [{ kind: 'notification', method: 'm', params: { s: 'héllo 🌍 世界' } }]);
  });

  it('ignores malformed lines (not JSON, not an object, wrong jsonrpc, no method, bad id) and keeps going', async () => {
    const { input, messages, ignored } = transport(1024);
    input.write('not json\n[1,2]\nnull\n42\n{"jsonrpc":"1.0","id":1,"method":"x"}\n{"id":2,"method":"x"}\n');
    input.write('{"jsonrpc":"2.0","id":3,"result":{}}\n{"jsonrpc":"2.0","id":{},"method":"x"}\n');
    input.write('{"jsonrpc":"2.0","id":"ok","method":"still-serving"}\n');
    await tick();
    assert.deepEqual(messages, [{ kind: 'request', id: 'ok', method: 'still-serving', params: undefined }]);
    assert.equal(ignored.length, 8);
  });

  it('refuses a line longer than maxLineBytes without dropping the connection; answers -32600 when the id is readable', async () => {
    const { input, messages, ignored, out } = transport(64);
    const big = `{"jsonrpc":"2.0","id":"big","method":"lsp.actions.run","params":{"pad":"${'x'.repeat(200)}"}}`;
    // delivered in pieces, so the bound trips before the newline arrives
    input.write(big.slice(0, 50));
    input.write(big.slice(50, 150));
    input.write(`${big.slice(150)}\n`);
    input.write(`{"pad":"${'y'.repeat(100)}"}\n`); // oversize, no id: ignored silently
    input.write('{"jsonrpc":"2.0","id":7,"method":"after"}\n');
    await tick();
    assert.deepEqual(messages, [{ kind: 'request', id: 7, method: 'after', params: undefined }]);
    assert.equal(ignored.filter((r) => r.includes('longer than 64 bytes')).length, 2);
    const frames = out().trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(frames, [
      { jsonrpc: '2.0', id: 'big', error: { code: -32600, message: 'request line exceeds the 64-byte limit (editor.maxLineBytes)' } },
    ]);
  });

  it('accepts a line of exactly maxLineBytes, with or without \\r', async () => {
    const line = '{"jsonrpc":"2.0","method":"m","params":"' ;
    const exact = `${line}${'z'.repeat(64 - line.length - 2)}"}`;
    assert.equal(Buffer.byteLength(exact), 64);
    const { input, messages } = transport(64);
    input.write(`${exact}\r\n${exact}\n${exact}z\n`);
    await tick();
    assert.equal(messages.length, 2);
  });

  it('reports EOF once through onClose', async () => {
    const { input, closed } = transport();
    input.end();
    await tick();
    await tick();
    assert.equal(closed(), 1);
  });
});

describe('ndjson transport: output', () => {
  it('writes one JSON object per \\n-terminated line, escaping newlines inside strings', () => {
    const { t, out } = transport();
    t.send({ jsonrpc: '2.0', method: 'lsp.event', params: { text: 'a\nb\r\nc\u2028' } });
    t.send({ jsonrpc: '2.0', id: 1, result: {} });
    const text = out();
    assert.ok(text.endsWith('\n'));
    const lines = text.split('\n');
    assert.equal(lines.length, 3);
    assert.deepEqual(JSON.parse(lines[0] as string).params.text, 'a\nb\r\nc\u2028');
  });

  it('respects backpressure: queues frames until the writable drains, in order', async () => {
    const written: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _enc, callback) {
        written.push(chunk.toString());
        release = () => callback();
      },
    });
    const t = new NdjsonTransport({ input: new PassThrough(), output: slow, maxLineBytes: 64, onMessage: () => {} });
    t.start();
    for (let i = 0; i < 5; i++) t.send({ i });
    assert.equal(written.length, 1, 'only the first frame reaches the writable');
    assert.equal(t.queuedFrames, 4);
    while (written.length < 5) {
      const r = release;
      release = undefined;
      r?.();
      await tick();
    }
    release?.();
    assert.deepEqual(written.map((w) => JSON.parse(w).i), [0, 1, 2, 3, 4]);
    assert.equal(t.queuedFrames, 0);
  });

  it('close() detaches from both streams and hands queued frames to the writable', () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 1 });
    const t = new NdjsonTransport({ input, output, maxLineBytes: 64, onMessage: () => assert.fail('closed') });
    t.start();
    t.send({ a: 1 });
    t.send({ b: 2 });
    assert.equal(t.queuedFrames, 1);
    t.close();
    assert.equal(t.queuedFrames, 0);
    assert.equal(input.listenerCount('data'), 0);
    assert.equal(output.listenerCount('drain'), 0);
    assert.equal(output.listenerCount('error'), 0);
    input.write('{"jsonrpc":"2.0","method":"x"}\n');
    t.send({ c: 3 });
    assert.equal(String(output.read()), '{"a":1}\n{"b":2}\n');
  });
});

describe('json-rpc helpers', () => {
  it('classifies requests, notifications and malformed lines', () => {
    assert.deepEqual(parseJsonRpcLine('{"jsonrpc":"2.0","id":null,"method":"m","params":[1]}'), { kind: 'request', id: null, method: 'm', params: [1] });
    // a number beyond a double is still a request id, kept as its raw token (issue 18)
    const huge = parseJsonRpcLine('{"jsonrpc":"2.0","id":1.5e400,"method":"m"}');
    assert.ok('kind' in huge && huge.kind === 'request');
    assert.equal(JSON.stringify({ id: huge.id }), '{"id":1.5e400}');
    assert.ok('malformed' in parseJsonRpcLine('{"jsonrpc":"2.0","id":true,"method":"m"}'));
  });

  it('recovers a leading request id from an oversize line head only when unambiguous', () => {
    assert.equal(peekRequestId('{"jsonrpc":"2.0","id":"q\\"1","method"'), 'q"1');
    assert.equal(peekRequestId(' { "id" : 12 , "x'), 12);
    assert.equal(peekRequestId('{"method":"m","id":3'), undefined);
    assert.equal(peekRequestId('{"params":{"id":3}}'), undefined);
  });
});

describe('ndjson transport: protocol edges (issue 11)', () => {
  it('serves a last request without its \\n at EOF, before reporting the end', async () => {
    const order: string[] = [];
    const input = new PassThrough();
    const t = new NdjsonTransport({
      input,
      output: new PassThrough(),
      maxLineBytes: 1024,
      onMessage: (m) => order.push(`message ${m.method}`),
      onClose: () => order.push('close'),
    });
    t.start();
    input.end('{"jsonrpc":"2.0","id":1,"method":"first"}\n{"jsonrpc":"2.0","id":2,"method":"last"}');
    await tick();
    await tick();
    assert.deepEqual(order, ['message first', 'message last', 'close']);
  });

  it('invalid UTF-8 is a parse error (-32700 to its id), never decoded with replacement characters', async () => {
    const { input, messages, ignored, out } = transport(1024);
    const bad = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"u8","method":"m","params":{"s":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n')]);
    input.write(bad);
    input.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"note","params":"'), Buffer.from([0xff]), Buffer.from('"}\n')]));
    await tick();
    assert.deepEqual(messages, []);
    assert.equal(ignored.filter((r) => /invalid UTF-8/.test(r)).length, 2);
    const frames = out().trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(frames, [{ jsonrpc: '2.0', id: 'u8', error: { code: -32700, message: 'parse error: the line is not valid UTF-8' } }]);
  });

  it('refuses nesting deeper than the bound as an invalid request (no stack overflow, no handler call)', async () => {
    const { input, messages, out } = transport(8 * 1024 * 1024);
    const deep = `{"jsonrpc":"2.0","id":9,"method":"lsp.actions.run","params":{"protocol":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}}`;
    input.write(`${deep}\n`);
    await tick();
    assert.deepEqual(messages, []);
    const frames = out().trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(frames, [{ jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'request nested deeper than 256 levels refused' } }]);
  });

  it('keeps a numeric id beyond 2^53 as its raw token, so it is echoed byte for byte', async () => {
    const { t, input, messages, out } = transport(1024);
    input.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}\n{"jsonrpc":"2.0","id":12345678901234567890.5,"method":"m"}\n');
    await tick();
    assert.equal(messages.length, 2);
    for (const m of messages) if (m.kind === 'request') t.send({ jsonrpc: '2.0', id: m.id, result: null });
    assert.equal(out(), '{"jsonrpc":"2.0","id":9007199254740993,"result":null}\n{"jsonrpc":"2.0","id":12345678901234567890.5,"result":null}\n');
  });

  it('answers ids of any JSON number spelling, echoing those JavaScript cannot print back (1E400, -1e400, -0, 1.5) as sent', async () => {
    const { t, input, messages, out, ignored } = transport(1024);
    const ids = ['1E400', '-1e400', '-0', '1.5', '1e2', '0.1e1', '-1E+400'];
    for (const id of ids) input.write(`{"jsonrpc":"2.0","id":${id},"method":"m","params":{"id":7}}\n`);
    await tick();
    assert.deepEqual(ignored, [], 'none ignored');
    assert.equal(messages.length, ids.length, 'every one is a request');
    for (const m of messages) if (m.kind === 'request') t.send({ jsonrpc: '2.0', id: m.id, result: null });
    const lines = out().trim().split('\n');
    assert.deepEqual(
      lines.map((l) => /"id":([^,]*),/.exec(l)?.[1]),
      ['1E400', '-1e400', '-0', '1.5', '100', '1', '-1E+400'],
      'the same JSON value, never null (Infinity) and never the params.id',
    );
  });

  it('an oversize line with a 1E400 id is refused to that id, not to null', async () => {
    const { input, out } = transport(64);
    input.write(`{"jsonrpc":"2.0","id":-1e400,"method":"lsp.actions.run","params":"${'x'.repeat(200)}"}\n`);
    await tick();
    assert.match(out(), /^\{"jsonrpc":"2\.0","id":-1e400,"error":\{"code":-32600/);
  });

  it('answers a batch as JSON-RPC 2.0 allows: one array with a -32600 per request; an empty batch is one -32600', async () => {
    const { input, messages, out } = transport(1024);
    input.write('[{"jsonrpc":"2.0","id":1,"method":"lsp.actions.list"},{"jsonrpc":"2.0","method":"lsp.events"},7]\n');
    input.write('[]\n');
    input.write('[{"jsonrpc":"2.0","method":"lsp.events"}]\n');
    await tick();
    assert.deepEqual(messages, []);
    const frames = out().trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(frames.length, 2, 'a batch of notifications only gets no answer');
    assert.ok(Array.isArray(frames[0]));
    assert.deepEqual(
      (frames[0] as Array<{ id: unknown; error: { code: number } }>).map((f) => [f.id, f.error.code]),
      [
        [1, -32600],
        [null, -32600],
      ],
    );
    assert.deepEqual(frames[1], { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } });
  });

  it('pauses input while the output queue is over its bound, and resumes once the reader catches up', async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 16 });
    let handled = 0;
    const t = new NdjsonTransport({ input, output, maxLineBytes: 1024, maxQueuedBytes: 256, onMessage: () => void handled++ });
    t.start();
    for (let i = 0; i < 40; i++) t.send({ jsonrpc: '2.0', id: i, result: 'x'.repeat(20) });
    assert.equal(t.inputHeld, true);
    assert.equal(input.isPaused(), true);
    input.write('{"jsonrpc":"2.0","method":"waits"}\n');
    await tick();
    assert.equal(handled, 0, 'nothing is read while the output is backed up');
    while (output.read() !== null) await tick();
    await tick();
    assert.equal(t.inputHeld, false);
    await tick();
    assert.equal(handled, 1);
  });

  it('a hold from the owner pauses input until released', async () => {
    const input = new PassThrough();
    let handled = 0;
    const t = new NdjsonTransport({ input, output: new PassThrough(), maxLineBytes: 1024, onMessage: () => void handled++ });
    t.start();
    t.hold('in-flight');
    input.write('{"jsonrpc":"2.0","method":"a"}\n');
    await tick();
    assert.equal(handled, 0);
    t.release('in-flight');
    await tick();
    assert.equal(handled, 1);
  });

  it('reports a broken output once and stops writing', async () => {
    const output = new Writable({ write: (_chunk, _enc, callback) => callback(Object.assign(new Error('EPIPE'), { code: 'EPIPE' })) });
    let broken = 0;
    const t = new NdjsonTransport({ input: new PassThrough(), output, maxLineBytes: 64, onMessage: () => {}, onOutputClosed: () => void broken++ });
    t.start();
    t.send({ a: 1 });
    await tick();
    t.send({ b: 2 });
    await tick();
    assert.equal(broken, 1);
    assert.equal(t.outputBroken, true);
    await t.flush();
  });
});
