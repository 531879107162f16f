/**
 * `check --watch` vs `tsc --watch` after a one-line edit, on the generated 200-file project
 * ({@link generateProject}): each watcher is started alone (never both at once), left to finish
 * its first check, then `src/app.ts`'s error line is toggled (error ↔ no error, a new value
 * each time) `--rounds` times; the figure is the time from the write to the watcher's
 * "Found N error(s). Watching for file changes." line with the expected N.
 *
 * `--edit shared` edits `src/core/types.ts` instead, which every module imports: a comment line
 * added and removed (the error count stays 1). Both see the declarations unchanged and
 * re-check that file alone (`tsc --watch`'s builder; `check --watch` by the same rule, decision 0109).
 *
 * Usage: `node bench/watch-vs-tsc.ts [--rounds 10] [--edit leaf|shared]` (after `npm run build`).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateProject } from './generate-project.ts';
import { fmtLoad, machineFacts } from './machine.ts';
import { fmtMs, summarize } from './stats.ts';

const REPO = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' }, edit: { type: 'string', default: 'leaf' } } });
const rounds = Number(values.rounds);
if (values.edit !== 'leaf' && values.edit !== 'shared') throw new Error('--edit is leaf or shared');
const shared = values.edit === 'shared';

interface Watcher {
  name: string;
  argv: string[];
}

const WATCHERS: Watcher[] = [
  { name: 'tsc --watch', argv: [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '--watch', '--noEmit', '--preserveWatchOutput', '-p', '.'] },
  { name: 'check --watch', argv: [join(REPO, 'lib', 'cli', 'main.js'), 'check', '--watch', '--typescript', 'embedded', '--no-progress', '.'] },
];

function foundLine(child: ChildProcessWithoutNullStreams, errors: number, since: { text: string }): Promise<number> {
  const wanted = new RegExp(`Found ${errors} errors?\\. Watching for file changes\\.`);
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      since.text += String(chunk);
      if (wanted.test(since.text)) {
        child.stdout.off('data', onData);
        resolve(performance.now());
      }
    };
    child.stdout.on('data', onData);
  });
}

async function measure(watcher: Watcher): Promise<{ first: number; edits: number[] }> {
  const root = mkdtempSync(join(tmpdir(), 'watch-bench-'));
  const project = generateProject(root);
  const typesPath = join(root, 'src', 'core', 'types.ts');
  const typesText = readFileSync(typesPath, 'utf8');
  const started = performance.now();
  const child = spawn(process.execPath, watcher.argv, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  try {
    const first = (await foundLine(child, 1, { text: '' })) - started;
    const edits: number[] = [];
    for (let i = 0; i < rounds; i++) {
      await new Promise((resolve) => setTimeout(resolve, 700));
      const value = i % 2 === 0 ? undefined : 1000 + i;
      const since = { text: '' };
      const seen = foundLine(child, shared || value !== undefined ? 1 : 0, since);
      const t0 = performance.now();
      if (shared) writeFileSync(typesPath, i % 2 === 0 ? `${typesText}// edited\n` : typesText);
      else writeFileSync(project.appPath, project.appText(value));
      edits.push((await seen) - t0);
    }
    return { first, edits };
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => child.on('close', resolve));
    rmSync(root, { recursive: true, force: true });
  }
}

const facts = machineFacts();
console.log(`machine: ${facts.cpuCount} × ${facts.cpuModel}, node ${facts.node}, load ${fmtLoad(facts.load)}; ${rounds} one-line edits each (${shared ? 'src/core/types.ts, imported by every module' : 'src/app.ts, imported by none'})`);
const results: Array<[string, number, number]> = [];
for (const watcher of WATCHERS) {
  const { first, edits } = await measure(watcher);
  const s = summarize(edits);
  results.push([watcher.name, first, s.median]);
  console.log(`${watcher.name}: first check ${fmtMs(first)}; after an edit median ${fmtMs(s.median)}, p95 ${fmtMs(s.p95)}, min ${fmtMs(s.min)}, max ${fmtMs(s.max)}`);
}
const [tsc, check] = results;
if (tsc && check) console.log(`ratio check/tsc after an edit: ${(check[2] / tsc[2]).toFixed(2)}×; first check ${(check[1] / tsc[1]).toFixed(2)}×`);
