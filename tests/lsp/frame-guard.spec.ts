import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { StreamMessageReader } from 'vscode-languageserver-protocol/node.js';
import { FrameGuard, FramingError, MAX_HEADER_BYTES, parseHeaderBlock } from '../../src/lsp/frame-guard.ts';
import { isActionError, type ActionError } from '../../src/errors.ts';
import { createJsonRpcChannel, sendCancellable } from '../../src/lsp/json-rpc-connection.ts';

const frame = (body: string, extraHeader = ''): Buffer => {
  const bytes = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n${extraHeader}\r\n`, 'ascii'), bytes]);
};

/** Feeds chunks through a guard; resolves with what passed and the error, if any. */
async function run(chunks: Buffer[], max = 1024): Promise<{ out: Buffer; error?: Error }> {
  const guard = new FrameGuard(max);
  const parts: Buffer[] = [];
  guard.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<Error | undefined>((resolve) => {
    guard.on('error', resolve);
    guard.on('end', () => resolve(undefined));
  });
  for (const chunk of chunks) {
    if (guard.destroyed) break;
    guard.write(chunk);
  }
  if (!guard.destroyed) guard.end();
  const error = await done;
  return error === undefined ? { out: Buffer.concat(parts) } : { out: Buffer.concat(parts), error };
}

describe('FrameGuard', () => {
  it('passes valid frames through unchanged, however they are chunked', async () => {
    const input = Buffer.concat([frame('{"jsonrpc":"2.0","id":1,"result":"é😀"}'), frame('{"a":1}', 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n'), frame('')]);
    for (const size of [1, 2, 7, 64, input.length]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < input.length; i += size) chunks.push(input.subarray(i, i + size));
      const { out, error } = await run(chunks);
      assert.equal(error, undefined, `chunk size ${size}`);
      assert.ok(out.equals(input), `chunk size ${size}`);
    }
  });

  it('fails on a frame larger than maxMessageBytes before buffering its body', async () => {
    const { out, error } = await run([Buffer.from('Content-Length: 5000\r\n\r\n'), Buffer.alloc(100, 0x20)], 1024);
    assert.ok(error instanceof FramingError);
    assert.equal(error.reason, 'oversized');
    assert.match(error.message, /5000 bytes exceeds the 1024-byte limit/);
    assert.equal(out.length, 0, 'nothing of the oversized frame reaches the JSON-RPC reader');
  });

  it('accepts a frame of exactly maxMessageBytes', async () => {
    const body = `"${'x'.repeat(1022)}"`;
    assert.equal(Buffer.byteLength(body), 1024);
    const { error } = await run([frame(body)], 1024);
    assert.equal(error, undefined);
  });

  it('fails on garbage without a header terminator once it exceeds the header bound', async () => {
    const { error } = await run([Buffer.alloc(MAX_HEADER_BYTES + 10, 0x61)]);
    assert.ok(error instanceof FramingError);
    assert.equal(error.reason, 'header-too-long');
  });

  it('fails on header blocks without Content-Length, with a non-numeric length, or a line without a colon', async () => {
    for (const header of ['Content-Type: x\r\n\r\n{}', 'Content-Length: banana\r\n\r\n{}', 'garbage\r\n\r\n{}', '{"jsonrpc":"2.0"}\r\n\r\n']) {
      const { error } = await run([Buffer.from(header)]);
      assert.ok(error instanceof FramingError, header);
      assert.equal(error.reason, 'bad-header', header);
    }
  });

  it('parses headers case-insensitively', () => {
    assert.equal(parseHeaderBlock('content-length: 12', 100), 12);
    assert.throws(() => parseHeaderBlock('Content-Length: 101', 100), /exceeds/);
  });

  it('feeds vscode-jsonrpc\'s StreamMessageReader, which decodes the messages', async () => {
    const guard = new FrameGuard(1024);
    const reader = new StreamMessageReader(guard);
    const got: unknown[] = [];
    reader.listen((m) => got.push(m));
    guard.write(frame('{"jsonrpc":"2.0","method":"a","params":{"x":"😀"}}'));
    guard.write(frame('{"jsonrpc":"2.0","method":"b"}'));
    // the reader decodes asynchronously: wait for both messages (bounded), never a fixed sleep
    for (let waited = 0; got.length < 2 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(got, [
      { jsonrpc: '2.0', method: 'a', params: { x: '😀' } },
      { jsonrpc: '2.0', method: 'b' },
    ]);
  });
});

const sink = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });

describe('createJsonRpcChannel', () => {
  it('reports an oversized frame as fatal once and rejects the pending request', async () => {
    const stdout = new PassThrough();
    const channel = createJsonRpcChannel({ stdout, stdin: sink() }, { maxMessageBytes: 1024, log: () => undefined, label: 't' });
    const fatal: Error[] = [];
    channel.onFatal((e) => fatal.push(e));
    channel.connection.listen();
    const pending = channel.connection.sendRequest('x');
    stdout.write(`Content-Length: ${10 * 1024 * 1024}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(fatal.length, 1);
    assert.ok(fatal[0] instanceof FramingError);
    channel.dispose();
    await assert.rejects(pending);
  });

  it('reports an undecodable JSON body as fatal', async () => {
    const stdout = new PassThrough();
    const channel = createJsonRpcChannel({ stdout, stdin: sink() }, { maxMessageBytes: 1024, log: () => undefined, label: 't' });
    const fatal = new Promise<Error>((resolve) => channel.onFatal(resolve));
    channel.connection.listen();
    stdout.write(frame('{not json'));
    const error = await fatal;
    assert.ok(error instanceof Error);
    channel.dispose();
  });
});

