/**
 * Issue 18 figures (docs/reliability.md, "Health and watching at the edges"): `serve` with the
 * real typescript-language-server, driven as an editor would.
 *
 * - impatience: per round, 12 sequential and 12 concurrent `diagnostics.get {waitMs: 1}` (each
 *   with new unsaved text), then one ordinary call; counts server stops/restarts (serve's stderr),
 *   failed answers, and whether the ordinary call is fresh;
 * - watching: `serve` in a process whose `fs.watch` fails with ENOSPC after the first watch (the
 *   inotify limit; nothing system-wide is touched); per round a dependency nobody has open
 *   changes on disk (its return type flips), then `diagnostics.get` of the importer; counts
 *   answers that are `fresh` but wrong, and times the answers against a healthy-watcher `serve`.
 *
 * Run: `npm run -s build && node_modules/.bin/node bench/health-and-watching.ts [rounds]` (default 5).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEditorClient, type EditorClient, type Frame } from '../tests/support/editor-client.ts';

const ROUNDS = Number(process.argv[2] ?? '5');
const ROOT = join(import.meta.dirname, '..');
const PRELOAD = join(ROOT, 'tests', 'fixtures', 'inotify-limit-preload.ts');
const STOPPED = /stopped answering meaningfully|restarting in \d+ ms|will not be restarted/g;
const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' / ');

async function impatience(): Promise<void> {
  const ws = mkdtempSync(join(tmpdir(), 'bench-impatient-'));
  cpSync(join(ROOT, 'examples', 'sample'), ws, { recursive: true });
  const editor = startEditorClient(['--workspace', ws]);
  const main = readFileSync(join(ws, 'src', 'main.ts'), 'utf8');
  const loadBefore = load();
  let asked = 0;
  let failed = 0;
  let pending = 0;
  let freshAfter = 0;
  try {
    await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws });
    for (let round = 0; round < ROUNDS; round++) {
      const quick = (i: number): Promise<Frame> =>
        editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws, text: `${main}\nexport const r${round}_${i} = ${i};\n`, waitMs: 1 });
      const answers: Frame[] = [];
      for (let i = 0; i < 12; i++) answers.push(await quick(i));
      answers.push(...(await Promise.all(Array.from({ length: 12 }, (_, i) => quick(100 + i)))));
      asked += answers.length;
      failed += answers.filter((a) => a['status'] !== 'succeeded').length;
      pending += answers.filter((a) => a['result']?.['state'] === 'pending').length;
      const after = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws, text: `${main}\nexport const done${round} = 1;\n` });
      if (after['result']?.['state'] === 'fresh') freshAfter++;
    }
  } finally {
    editor.child.kill('SIGKILL');
    rmSync(ws, { recursive: true, force: true });
  }
  const stops = editor.stderr().match(STOPPED)?.length ?? 0;
  console.log(`impatience: ${asked} × diagnostics.get waitMs:1 (${ROUNDS} rounds of 12 sequential + 12 concurrent): ${failed} failed, ${pending} pending, server stops/restarts ${stops}; ordinary call after each round fresh ${freshAfter}/${ROUNDS}; load ${loadBefore} → ${load()}`);
}

function depWorkspace(): string {
  const ws = mkdtempSync(join(tmpdir(), 'bench-nowatch-'));
  mkdirSync(join(ws, 'src', 'lib'), { recursive: true });
  writeFileSync(join(ws, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true,"module":"nodenext"},"include":["src"]}\n');
  writeFileSync(join(ws, 'src', 'main.ts'), "import { f } from './lib/dep.js';\nexport const n: number = f();\n");
  writeFileSync(join(ws, 'src', 'lib', 'dep.ts'), 'export function f(): number {\n  return 1;\n}\n');
  for (let i = 0; i < 200; i++) writeFileSync(join(ws, 'src', `m${i}.ts`), `export const v${i} = ${i};\n`);
  return ws;
}

async function watching(degraded: boolean): Promise<void> {
  const ws = depWorkspace();
  const editor: EditorClient = startEditorClient(['--workspace', ws], degraded ? ['--disable-warning=ExperimentalWarning', '--import', PRELOAD] : []);
  let wrong = 0;
  let notFresh = 0;
  const ms: number[] = [];
  try {
    await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws });
    for (let round = 0; round < ROUNDS * 2; round++) {
      const broken = round % 2 === 0;
      writeFileSync(join(ws, 'src', 'lib', 'dep.ts'), broken ? "export function f(): string {\n  return 'x';\n}\n" : 'export function f(): number {\n  return 1;\n}\n');
      const t0 = performance.now();
      const answer = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws });
      ms.push(performance.now() - t0);
      const codes = ((answer['result']?.['diagnostics'] ?? []) as Frame[]).map((d) => String(d['code']));
      if (answer['result']?.['state'] !== 'fresh') notFresh++;
      else if (broken !== codes.includes('2322')) wrong++;
    }
  } finally {
    editor.child.kill('SIGKILL');
    rmSync(ws, { recursive: true, force: true });
  }
  ms.sort((a, b) => a - b);
  const said = editor.stderr().match(/is degraded/g)?.length ?? 0;
  console.log(
    `watching ${degraded ? 'degraded (ENOSPC after 1 watch)' : 'healthy'}: ${ROUNDS * 2} dependency changes (202-file workspace): wrong fresh ${wrong}, not fresh ${notFresh}; ` +
      `diagnostics.get median ${ms[Math.floor(ms.length / 2)]?.toFixed(0)} ms; "degraded" said ${said}×; load ${load()}`,
  );
}

await impatience();
await watching(true);
await watching(false);
