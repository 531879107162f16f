/**
 * `dsh-lsp-actions check` against `tsc --noEmit -p` on the same generated project, side by side
 * (issue 9: targets ≤ 1.5× tsc's wall time, ≤ 2× its peak memory).
 *
 *   npm run build && node bench/check-vs-tsc.ts [--files N] [--classes N] [--rounds N] [--write] [--keep]
 *   npm run build && node bench/check-vs-tsc.ts --project DIR [--rounds N]     (an existing project, e.g. a real repository)
 *   npm run build && node bench/check-vs-tsc.ts --typescript 7 [--files N] [--rounds N]
 *     (TypeScript 7.0.2 from tests/servers: the generated project gets it as its
 *      node_modules/typescript, so `check` runs its native `tsc --lsp`, and is compared with its native `tsc`)
 *   … --timeline: also the median time of each phase of `check` (DSH_LSP_ACTIONS_TIMELINE=1:
 *     composition booted, plan done, server ready, project loaded (TypeScript 7: the server's
 *     warm load, decision 0110), first answer, all answers, report written)
 *
 * Generates a TypeScript project of N files (default 300: a tsconfig, N-1 modules importing
 * lower-numbered ones, three of them with a type error; `--classes K` gives each module K
 * interface/class/function groups, ~14 lines each, default 1) in a temp directory; then, per round,
 * runs `tsc --noEmit -p .` (the embedded TypeScript 5.9.3) and `check .` (the built CLI, which
 * picks the same TypeScript) one after the other, each a fresh process tree. Wall time is from
 * spawn to exit; peak memory is the largest sum of RSS over the process and all its descendants
 * (the CLI, typescript-language-server, tsserver), sampled every 50 ms from /proc (Linux only).
 * Both must report the same three errors, or the run fails. `--write` puts the table into
 * docs/benchmarks.md between the `check-vs-tsc` markers (appended when absent); `--keep` leaves
 * the generated project in place and prints where.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import { errorModulesOf, generateCheckProject } from './check-project.ts';
import { writeBenchSection } from './bench-doc.ts';
import { parseTimeline } from '../src/cli/check-timeline.ts';
import { fmtLoad, machineFacts } from './machine.ts';
import { treeRss } from './process-tree.ts';

const REPO = join(import.meta.dirname, '..');
const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const TS7_PACKAGE = join(REPO, 'tests', 'servers', 'node_modules', 'typescript7');
const TS7_TSC = join(REPO, 'tests', 'servers', 'node_modules', '@typescript', `typescript-${process.platform}-${process.arch}`, 'lib', 'tsc');

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    classes: { type: 'string', default: '1' },
    project: { type: 'string' },
    write: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    typescript: { type: 'string', default: '5' },
    timeline: { type: 'boolean', default: false },
  },
});
/** `--typescript 7`: TypeScript 7's native tsc and language server instead of 5.9. */
const NATIVE = values.typescript === '7';
const FILES = Number(values.files);
const ROUNDS = Number(values.rounds);
/** Declaration groups per module (interface, class, two functions): 1 ≈ 20 lines, 6 ≈ 80. */
const CLASSES = Math.max(1, Number(values.classes));

/** Three modules hold one type error each; the rest are clean. */
const ERROR_MODULES = errorModulesOf(FILES);
/** `--project DIR`: an existing project (a real repository) instead of the generated one. */
const PROJECT = values.project === undefined ? undefined : resolvePath(values.project);

interface Sample {
  wallMs: number;
  peakMiB: number;
  processes: number;
  code: number;
  stdout: string;
  stderr: string;
}

function measure(argv: string[], cwd: string, command = process.execPath, env: Record<string, string> = {}): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: dirname(process.execPath), ...env } });
    let stdout = '';
    let stderr = '';
    let peakMiB = 0;
    let processes = 0;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const sample = (): void => {
      if (child.pid === undefined) return;
      const now = treeRss([child.pid]);
      peakMiB = Math.max(peakMiB, now.mib);
      processes = Math.max(processes, now.processes);
    };
    const timer = setInterval(sample, 50);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ wallMs: performance.now() - started, peakMiB, processes, code: code ?? -1, stdout, stderr });
    });
  });
}

function tscErrors(stdout: string): string[] {
  return [...stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+)/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
}