describe('FrameGuard early failure', () => {
  it('fails at once on a bare JSON body instead of waiting for a header terminator', async () => {
    const guard = new FrameGuard(1024);
    const failed = new Promise<Error>((resolve) => guard.on('error', resolve));
    guard.write(Buffer.from('{"jsonrpc":"2.0","id":1,"result":null}'));
    const error = await failed;
    assert.ok(error instanceof FramingError);
    assert.equal(error.reason, 'bad-header');
  });

  it('still accepts a header split anywhere, even inside the name or before the colon', async () => {
    const guard = new FrameGuard(1024);
    const out: Buffer[] = [];
    guard.on('data', (c: Buffer) => out.push(c));
    let failed: Error | undefined;
    guard.on('error', (e) => (failed = e));
    for (const part of ['Cont', 'ent-Length', ': 2\r', '\n', '\r\n{}']) guard.write(Buffer.from(part));
    await new Promise((r) => setImmediate(r));
    assert.equal(failed, undefined);
    assert.equal(Buffer.concat(out).toString(), 'Content-Length: 2\r\n\r\n{}');
  });
});

describe('createJsonRpcChannel writes to a dead server', () => {
  it('reports the broken pipe as fatal instead of an unhandled rejection, and the request can still be abandoned', async () => {
    const stdin = new PassThrough();
    stdin.destroy();
    const channel = createJsonRpcChannel({ stdout: new PassThrough(), stdin }, { maxMessageBytes: 1024, log: () => undefined, label: 't' });
    const fatal = new Promise<Error>((resolve) => channel.onFatal(resolve));
    channel.connection.listen();
    const pending = new Set<(e: ActionError) => void>();
    const controller = new AbortController();
    const request = sendCancellable(channel, 'x', { a: 1 }, controller.signal, pending, (e) => e as ActionError);
    assert.match((await fatal).message, /closed its stdin/);
    assert.equal(pending.size, 1, 'the owner fails it (crash/stop); here the caller gives up');
    controller.abort();
    await assert.rejects(request, (e: unknown) => isActionError(e) && e.code === 'LSP_ACTION_CANCELLED');
    assert.equal(pending.size, 0);
    channel.dispose();
  });
});
