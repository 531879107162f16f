/**
 * Probe (not a test): what makes tsserver (behind typescript-language-server 5.3.0) see a change
 * to a file that is NOT open — on disk only (its own watchers), LSP didChangeWatchedFiles,
 * or didOpen(disk text)+didClose. Asks `semanticDiagnosticsSync` for the open `main.ts` at once
 * after each change, and again after 1 s. Feeds docs/decisions/0010-cross-file-freshness.md.
 *
 * Run: node_modules/.bin/node tests/lsp/probes/tsserver-crossfile.ts
 */
import { rm } from 'node:fs/promises';
import { URI } from 'vscode-uri';
import { TSLS_CLI, TSLS_INIT_OPTIONS } from '../../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine } from '../engine-fixture.ts';

const ws = await makeWorkspace('tsserver-xfile-');
await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
const LIB1 = 'export function f(a: number): number { return a; }\n';
const LIB2 = 'export function f(a: number, b: number): number { return a + b; }\n';
await ws.write('lib.ts', LIB1);
const main = await ws.write('main.ts', "import { f } from './lib';\nexport const x = f(1);\n");
const f = await startEngine(makeConfig({ tsls: { command: process.execPath, args: [TSLS_CLI, '--stdio'], extensionToLanguage: { '.ts': 'typescript' }, rootMarkers: ['tsconfig.json'], initializationOptions: process.env.CLIENT_WATCH ? { ...TSLS_INIT_OPTIONS, tsserver: { ...(TSLS_INIT_OPTIONS.tsserver as object), useClientFileWatcher: true } } : TSLS_INIT_OPTIONS } }));
const d0 = await f.engine.diagnostics({ root: ws.root, path: main });
console.log('initial', d0.state, d0.diagnostics.map((d) => d.code));
const client = f.client('tsls');
const ask = async (): Promise<string> => {
  const r = await client.request<{ body: Array<{ code: number }> }>('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: ['semanticDiagnosticsSync', { file: main }] });
  return JSON.stringify(r.body.map((d) => d.code));
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const lib = ws.path('lib.ts');
const libUri = URI.file(lib).toString();
const openClose = (text: string): void => {
  client.notify('textDocument/didOpen', { textDocument: { uri: libUri, languageId: 'typescript', version: 1, text } });
  client.notify('textDocument/didClose', { textDocument: { uri: libUri } });
};
const watched = (type: number): void => client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: libUri, type }] });
const reload = (): void => void client.request('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: ['reloadProjects', {}] });
const openKeep = (text: string): void => client.notify('textDocument/didOpen', { textDocument: { uri: libUri, languageId: 'typescript', version: 1, text } });
const close = (): void => client.notify('textDocument/didClose', { textDocument: { uri: libUri } });
type Step = [string, () => Promise<void>, () => void];
const steps: Step[] = [
  ['disk only: change', () => ws.write('lib.ts', LIB2).then(() => undefined), () => undefined],
  ['disk only: revert', () => ws.write('lib.ts', LIB1).then(() => undefined), () => undefined],
  ['watched: change', () => ws.write('lib.ts', LIB2).then(() => undefined), () => watched(2)],
  ['watched: revert', () => ws.write('lib.ts', LIB1).then(() => undefined), () => watched(2)],
  ['open+close: change', () => ws.write('lib.ts', LIB2).then(() => undefined), () => openClose(LIB2)],
  ['open+close: revert', () => ws.write('lib.ts', LIB1).then(() => undefined), () => openClose(LIB1)],
  ['disk only: delete', () => rm(lib), () => undefined],
  ['disk only: recreate', () => ws.write('lib.ts', LIB1).then(() => undefined), () => undefined],
  ['watched: delete', () => rm(lib), () => watched(3)],
  ['watched: recreate', () => ws.write('lib.ts', LIB1).then(() => undefined), () => watched(1)],
  ['open+close: delete', () => rm(lib), () => openClose('')],
  ['open+close: recreate', () => ws.write('lib.ts', LIB2).then(() => undefined), () => openClose(LIB2)],
  ['reload: delete', () => rm(lib), reload],
  ['reload: recreate', () => ws.write('lib.ts', LIB1).then(() => undefined), reload],
  ['reload: change', () => ws.write('lib.ts', LIB2).then(() => undefined), reload],
  ['keep-open: delete', () => rm(lib), () => undefined],
  ['keep-open: recreate', () => ws.write('lib.ts', LIB1).then(() => undefined), () => openKeep(LIB1)],
  ['close again', () => Promise.resolve(), close],
  ['open+close: change back', () => ws.write('lib.ts', LIB1).then(() => undefined), () => openClose(LIB1)],
];
for (const [label, change, tell] of steps) {
  await change();
  tell();
  const t0 = performance.now();
  const now = await ask();
  const ms = (performance.now() - t0).toFixed(0);
  await sleep(1500);
  console.log(`${label.padEnd(26)} at once ${now.padEnd(10)} (${ms} ms)  after 1.5 s ${await ask()}`);
}
await f.close();
await ws.remove();
