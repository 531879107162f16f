/**
 * The tsserver bridge (src/lsp/tsserver-bridge.ts) over a real tsserver (TypeScript 5.9.3 from
 * node_modules), spoken to in LSP frames as the language client speaks: what it advertises, the
 * passthrough's answers (success, tsserver's error), the pushes converted as
 * typescript-language-server converts them (related information, tags, source, code), whole-text
 * changes replacing exactly the text tsserver has, and cancellation.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { URI } from 'vscode-uri';
import { ContentLengthSplitter, frameMessage } from '../../src/lsp/content-length-splitter.ts';
import { TsserverBridge, tsserverEndOf, tsserverErrorMessage } from '../../src/lsp/tsserver-bridge.ts';
import { TSSERVER_FLAGS } from '../../src/lsp/tsserver-host-settings.ts';

const require = createRequire(import.meta.url);
const TSSERVER = join(dirname(require.resolve('typescript/package.json')), 'lib', 'tsserver.js');
const T = { timeout: 120_000 };

interface Peer {
  request: (method: string, params?: unknown) => Promise<{ result?: unknown; error?: { code: number; message: string } }>;
  notify: (method: string, params?: unknown) => void;
  /** Resolves with the next push for `uri` that satisfies `test`. */
  push: (uri: string, test: (diagnostics: Array<Record<string, unknown>>) => boolean) => Promise<Array<Record<string, unknown>>>;
}

let root: string;
let child: ChildProcess;
let peer: Peer;
let nextId = 0;

function connect(bridge: TsserverBridge): Peer {
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const watchers: Array<{ uri: string; test: (d: Array<Record<string, unknown>>) => boolean; resolve: (d: Array<Record<string, unknown>>) => void }> = [];
  const splitter = new ContentLengthSplitter(64 * 1024 * 1024);
  bridge.lsp.stdout.on('data', (chunk: Buffer) => {
    for (const body of splitter.push(chunk)) {
      const message = JSON.parse(body) as Record<string, unknown>;
      if (typeof message.id === 'number') waiting.get(message.id)?.(message);
      if (message.method === 'textDocument/publishDiagnostics') {
        const params = message.params as { uri: string; diagnostics: Array<Record<string, unknown>> };
        const met = watchers.filter((w) => w.uri === params.uri && w.test(params.diagnostics));
        for (const w of met) {
          watchers.splice(watchers.indexOf(w), 1);
          w.resolve(params.diagnostics);
        }
      }
    }
  });
  return {
    request: (method, params) =>
      new Promise((resolve) => {
        const id = ++nextId;
        waiting.set(id, resolve);
        bridge.lsp.stdin.write(frameMessage({ jsonrpc: '2.0', id, method, params }));
      }),
    notify: (method, params) => bridge.lsp.stdin.write(frameMessage({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) })),
    push: (uri, test) => new Promise((resolve) => watchers.push({ uri, test, resolve })),
  };
}

const uriOf = (name: string): string => URI.file(join(root, name)).toString();
const tsserverRequest = (command: string, args: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> =>
  peer.request('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: [command, args, { isAsync: true }] });

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsserver-bridge-'));
  writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true}}');
  child = spawn(process.execPath, [TSSERVER, ...TSSERVER_FLAGS], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
  const bridge = new TsserverBridge({ stdin: child.stdin!, stdout: child.stdout! }, { root, maxMessageBytes: 64 * 1024 * 1024, pushDelayMs: 20, terminate: () => child.kill() });
  peer = connect(bridge);
});
after(() => {
  child.kill();
  rmSync(root, { recursive: true, force: true });
});

