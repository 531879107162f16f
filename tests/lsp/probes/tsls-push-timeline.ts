/**
 * Probe (not a test): how typescript-language-server 5.3.0 publishes diagnostics — timings,
 * `version` field, partial (syntax-only) pushes, silence after edits that keep a file clean,
 * the clear-on-close push. Numbers feed docs/decisions/0001-diagnostics-freshness.md.
 *
 * Run: node_modules/.bin/node tests/lsp/probes/tsls-push-timeline.ts
 * Uses our LanguageClient only as a thin protocol client over the real harness subprocess
 * service; every publishDiagnostics and $/progress is printed with ms since the triggering
 * notification.
 */
import { resolveConfig, type ServerConfig } from '../../../src/config.ts';
import { LanguageClient } from '../../../src/lsp/language-client.ts';
import { createHarnessServices } from '../../support/harness-services.ts';
import { TSLS_CLI, TSLS_INIT_OPTIONS } from '../../support/servers.ts';
import { makeWorkspace } from '../engine-fixture.ts';

const ws = await makeWorkspace('tsls-probe-');
const services = await createHarnessServices();
await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true}}');
const K = 24; // a template-literal union of K^3 members makes the semantic check slow
const slow = `type D = ${Array.from({ length: K }, (_, i) => `'d${i}'`).join('|')};\ntype T = \`\${D}-\${D}-\${D}\`;\nconst x: T = 'nope';\nexport const y: string = x;\n`;
const files = { 'a.ts': 'export interface Point { x: number }\nconst p: Pointt = { x: 1 };\nexport const q = p;\n', 'slow.ts': slow };
for (const [name, text] of Object.entries(files)) await ws.write(name, text);

const config = resolveConfig({
  servers: { tsls: { command: process.execPath, args: [TSLS_CLI, '--stdio'], initializationOptions: TSLS_INIT_OPTIONS } },
}).servers.tsls as ServerConfig;
const client = new LanguageClient({ serverId: 'tsls', root: ws.root, config, executable: process.execPath, subprocess: services.subprocess, log: () => undefined });
let mark = performance.now();
const since = (): string => `+${(performance.now() - mark).toFixed(0)}ms`;
client.onPublishDiagnostics((p) =>
  console.log(`${since()}\tpublish ${p.uri.split('/').pop()} version=${String(p.version)} n=${p.diagnostics.length} codes=${p.diagnostics.map((d) => d.code).join(',')}`),
);
client.progress.onDidChange(() => console.log(`${since()}\tprogress busy=${client.progress.busy} ${client.progress.titles.join(',')}`));
await client.start();
const uri = (name: string): string => `file://${ws.path(name)}`;
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
let version = 1;
const step = async (label: string, send: () => void, waitMs = 2500): Promise<void> => {
  console.log(`--- ${label}`);
  mark = performance.now();
  send();
  await pause(waitMs);
};
const change = (name: string, text: string): void => client.notify('textDocument/didChange', { textDocument: { uri: uri(name), version: ++version }, contentChanges: [{ text }] });

await step('didOpen a.ts (cold server, one error)', () => client.notify('textDocument/didOpen', { textDocument: { uri: uri('a.ts'), languageId: 'typescript', version: 1, text: files['a.ts'] } }), 8000);
await step('didChange a.ts (error moves down two lines)', () => change('a.ts', `\n\n${files['a.ts']}`));
await step('didChange a.ts (fixed: clean)', () => change('a.ts', 'export const ok = 1;\n'));
await step('didChange a.ts (still clean)', () => change('a.ts', 'export const ok = 2;\n'));
await step('didClose + didOpen a.ts (clean)', () => {
  client.notify('textDocument/didClose', { textDocument: { uri: uri('a.ts') } });
  client.notify('textDocument/didOpen', { textDocument: { uri: uri('a.ts'), languageId: 'typescript', version: ++version, text: 'export const ok = 2;\n' } });
});
await step('didOpen slow.ts (slow semantic check)', () => client.notify('textDocument/didOpen', { textDocument: { uri: uri('slow.ts'), languageId: 'typescript', version: 1, text: slow } }), 6000);
await step('didChange slow.ts (adds a syntax error)', () => change('slow.ts', `${slow}let = ;\n`), 4000);
await client.stop();
await services.dispose();
await ws.remove();
