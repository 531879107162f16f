/**
 * Probe (not a test): how long the engine takes to a FRESH diagnostics result on
 * typescript-language-server for the typical agent steps. Numbers feed
 * docs/decisions/0001-diagnostics-freshness.md.
 *
 * Run: node_modules/.bin/node tests/lsp/probes/tsls-engine-timing.ts
 */
import type { FileDiagnostics } from '../../../src/lsp/engine-types.ts';
import { TSLS_ENTRY } from '../../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine } from '../engine-fixture.ts';

const ws = await makeWorkspace('tsls-timing-');
await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true}}');
const f = await startEngine(
  makeConfig({
    tsls: TSLS_ENTRY,
  }),
);
const target = { root: ws.root, path: ws.path('a.ts') };
const steps: Array<[string, string]> = [
  ['cold start, one error', 'export interface Point { x: number }\nconst p: Pointt = { x: 1 };\nexport const q = p;\n'],
  ['edit, error moves', '\n\nexport interface Point { x: number }\nconst p: Pointt = { x: 1 };\nexport const q = p;\n'],
  ['edit fixing it', 'export const ok = 1;\n'],
  ['edit keeping it clean', 'export const ok = 2;\n'],
  ['edit breaking it', 'export const ok: string = 2;\n'],
];
for (const [label, text] of steps) {
  await ws.write('a.ts', text);
  const t0 = performance.now();
  const d: FileDiagnostics = await f.engine.diagnostics(target);
  const ms = (performance.now() - t0).toFixed(0);
  console.log(`${label.padEnd(24)} ${ms.padStart(5)} ms  ${d.state} v${d.version} (${d.diagnostics.length} diagnostics, analysed v${d.servers[0]?.analysedVersion})`);
}
await f.close();
await ws.remove();