describe('TsserverBridge over a real tsserver', () => {
  it('initialize advertises full sync and the passthrough command, and names tsserver', T, async () => {
    const answer = await peer.request('initialize', { processId: null, rootUri: URI.file(root).toString(), capabilities: {}, initializationOptions: { tsserver: { version: '5.9.3' } } });
    assert.deepEqual(answer.result, {
      capabilities: { textDocumentSync: { openClose: true, change: 1 }, executeCommandProvider: { commands: ['typescript.tsserverRequest'] } },
      serverInfo: { name: 'tsserver', version: '5.9.3' },
    });
    peer.notify('initialized', {});
  });

  it('pushes an open file’s problems with related information, Unnecessary and Deprecated tags, code and source', T, async () => {
    const text = [
      '/** @deprecated use b */ export function old(): void {}',
      'old();',
      'const point: { x: number } = { x: "1" };',
      'export function f(unused: number): void {}',
      'void point;',
      '',
    ].join('\n');
    const path = join(root, 'a.ts');
    writeFileSync(path, text);
    const pushed = peer.push(uriOf('a.ts'), (d) => d.length >= 3);
    peer.notify('textDocument/didOpen', { textDocument: { uri: uriOf('a.ts'), languageId: 'typescript', version: 1, text } });
    const diagnostics = await pushed;
    const byCode = new Map(diagnostics.map((d) => [d.code, d]));
    assert.deepEqual(byCode.get(2322), {
      range: { start: { line: 2, character: 31 }, end: { line: 2, character: 32 } },
      message: "Type 'string' is not assignable to type 'number'.",
      severity: 1,
      source: 'typescript',
      code: 2322,
      relatedInformation: [
        {
          location: { uri: uriOf('a.ts'), range: { start: { line: 2, character: 15 }, end: { line: 2, character: 16 } } },
          message: "The expected type comes from property 'x' which is declared here on type '{ x: number; }'",
        },
      ],
      tags: [],
    });
    assert.deepEqual(byCode.get(6387)?.tags, [2], JSON.stringify(diagnostics));
    assert.equal(byCode.get(6387)?.severity, 4);
    assert.deepEqual(byCode.get(6387)?.relatedInformation, [
      { location: { uri: uriOf('a.ts'), range: { start: { line: 0, character: 4 }, end: { line: 0, character: 22 } } }, message: 'The declaration was marked as deprecated here.' },
    ]);
    assert.deepEqual(byCode.get(6133)?.tags, [1], JSON.stringify(diagnostics));
  });

  it('the passthrough answers with tsserver’s whole response, positions as tsserver gives them (end of text included)', T, async () => {
    const text = 'export const a = 1;\nfoo(\n';
    writeFileSync(join(root, 'eot.ts'), text);
    peer.notify('textDocument/didOpen', { textDocument: { uri: uriOf('eot.ts'), languageId: 'typescript', version: 1, text } });
    const answer = await tsserverRequest('syntacticDiagnosticsSync', { file: join(root, 'eot.ts') });
    const response = answer.result as { success: boolean; command: string; body: Array<{ start: unknown; code: number }> };
    assert.equal(response.success, true);
    assert.equal(response.command, 'syntacticDiagnosticsSync');
    // tsserver's own line index for an open file: one line early, past the break (tsserver-end-of-text.ts)
    assert.deepEqual(response.body.map((d) => [d.code, d.start]), [[1005, { line: 2, offset: 6 }]]);
  });

  it('a whole-text change replaces exactly what tsserver has, whatever the line breaks', T, async () => {
    const uri = uriOf('eot.ts');
    const file = join(root, 'eot.ts');
    const texts = ['export const a = 1;\r\nconst b: string = 2;\r\n', 'export const a = 1;\u2028const c: string = 3;', 'export const a = 1;\n'];
    for (const [i, text] of texts.entries()) {
      peer.notify('textDocument/didChange', { textDocument: { uri, version: i + 2 }, contentChanges: [{ text }] });
      const semantic = (await tsserverRequest('semanticDiagnosticsSync', { file })).result as { body: Array<{ code: number }> };
      const syntax = (await tsserverRequest('syntacticDiagnosticsSync', { file })).result as { body: Array<{ code: number }> };
      const expected = i === 2 ? [] : [2322];
      assert.deepEqual([...syntax.body, ...semantic.body].map((d) => d.code), expected, `after change ${i}: ${JSON.stringify(text)}`);
    }
    // what tsserver holds now is exactly the last text: its end is where the text ends
    const info = (await tsserverRequest('quickinfo', { file, line: 1, offset: 14 })).result as { body: { displayString: string } };
    assert.equal(info.body.displayString, 'const a: 1');
  });

  it('tsserver’s failure is an error carrying its message (No Project for a file it has no project for)', T, async () => {
    const answer = await tsserverRequest('semanticDiagnosticsSync', { file: '/nonexistent/dir/x.ts' });
    assert.equal(answer.error?.code, 1);
    assert.match(answer.error?.message ?? '', /^<semantic> TypeScript Server Error \(5\.9\.3\)\nNo Project\./);
  });

  it('a file opened and closed again (a change on disk told to tsserver) pushes the open files’ problems anew', T, async () => {
    writeFileSync(join(root, 'dep.ts'), 'export const dep = 1;\n');
    const userText = 'import { dep } from "./dep";\nexport const user: number = dep;\n';
    writeFileSync(join(root, 'user.ts'), userText);
    const clean = peer.push(uriOf('user.ts'), (d) => d.length === 0);
    peer.notify('textDocument/didOpen', { textDocument: { uri: uriOf('user.ts'), languageId: 'typescript', version: 1, text: userText } });
    await clean;
    const depText = 'export const dep = "one";\n';
    writeFileSync(join(root, 'dep.ts'), depText);
    const broken = peer.push(uriOf('user.ts'), (d) => d.some((x) => x.code === 2322));
    peer.notify('textDocument/didOpen', { textDocument: { uri: uriOf('dep.ts'), languageId: 'typescript', version: 0, text: depText } });
    peer.notify('textDocument/didClose', { textDocument: { uri: uriOf('dep.ts') } });
    assert.equal((await broken).length, 1);
  });

  it('a closed file’s pushed problems are cleared', T, async () => {
    const cleared = peer.push(uriOf('a.ts'), (d) => d.length === 0);
    peer.notify('textDocument/didClose', { textDocument: { uri: uriOf('a.ts') } });
    assert.deepEqual(await cleared, []);
  });

  it('another method is MethodNotFound; a cancelled request is answered RequestCancelled at once', T, async () => {
    assert.equal((await peer.request('textDocument/hover', {})).error?.code, -32601);
    const id = nextId + 1;
    const pending = tsserverRequest('semanticDiagnosticsSync', { file: join(root, 'eot.ts') });
    peer.notify('$/cancelRequest', { id });
    assert.equal((await pending).error?.code, -32800);
    // the bridge goes on answering
    assert.equal(((await tsserverRequest('status', {})).result as { success: boolean }).success, true);
  });

  it('shutdown, then exit ends tsserver', T, async () => {
    assert.equal((await peer.request('shutdown')).result, null);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    peer.notify('exit');
    await exited;
  });
});

