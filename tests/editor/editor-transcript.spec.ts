/**
 * A transcript of the wire, as an editor sees it: request lines in, response and event lines
 * out, byte for byte (fake runner and engine; the real servers are exercised end to end elsewhere).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { startFake, v1Actions, type FakeAction } from './editor-harness.ts';

const ROOT = '/ws';

const actions: FakeAction[] = v1Actions().map((a) => {
  if (a.action === 'diagnostics.get') {
    return {
      ...a,
      run: async () => ({
        kind: 'diagnostics',
        filePath: 'src/a.ts',
        diagnostics: [{ severity: 1, range: { start: { line: 0, character: 6 }, end: { line: 0, character: 7 } }, message: "Cannot find name 'x'.", source: 'typescript', code: 2304, serverId: 'ts' }],
        truncated: false,
        total: 1,
        state: 'fresh',
        version: 3,
        servers: [{ serverId: 'ts', mode: 'push', state: 'fresh' }],
      }),
    };
  }
  if (a.action === 'format') {
    return { ...a, run: async () => ({ kind: 'formatted', filePath: 'src/a.ts', appliedEdits: 1, linesChanged: 1, before: 'let  a=1\n', after: 'let a = 1;\n' }) };
  }
  return a;
});

it('transcript: list, subscribe, diagnostics.get, format, a refusal, an unknown method, a malformed line', async () => {
  const { wire, dispose } = startFake({ actions });
  const input = [
    '{"jsonrpc":"2.0","id":"1","method":"lsp.actions.list","params":{}}',
    '{"jsonrpc":"2.0","method":"lsp.events","params":{"subscribe":true}}',
    `{"jsonrpc":"2.0","id":"2","method":"lsp.actions.run","params":{"action":"diagnostics.get","params":{"filePath":"src/a.ts","workspaceRoot":"${ROOT}"},"requestId":"diagnostics.get:1"}}`,
    'this line is not JSON',
    `{"jsonrpc":"2.0","id":"3","method":"lsp.actions.run","params":{"action":"format","params":{"filePath":"src/a.ts","workspaceRoot":"${ROOT}"},"requestId":"format:2"}}`,
    '{"jsonrpc":"2.0","id":4,"method":"lsp.actions.run","params":{"action":"rename.all","requestId":"r"}}',
    '{"jsonrpc":"2.0","id":5,"method":"lsp.nope","params":{}}',
  ];
  // one request at a time, as the transcript is meant to be read in order
  const expectAfter: Record<number, number> = { 0: 1, 2: 5, 4: 9, 5: 11, 6: 12 };
  for (const [i, line] of input.entries()) {
    wire.input.write(`${line}\r\n`);
    const want = expectAfter[i];
    if (want !== undefined) await wire.waitFor(() => wire.lines.length >= want);
  }
  const diag = '{"severity":1,"range":{"start":{"line":0,"character":6},"end":{"line":0,"character":7}},"message":"Cannot find name \'x\'.","source":"typescript","code":2304,"serverId":"ts"}';
  assert.deepEqual(wire.lines, [
    '{"jsonrpc":"2.0","id":"1","result":{"protocol":"lsp-actions/v1","version":1,"actions":[{"action":"diagnostics.get","writes":false,"description":"d"},{"action":"completion.get","writes":false,"description":"c"},{"action":"quickfix.apply","writes":true,"description":"q"},{"action":"format","writes":true,"description":"f"}],"sessions":[]}}',
    '{"jsonrpc":"2.0","method":"lsp.event","params":{"kind":"action.status","requestId":"diagnostics.get:1","action":"diagnostics.get","status":"started"}}',
    `{"jsonrpc":"2.0","method":"lsp.event","params":{"kind":"diagnostics.updated","filePath":"src/a.ts","diagnostics":[${diag}],"truncated":false,"total":1,"source":"typescript","workspaceRoot":"/ws","state":"fresh","version":3,"origin":"run","requestId":"diagnostics.get:1"}}`,
    '{"jsonrpc":"2.0","method":"lsp.event","params":{"kind":"action.status","requestId":"diagnostics.get:1","action":"diagnostics.get","status":"succeeded"}}',
    `{"jsonrpc":"2.0","id":"2","result":{"requestId":"diagnostics.get:1","action":"diagnostics.get","status":"succeeded","result":{"kind":"diagnostics","filePath":"src/a.ts","diagnostics":[${diag}],"truncated":false,"total":1,"state":"fresh","version":3,"servers":[{"serverId":"ts","mode":"push","state":"fresh"}]}}}`,
    '{"jsonrpc":"2.0","method":"lsp.event","params":{"kind":"action.status","requestId":"format:2","action":"format","status":"started"}}',
    '{"jsonrpc":"2.0","method":"lsp.event","params":{"kind":"file.changed","filePath":"src/a.ts","workspaceRoot":"/ws","requestId":"format:2"}}',
    '{"jsonrpc":"2.0","method":"lsp.event","params":{"kind":"action.status","requestId":"format:2","action":"format","status":"succeeded"}}',
    '{"jsonrpc":"2.0","id":"3","result":{"requestId":"format:2","action":"format","status":"succeeded","result":{"kind":"formatted","filePath":"src/a.ts","appliedEdits":1,"linesChanged":1,"before":"let  a=1\\n","after":"let a = 1;\\n"}}}',
    '{"jsonrpc":"2.0","method":"lsp.event","params":{"kind":"action.status","requestId":"r","action":"rename.all","status":"failed","error":{"code":"LSP_ACTION_UNKNOWN","message":"unknown action \\"rename.all\\""}}}',
    '{"jsonrpc":"2.0","id":4,"result":{"requestId":"r","action":"rename.all","status":"failed","error":{"code":"LSP_ACTION_UNKNOWN","message":"unknown action \\"rename.all\\""}}}',
    '{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found: lsp.nope"}}',
  ]);
  await dispose();
});
