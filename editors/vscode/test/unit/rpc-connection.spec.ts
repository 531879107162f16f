import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { ConnectionClosedError, RpcConnection, RpcError } from '../../src/rpc-connection.ts';

function pair() {
  const fromBackend = new PassThrough();
  const toBackend = new PassThrough();
  const sent: Record<string, unknown>[] = [];
  let rest = '';
  toBackend.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) sent.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { connection: new RpcConnection(fromBackend, toBackend), fromBackend, sent };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('NDJSON JSON-RPC connection', () => {
  it('sends one frame per line with string ids and matches responses out of order', async () => {
    const { connection, fromBackend, sent } = pair();
    const a = connection.request('lsp.actions.list', {});
    const b = connection.request('lsp.actions.run', { action: 'format' });
    await tick();
    assert.deepEqual(sent, [
      { jsonrpc: '2.0', id: '1', method: 'lsp.actions.list', params: {} },
      { jsonrpc: '2.0', id: '2', method: 'lsp.actions.run', params: { action: 'format' } },
    ]);
    fromBackend.write('{"jsonrpc":"2.0","id":"2","result":{"b":true}}\n{"jsonrpc":"2.0","id":"1","result":{"a":1}}\n');
    assert.deepEqual(await b, { b: true });
    assert.deepEqual(await a, { a: 1 });
  });

  it('reassembles frames and UTF-8 characters split across chunks, skips junk lines', async () => {
    const { connection, fromBackend } = pair();
    const got = connection.request('x', {});
    const bytes = Buffer.from('not json\n{"jsonrpc":"2.0","id":"1","result":"ä€"}\n', 'utf8');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of €
    fromBackend.write(bytes.subarray(0, cut));
    await tick();
    fromBackend.write(bytes.subarray(cut));
    assert.equal(await got, 'ä€');
  });

  it('delivers notifications and rejects JSON-RPC errors with their code', async () => {
    const { connection, fromBackend } = pair();
    const seen: unknown[] = [];
    connection.onNotification((method, params) => seen.push([method, params]));
    const failing = connection.request('nope', {});
    fromBackend.write('{"jsonrpc":"2.0","method":"lsp.event","params":{"kind":"file.changed","filePath":"a.ts"}}\n');
    fromBackend.write('{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"method not found: nope"}}\n');
    await assert.rejects(failing, (e: unknown) => e instanceof RpcError && e.code === -32601);
    assert.deepEqual(seen, [['lsp.event', { kind: 'file.changed', filePath: 'a.ts' }]]);
  });

  it('rejects pending and later requests once the backend output ends', async () => {
    const { connection, fromBackend } = pair();
    const pending = connection.request('x', {});
    fromBackend.end();
    await assert.rejects(pending, ConnectionClosedError);
    await assert.rejects(connection.request('y', {}), ConnectionClosedError);
    assert.equal(connection.closed, true);
  });
});