describe('TsserverBridge when tsserver is gone', () => {
  it('a failed write to tsserver (EPIPE) fails the LSP side with that error, not the process', async () => {
    const gone = new Writable({ write: (_chunk, _encoding, callback) => callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
    const bridge = new TsserverBridge({ stdin: gone, stdout: new PassThrough() }, { root: tmpdir(), maxMessageBytes: 1 << 20 });
    const failed = new Promise<Error>((resolve) => bridge.lsp.stdout.once('error', resolve));
    bridge.lsp.stdin.write(frameMessage({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { initializationOptions: {} } }));
    assert.match((await failed).message, /writing to tsserver failed: write EPIPE/);
  });
});

describe('tsserver positions and messages', () => {
  it('the end of a text as tsserver counts lines', () => {
    assert.deepEqual(tsserverEndOf(''), { line: 1, offset: 1 });
    assert.deepEqual(tsserverEndOf('ab'), { line: 1, offset: 3 });
    assert.deepEqual(tsserverEndOf('ab\n'), { line: 2, offset: 1 });
    assert.deepEqual(tsserverEndOf('ab\r\ncd'), { line: 2, offset: 3 });
    assert.deepEqual(tsserverEndOf('a\rb\u2028c\u2029'), { line: 4, offset: 1 });
    assert.deepEqual(tsserverEndOf('😀'), { line: 1, offset: 3 });
  });

  it('an error message as typescript-language-server words it', () => {
    assert.equal(tsserverErrorMessage({ message: 'Error processing request. No Project.\nError: No Project.\n    at x' }, '5.9.3'), '<semantic> TypeScript Server Error (5.9.3)\nNo Project.\nError: No Project.\n    at x');
    assert.equal(tsserverErrorMessage({ message: 'Unrecognized JSON command: nope' }, '4.9.5'), '<semantic> TypeScript Server Error (4.9.5)\nUnrecognized JSON command: nope\nundefined');
  });
});
