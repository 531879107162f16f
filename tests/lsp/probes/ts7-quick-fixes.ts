/**
 * Probe (not a test): which quick fixes TypeScript 7's `tsc --lsp` (7.0.2) offers, next to
 * tsserver 5.9.3 behind typescript-language-server 5.3.0, for common errors — one file per error,
 * code actions asked over each diagnostic's range through the engine (what `lsp_code_actions`,
 * `codeActions.list` and the MCP tool use). Feeds docs/limitations.md and
 * docs/decisions/0107-ts7-missing-quick-fixes.md.
 *
 * Run: node_modules/.bin/node tests/lsp/probes/ts7-quick-fixes.ts
 */
import { TS7_TSC, TSLS_ENTRY } from '../../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine } from '../engine-fixture.ts';

/** One error each: name, file text (a `lib.ts` beside it exports `helper` and `Shape`). */
const CASES: Array<[string, string]> = [
  ['missing import (TS2304)', 'export const v = helper(1);\n'],
  ['spelling (TS2552)', 'const count = 1;\nexport const v = countt + 1;\n'],
  ['unused variable (TS6133)', 'export function f(): void {\n  const unused = 1;\n}\n'],
  ['missing property (TS2339)', 'class A {\n  m(): number {\n    return this.size;\n  }\n}\nexport { A };\n'],
  ['missing properties (TS2739)', "import type { Shape } from './lib';\nexport const s: Shape = {};\n"],
  ['implement interface (TS2420)', "import type { Shape } from './lib';\nexport class Box implements Shape {}\n"],
  ['missing await (TS2339 on a Promise)', 'async function g(): Promise<string> { return "x"; }\nexport async function h(): Promise<number> {\n  return g().length;\n}\n'],
  ['unreachable code (TS7027)', 'export function f(): number {\n  return 1;\n  console.log("x");\n}\n'],
];

for (const [serverId, entry] of [
  ['ts-5.9', { ...TSLS_ENTRY, rootMarkers: ['tsconfig.json'] }],
  ['ts-7.0.2', { command: TS7_TSC, args: ['--lsp', '--stdio'], extensionToLanguage: { '.ts': 'typescript' }, rootMarkers: ['tsconfig.json'] }],
] as const) {
  const ws = await makeWorkspace('ts7-fixes-');
  await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true,"allowUnreachableCode":false,"noUnusedLocals":true}}');
  await ws.write('lib.ts', 'export function helper(n: number): number { return n; }\nexport interface Shape { area(): number; name: string }\n');
  const f = await startEngine(makeConfig({ [serverId]: entry }));
  try {
    console.log(`\n## ${serverId}`);
    for (const [name, text] of CASES) {
      const path = await ws.write(`${name.replace(/\W+/g, '-')}.ts`, text);
      const t = { root: ws.root, path };
      const d = await f.engine.diagnostics(t, { waitMs: 60_000 });
      const lines: string[] = [];
      for (const diagnostic of d.diagnostics) {
        const actions = await f.engine.codeActions(t, diagnostic.range, process.env.ALL_KINDS ? {} : { only: ['quickfix'] });
        lines.push(`  TS${String(diagnostic.code)}: ${actions.length === 0 ? '(no quick fix)' : actions.map((a) => a.title).join(' | ')}`);
      }
      console.log(`- ${name} [${d.state}]\n${lines.join('\n')}`);
    }
  } finally {
    await f.close();
    await ws.remove();
  }
}
