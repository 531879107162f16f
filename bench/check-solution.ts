/**
 * `check` on a project-references solution against `tsc -b` (issue 21): wall time and peak
 * memory of the whole process tree, with one TypeScript server per program (check's default: one
 * program's server live at a time, stopped when its files are done, decision 0105) and with one
 * server for the whole solution (a `--servers` override with no root markers).
 *
 *   npm run build && node bench/check-solution.ts [--programs N] [--files N] [--rounds N]
 *
 * Generates N programs (default 20) of F files each (default 10) under a root `tsconfig.json`
 * that references them all; program i references program i-1 and imports from it by relative
 * path; the last program holds one type error. Per round: `tsc -b --force` (TypeScript 5.9.3,
 * emitting into the temp tree, removed afterwards), `check .` and `check .` with one server.
 * Every run must report the same single error, or the bench fails.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fmtLoad, machineFacts } from './machine.ts';
import { treeRss } from './process-tree.ts';

const REPO = join(import.meta.dirname, '..');
const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const { values } = parseArgs({ options: { programs: { type: 'string', default: '20' }, files: { type: 'string', default: '10' }, rounds: { type: 'string', default: '3' } } });
const PROGRAMS = Number(values.programs);
const FILES = Number(values.files);
const ROUNDS = Number(values.rounds);

interface Sample {
  wallMs: number;
  peakMiB: number;
  processes: number;
  stdout: string;
}

function measure(argv: string[], cwd: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: dirname(process.execPath) } });
    let stdout = '';
    let peakMiB = 0;
    let processes = 0;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.resume();
    const timer = setInterval(() => {
      if (child.pid === undefined) return;
      const now = treeRss([child.pid]);
      peakMiB = Math.max(peakMiB, now.mib);
      processes = Math.max(processes, now.processes);
    }, 50);
    child.on('error', reject);
    child.on('exit', () => {
      clearInterval(timer);
      resolve({ wallMs: performance.now() - started, peakMiB, processes, stdout });
    });
  });
}

function generate(root: string): void {
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('tsconfig.json', JSON.stringify({ files: [], references: Array.from({ length: PROGRAMS }, (_, i) => ({ path: `./${name(i)}` })) }));
  for (let p = 0; p < PROGRAMS; p++) {
    const refs = p === 0 ? [] : [{ path: `../${name(p - 1)}` }];
    write(`${name(p)}/tsconfig.json`, JSON.stringify({ compilerOptions: { composite: true, strict: true, outDir: 'out', rootDir: 'src', target: 'es2022', module: 'esnext', moduleResolution: 'bundler' }, include: ['src'], references: refs }));
    for (let f = 0; f < FILES; f++) {
      const imports = p === 0 ? '' : `import { value${FILES - 1} as upstream } from '../../${name(p - 1)}/src/m${FILES - 1}';\n`;
      const previous = f === 0 ? (p === 0 ? '0' : 'upstream') : `value${f - 1}`;
      const local = f === 0 ? '' : `import { value${f - 1} } from './m${f - 1}';\n`;
      const error = p === PROGRAMS - 1 && f === FILES - 1 ? 'export const wrong: string = 1;\n' : '';
      write(`${name(p)}/src/m${f}.ts`, `${imports}${local}export interface Shape${f} { id: number; label: string }\nexport const value${f}: number = ${previous} + ${f};\nexport function make${f}(id: number): Shape${f} {\n  return { id, label: String(id) };\n}\n${error}`);
    }
  }
}

function errorsOfTsc(stdout: string): string[] {
  return [...stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+)/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
}

function errorsOfCheck(stdout: string): string[] {
  const doc = JSON.parse(stdout) as { files: Array<{ path: string; diagnostics: Array<{ severity: string; line: number; column: number; code: unknown }> }> };
  return doc.files.flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${f.path}:${d.line}:${d.column} ${String(d.code)}`)).sort();
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** The folder name of program i. */
const name = (i: number): string => `p${String(i).padStart(2, '0')}`;

async function main(): Promise<void> {
  if (!existsSync(MAIN)) throw new Error('run `npm run build` first');
  const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-bench-solution-'));
  const oneServer = join(root, 'one-server.json');
  const before = machineFacts();
  const runs: Record<string, Sample[]> = { tsc: [], perProgram: [], oneServer: [] };
  try {
    generate(root);
    writeFileSync(oneServer, JSON.stringify({ typescript: { rootMarkers: [] } }));
    for (let round = 0; round < ROUNDS; round++) {
      const t = await measure([TSC, '-b', '--force', '--pretty', 'false'], root);
      for (let p = 0; p < PROGRAMS; p++) rmSync(join(root, `p${String(p).padStart(2, '0')}`, 'out'), { recursive: true, force: true });
      const a = await measure([MAIN, 'check', '.', '--format', 'json', '--no-progress'], root);
      const b = await measure([MAIN, 'check', '.', '--format', 'json', '--no-progress', '--servers', oneServer], root);
      const expected = errorsOfTsc(t.stdout);
      for (const [what, sample] of [['check', a], ['check (one server)', b]] as const) {
        const got = errorsOfCheck(sample.stdout);
        if (expected.length !== 1 || JSON.stringify(got) !== JSON.stringify(expected)) throw new Error(`round ${round}: ${what} and tsc -b disagree: ${got.join(', ')} vs ${expected.join(', ')}`);
      }
      runs['tsc']?.push(t);
      runs['perProgram']?.push(a);
      runs['oneServer']?.push(b);
      process.stderr.write(`round ${round + 1}/${ROUNDS}: tsc -b ${t.wallMs.toFixed(0)} ms ${t.peakMiB.toFixed(0)} MiB; check ${a.wallMs.toFixed(0)} ms ${a.peakMiB.toFixed(0)} MiB (${a.processes}); one server ${b.wallMs.toFixed(0)} ms ${b.peakMiB.toFixed(0)} MiB (${b.processes})\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const after = machineFacts();
  const tsc = runs['tsc'] ?? [];
  const row = (label: string, s: Sample[]): string =>
    `| ${label} | ${median(s.map((x) => x.wallMs)).toFixed(0)} | ${median(s.map((x) => x.peakMiB)).toFixed(0)} | ${(median(s.map((x) => x.peakMiB)) / median(tsc.map((x) => x.peakMiB))).toFixed(2)}× | ${Math.max(...s.map((x) => x.processes))} |`;
  process.stdout.write(
    [
      `Command: \`npm run build && node bench/check-solution.ts --programs ${PROGRAMS} --files ${FILES} --rounds ${ROUNDS}\` (${after.date}, commit ${after.commit}).`,
      `Load average: ${fmtLoad(before.load)} at start, ${fmtLoad(after.load)} at the end, ${before.cpuCount} CPUs.`,
      '',
      '| Run | Wall median (ms) | Peak RSS median (MiB) | vs tsc -b | Processes |',
      '|---|---|---|---|---|',
      row('`tsc -b --force` (5.9.3)', tsc),
      row('`check .` (one server per program)', runs['perProgram'] ?? []),
      row('`check .` with one server for the solution', runs['oneServer'] ?? []),
      '',
    ].join('\n'),
  );
}

await main();
