/**
 * Quick-fix latency over the editor protocol, as the VS Code extension drives it: per round a new
 * file using a name from another module → `diagnostics.get` → `codeActions.list` (twice, as the
 * lightbulb and then the menu ask) → `quickfix.apply` of "Add import". Warm
 * typescript-language-server on examples/sample. Prints one line per round and the medians.
 *
 *   npm run -s build && node bench/quickfix-latency.ts [--rounds N]
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEditorClient } from '../tests/support/editor-client.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '6' } } });
const rounds = Number(values.rounds);
const ws = mkdtempSync(join(tmpdir(), 'quickfix-latency-'));
cpSync(join(import.meta.dirname, '..', 'examples', 'sample'), ws, { recursive: true });
writeFileSync(join(ws, 'src', 'lib.ts'), 'export function spread(a: number, b: number): number {\n  return b - a;\n}\n');
const editor = startEditorClient(['--workspace', ws, '--sandbox', 'workspace-write']);
await editor.request('lsp.actions.list', {});
const now = (): number => performance.now();
const rows: number[][] = [];
for (let i = 0; i < rounds; i++) {
  const filePath = `src/use${i}.ts`;
  writeFileSync(join(ws, filePath), 'export const d = spread(1, 4);\n');
  let t = now();
  const diagnostics = await editor.run('diagnostics.get', { filePath, workspaceRoot: ws });
  const diag = now() - t;
  const range = diagnostics['result']['diagnostics'][0]['range'];
  t = now();
  const listed = await editor.run('codeActions.list', { filePath, workspaceRoot: ws, range, preview: false });
  const list = now() - t;
  t = now();
  await editor.run('codeActions.list', { filePath, workspaceRoot: ws, range, preview: false });
  const again = now() - t;
  const title = (listed['result']['actions'] as { title: string }[]).map((a) => a.title).find((x) => x.startsWith('Add import'));
  t = now();
  const applied = await editor.run('quickfix.apply', { filePath, workspaceRoot: ws, range, title });
  const apply = now() - t;
  if (applied['status'] !== 'succeeded') throw new Error(JSON.stringify(applied));
  rows.push([diag, list, again, apply]);
  console.log(`round ${i}: diagnostics.get ${diag.toFixed(0)} ms, codeActions.list ${list.toFixed(0)} ms, again ${again.toFixed(0)} ms, quickfix.apply ${apply.toFixed(0)} ms`);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const col = (k: number): string => median(rows.slice(1).map((r) => r[k] ?? Number.NaN)).toFixed(0);
console.log(`median of rounds 1..${rounds - 1}: diagnostics.get ${col(0)} ms, codeActions.list ${col(1)} ms, again ${col(2)} ms, quickfix.apply ${col(3)} ms`);
await editor.close();
rmSync(ws, { recursive: true, force: true });