function checkErrors(stdout: string): string[] {
  const doc = JSON.parse(stdout) as { files: Array<{ path: string; diagnostics: Array<{ severity: string; line: number; column: number; code: unknown }> }> };
  return doc.files.flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${f.path}:${d.line}:${d.column} ${String(d.code)}`)).sort();
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/** Median ms since the process started at which `check` reached each phase (`--timeline`). */
function timelineTable(samples: Sample[]): string[] {
  const phases = new Map<string, number[]>();
  for (const sample of samples) for (const [phase, ms] of parseTimeline(sample.stderr)) phases.set(phase, [...(phases.get(phase) ?? []), ms]);
  const rows = [...phases].map(([phase, ms]) => ({ phase, at: median(ms) })).sort((a, b) => a.at - b.at);
  return ['| `check` phase | Median ms since process start |', '|---|---|', ...rows.map((r) => `| ${r.phase} | ${r.at.toFixed(0)} |`), `| exit (wall) | ${median(samples.map((s) => s.wallMs)).toFixed(0)} |`];
}

async function main(): Promise<void> {
  if (!existsSync(MAIN)) throw new Error('run `npm run build` first: lib/cli/main.js is missing');
  const root = PROJECT ?? mkdtempSync(join(tmpdir(), 'dsh-lsp-bench-check-'));
  const before = machineFacts();
  const tsc: Sample[] = [];
  const check: Sample[] = [];
  try {
    if (PROJECT === undefined) generateCheckProject(root, FILES, CLASSES);
    if (NATIVE && !existsSync(join(root, 'node_modules', 'typescript'))) {
      mkdirSync(join(root, 'node_modules'), { recursive: true });
      symlinkSync(TS7_PACKAGE, join(root, 'node_modules', 'typescript'));
    }
    for (let round = 0; round < ROUNDS; round++) {
      // `--incremental false`: a project's own tsconfig may ask for a build-info cache, which would
      // let every round after the first skip the work `check` does cold.
      const tscArgs = ['--noEmit', '-p', '.', '--pretty', 'false', ...(PROJECT === undefined ? [] : ['--incremental', 'false'])];
      const t = NATIVE ? await measure(tscArgs, root, TS7_TSC) : await measure([TSC, ...tscArgs], root);
      const c = await measure([MAIN, 'check', '.', '--format', 'json', '--no-progress'], root, process.execPath, values.timeline ? { DSH_LSP_ACTIONS_TIMELINE: '1' } : {});
      const expected = tscErrors(t.stdout);
      const got = checkErrors(c.stdout);
      const countOk = PROJECT !== undefined || expected.length === ERROR_MODULES.size;
      if (!countOk || JSON.stringify(expected) !== JSON.stringify(got)) {
        throw new Error(`round ${round}: check and tsc disagree\n tsc:   ${expected.join(', ')}\n check: ${got.join(', ')}`);
      }
      tsc.push(t);
      check.push(c);
      process.stderr.write(`round ${round + 1}/${ROUNDS}: tsc ${t.wallMs.toFixed(0)} ms ${t.peakMiB.toFixed(0)} MiB; check ${c.wallMs.toFixed(0)} ms ${c.peakMiB.toFixed(0)} MiB (${c.processes} processes)\n`);
    }
  } finally {
    if (PROJECT !== undefined) {
      // an existing project is left as it was
    } else if (values.keep) process.stderr.write(`project kept in ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  }
  const after = machineFacts();
  const row = (name: string, s: Sample[]): string =>
    `| ${name} | ${median(s.map((x) => x.wallMs)).toFixed(0)} | ${s.map((x) => x.wallMs.toFixed(0)).join(', ')} | ${median(s.map((x) => x.peakMiB)).toFixed(0)} | ${Math.max(...s.map((x) => x.processes))} |`;
  const wallRatio = median(check.map((x) => x.wallMs)) / median(tsc.map((x) => x.wallMs));
  const memRatio = median(check.map((x) => x.peakMiB)) / median(tsc.map((x) => x.peakMiB));
  const section = [
    '## check vs tsc',
    '',
    PROJECT === undefined
      ? `Command: \`npm run build && node bench/check-vs-tsc.ts${NATIVE ? ' --typescript 7' : ''} --files ${FILES}${CLASSES > 1 ? ` --classes ${CLASSES}` : ''} --rounds ${ROUNDS} --write\` (${after.date}, commit ${after.commit}).`
      : `Command: \`npm run build && node bench/check-vs-tsc.ts --project ${PROJECT}${NATIVE ? ' --typescript 7' : ''} --rounds ${ROUNDS}${values.timeline ? ' --timeline' : ''}\` (${after.date}, commit ${after.commit}).`,
    PROJECT === undefined
      ? `Generated project: ${FILES} files (tsconfig + ${FILES - 1} modules of ${CLASSES} declaration group${CLASSES > 1 ? 's' : ''} each, ~${6 + 14 * CLASSES} lines, importing lower-numbered ones, ${ERROR_MODULES.size} type errors); both tools report the same ${ERROR_MODULES.size} errors every round (checked).`
      : `Existing project ${PROJECT}; both tools report the same errors every round (checked).`,
    `Load average (1 / 5 / 15 min): ${fmtLoad(before.load)} at start, ${fmtLoad(after.load)} at the end, on ${before.cpuCount} CPUs — the machine is shared.`,
    '',
    '| Tool | Wall median (ms) | Wall per round (ms) | Peak RSS median (MiB, whole process tree) | Processes |',
    '|---|---|---|---|---|',
    row(NATIVE ? '`tsc --noEmit -p .` (TypeScript 7.0.2, native)' : '`tsc --noEmit -p .` (TypeScript 5.9.3)', tsc),
    row('`dsh-lsp-actions check .`', check),
    '',
    `Ratio check / tsc: wall ${wallRatio.toFixed(2)}× (target ≤ 1.5×), peak memory ${memRatio.toFixed(2)}× (target ≤ 2×).`,
    ...(values.timeline ? ['', ...timelineTable(check)] : []),
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (values.write) writeBenchSection('check-vs-tsc', section);
}

await main();
