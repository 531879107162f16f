/**
 * Diagnostics strategies on typescript-language-server (issue 8), all columns in one run:
 * (a) the engine with the strategy it picks (tsserver passthrough), (b) the raw push floor,
 * (c) the transient lifecycle, (d) the engine with push forced — warm post-edit diagnostics
 * for four edit kinds (introduce an error, change it, fix it, keep a clean file clean), cold
 * start to the first fresh answer, a whole-project `diagnosticsMany` against `tsc --noEmit -p`
 * (wall, peak RSS), and the cost of the cross-file sync before each request (decision 0010).
 * Every answer is checked against the expected list; a `fresh` answer that is wrong is counted.
 *
 *   node bench/diagnostics-strategies.ts [--iterations N] [--write]
 *
 * `--write` replaces the `diagnostics-strategies` block of docs/benchmarks.md; the hand-kept reading
 * after it and every other section are kept (bench/bench-doc.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EngineDiagnostic, FileDiagnostics } from '../src/lsp/engine-types.ts';
import { LspEngine } from '../src/lsp/lsp-engine.ts';
import { resolveServerExecutables } from '../src/lsp/resolve-server-executables.ts';
import { sweepOpenFiles } from '../src/documents/open-set-sweep.ts';
import { createHarnessServices, type HarnessServices } from '../tests/support/harness-services.ts';
import { reflects, type DiagItem } from './diag-oracle.ts';
import { writeBenchSection } from './bench-doc.ts';
import type { BenchDriver } from './driver-types.ts';
import { generateProject, type BenchProject, type DiagExpectation } from './generate-project.ts';
import { fmtLoad, machineFacts } from './machine.ts';
import { processTree, rssKiB } from './process-tree.ts';
import { RawLspDriver } from './raw-lsp-driver.ts';
import { tslsSpec } from './server-specs.ts';
import { fmtMedianP95, fmtMs, fmtRatio, summarize } from './stats.ts';
import { TransientDriver } from './transient-driver.ts';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '10' }, write: { type: 'boolean', default: false } } });
const ITERATIONS = Number(values.iterations);
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const spec = tslsSpec();
const SEVERITY: Record<EngineDiagnostic['severity'], number> = { error: 1, warning: 2, information: 3, hint: 4 };
const toItems = (d: FileDiagnostics): DiagItem[] => d.diagnostics.map((x) => ({ line: x.range.start.line, severity: SEVERITY[x.severity], message: x.message }));

type Kind = 'introduce' | 'change' | 'fix' | 'clean stays clean';
const KINDS: Kind[] = ['introduce', 'change', 'fix', 'clean stays clean'];

/** An engine client on its own project copy. */
class EngineClient {
  harness: HarnessServices | undefined;
  engine: LspEngine | undefined;
  readonly project: BenchProject;
  readonly strategy: 'auto' | 'push';
  constructor(project: BenchProject, strategy: 'auto' | 'push') {
    this.project = project;
    this.strategy = strategy;
  }
  async start(): Promise<{ ms: number; ok: boolean }> {
    this.harness = await createHarnessServices(this.project.root);
    const config = spec.engineConfig(undefined);
    const executables = await resolveServerExecutables(config, this.harness.subprocess);
    const t0 = performance.now();
    this.engine = new LspEngine({ config, subprocess: this.harness.subprocess, fs: this.harness.fs, executables, diagnosticsStrategy: this.strategy });
    const d = await this.engine.diagnostics(this.target(), { waitMs: 60_000 });
    return { ms: performance.now() - t0, ok: d.state === 'fresh' && reflects(toItems(d), { kind: 'error', line: this.project.errorLine, value: this.project.initialErrorValue }) };
  }
  async edit(text: string, expect: DiagExpectation): Promise<{ ms: number; fresh: boolean; ok: boolean }> {
    const t0 = performance.now();
    writeFileSync(this.project.appPath, text);
    const d = await (this.engine as LspEngine).diagnostics(this.target(), { waitMs: 60_000 });
    return { ms: performance.now() - t0, fresh: d.state === 'fresh', ok: reflects(toItems(d), expect) };
  }
  target(): { root: string; path: string } {
    return { root: this.project.root, path: this.project.appPath };
  }
  async stop(): Promise<void> {
    await this.engine?.dispose();
    await this.harness?.dispose();
  }
}

const errorText = (p: BenchProject, v: number): string => p.appText(v);
const cleanText = (p: BenchProject, v: 0 | 1 | 2): string => p.appText(undefined).replace(p.errorLineText(undefined), p.errorLineText(undefined).replace('= 1;', `= ${v};`));

const dir = mkdtempSync(join(tmpdir(), 'dsh-lsp-strategies-'));
const start = machineFacts();
const runStart = performance.now();
const projects = { a: generateProject(join(dir, 'a')), b: generateProject(join(dir, 'b')), c: generateProject(join(dir, 'c')), d: generateProject(join(dir, 'd')) };
const a = new EngineClient(projects.a, 'auto');
const dPush = new EngineClient(projects.d, 'push');
const raw: BenchDriver = new RawLspDriver(spec, projects.b);
const transient: BenchDriver = new TransientDriver(spec, projects.c);

const samples: Record<string, Record<Kind, number[]>> = {};
const empty = (): Record<Kind, number[]> => ({ introduce: [], change: [], fix: [], 'clean stays clean': [] });
for (const label of ['a', 'b', 'c', 'd']) samples[label] = empty();
const cold: Record<string, number> = {};
const wrongFresh: Record<string, number> = { a: 0, d: 0 };
const nonFresh: Record<string, number> = { a: 0, d: 0 };
const missed: Record<string, number> = { b: 0, c: 0 };

try {
  log('cold starts');
  cold.a = (await a.start()).ms;
  cold.d = (await dPush.start()).ms;
  cold.b = (await raw.coldStart()).ms;
  cold.c = (await transient.coldStart()).ms;
  for (let i = 0; i < ITERATIONS; i++) {
    log(`round ${i + 1}/${ITERATIONS}`);
    const steps: Array<[Kind, number | undefined, 0 | 1 | 2 | undefined]> = [
      ['introduce', 100 + i, undefined],
      ['change', 500 + i, undefined],
      ['fix', undefined, 1],
      ['clean stays clean', undefined, 2],
    ];
    for (const [kind, value, clean] of steps) {
      for (const [label, client] of [['a', a], ['d', dPush]] as const) {
        const text = value !== undefined ? errorText(client.project, value) : cleanText(client.project, clean ?? 1);
        const expect: DiagExpectation = value !== undefined ? { kind: 'error', line: client.project.errorLine, value } : { kind: 'clean' };
        const r = await client.edit(text, expect);
        (samples[label] as Record<Kind, number[]>)[kind].push(r.ms);
        if (r.fresh && !r.ok) wrongFresh[label] = (wrongFresh[label] ?? 0) + 1;
        if (!r.fresh) nonFresh[label] = (nonFresh[label] ?? 0) + 1;
      }
      if (kind === 'clean stays clean') continue; // (b)/(c) cannot tell silence from an answer
      for (const [label, driver] of [['b', raw], ['c', transient]] as const) {
        const r = await driver.edit(value);
        (samples[label] as Record<Kind, number[]>)[kind].push(r.ms);
        if (!r.ok) missed[label] = (missed[label] ?? 0) + 1;
      }
    }
  }

  log('whole project: diagnosticsMany vs tsc --noEmit');
  const files = readdirSync(join(projects.a.root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(projects.a.root, 'src', f));
  const batch = await measureBatch(files);
  const tsc = await measureTsc(batch.root);

  log('cross-file sync cost');
  const sweep = await measureSync();

  const { report } = render({ batch, tsc, sweep, files: files.length });
  process.stdout.write(report);
  if (values.write) writeSection(report);
} finally {
  await Promise.allSettled([a.stop(), dPush.stop(), raw.stop(), transient.stop()]);
  rmSync(dir, { recursive: true, force: true });
}

/** A fresh engine (auto strategy) on a fresh copy checks the whole project. */
async function measureBatch(files: string[]): Promise<{ root: string; ms: number; peakMiB: number; fresh: number; errors: number; wrongFresh: number }> {
  const project = generateProject(join(dir, 'batch'));
  const client = new EngineClient(project, 'auto');
  client.harness = await createHarnessServices(project.root);
  const config = spec.engineConfig(undefined);
  const executables = await resolveServerExecutables(config, client.harness.subprocess);
  const paths = files.map((f) => f.replace(projects.a.root, project.root));
  // same content as the (a) copy at the start: the app file holds its initial error
  const peak = { kib: 0 };
  const t0 = performance.now();
  client.engine = new LspEngine({ config, subprocess: client.harness.subprocess, fs: client.harness.fs, executables });
  const timer = setInterval(() => {
    const pids = processTree((client.engine?.liveServers() ?? []).flatMap((s) => (s.pid === undefined ? [] : [s.pid])));
    peak.kib = Math.max(peak.kib, pids.reduce((n, p) => n + rssKiB(p), 0));
  }, 20);
  try {
    const entries = await client.engine.diagnosticsMany(project.root, paths);
    const ms = performance.now() - t0;
    let fresh = 0;
    let errors = 0;
    let wrong = 0;
    for (const e of entries) {
      if ('error' in e) continue;
      if (e.state === 'fresh') fresh++;
      const errs = e.diagnostics.filter((d) => d.severity === 'error');
      errors += errs.length;
      const expectedErrors = e.path === project.appPath ? 1 : 0;
      if (e.state === 'fresh' && errs.length !== expectedErrors) wrong++;
    }
    return { root: project.root, ms, peakMiB: peak.kib / 1024, fresh, errors, wrongFresh: wrong };
  } finally {
    clearInterval(timer);
    await client.stop();
  }
}

/** `tsc --noEmit -p` of the same project, with its peak RSS (sampled). */
async function measureTsc(root: string): Promise<{ ms: number; peakMiB: number; errors: number }> {
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const t0 = performance.now();
  const child = spawn(process.execPath, [tsc, '--noEmit', '-p', root], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, child.pid === undefined ? 0 : rssKiB(child.pid))), 20);
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
  clearInterval(timer);
  return { ms: performance.now() - t0, peakMiB: peak / 1024, errors: (out.match(/error TS/g) ?? []).length };
}

/**
 * Cost of the sync before a request (sweep of the open documents; watcher events are applied as
 * they come) on a 200-file and a 2,000-file workspace, with 1, 50 and 256 (the cap) files open.
 */
async function measureSync(): Promise<Array<{ files: number; open: number; median: number; p95: number }>> {
  const out: Array<{ files: number; open: number; median: number; p95: number }> = [];
  const harness = await createHarnessServices();
  try {
    for (const total of [200, 2000]) {
      const root = join(dir, `sweep-${total}`);
      for (let i = 0; i < total; i++) {
        const sub = join(root, `d${Math.floor(i / 50)}`);
        mkdirSync(sub, { recursive: true });
        writeFileSync(join(sub, `f${i}.ts`), `export const v${i} = ${i};\n`);
      }
      for (const open of [1, 50, 256]) {
        const paths = Array.from({ length: Math.min(open, total) }, (_, i) => join(root, `d${Math.floor(i / 50)}`, `f${i}.ts`));
        const entries = await Promise.all(paths.map(async (path) => ({ path, version: (await harness.fs.stat(await harness.fs.resolve(path)))?.version ?? '' })));
        const times: number[] = [];
        for (let r = 0; r < 30; r++) {
          const t = performance.now();
          const changes = await sweepOpenFiles(harness.fs, entries);
          times.push(performance.now() - t);
          if (changes.length > 0) throw new Error('sweep saw a change that did not happen');
        }
        const s = summarize(times);
        out.push({ files: total, open, median: s.median, p95: s.p95 });
      }
    }
  } finally {
    await harness.dispose();
  }
  return out;
}

function render(extra: {
  batch: Awaited<ReturnType<typeof measureBatch>>;
  tsc: Awaited<ReturnType<typeof measureTsc>>;
  sweep: Awaited<ReturnType<typeof measureSync>>;
  files: number;
}): { report: string } {
  const end = machineFacts();
  const floor = samples.b as Record<Kind, number[]>;
  const lines: string[] = [];
  lines.push('## Diagnostics strategies (issue 8)', '');
  lines.push(`Command: \`node_modules/.bin/node bench/diagnostics-strategies.ts --iterations ${ITERATIONS}\` — commit ${start.commit}, ${start.date}, ${start.cpuCount} × ${start.cpuModel}, Node ${start.node}.`);
  lines.push(`Load average (1/5/15 min) at start ${fmtLoad(start.load)}, at end ${fmtLoad(end.load)} (shared machine; other jobs ran). Wall ${fmtMs(performance.now() - runStart)}.`, '');
  lines.push(`${spec.title.replace(', push diagnostics — the embedded default', '')}; generated ${extra.files}-file project (bench/generate-project.ts); ${ITERATIONS} rounds of four one-line edits of \`src/app.ts\`, clients interleaved.`);
  lines.push('(a) engine, strategy chosen (tsserver passthrough) · (b) raw client, first push showing the edit (floor; it cannot tell when a push is final) · (c) transient open → request → close · (d) engine with push forced (`diagnosticsStrategy: "push"`, the settle rules of decision 0001).', '');
  lines.push('| edit (median / p95) | (a) engine | (b) raw floor | (c) transient | (d) engine, push | (a) / (b) |', '|---|---|---|---|---|---|');
  for (const kind of KINDS) {
    const s = (k: string): ReturnType<typeof summarize> => summarize((samples[k] as Record<Kind, number[]>)[kind]);
    const ratio = s('b').n === 0 ? '—' : fmtRatio(s('a').median / s('b').median);
    lines.push(`| ${kind} | ${fmtMedianP95(s('a'))} | ${fmtMedianP95(s('b'))} | ${fmtMedianP95(s('c'))} | ${fmtMedianP95(s('d'))} | ${ratio} |`);
  }
  const allFloor = summarize(KINDS.flatMap((k) => floor[k]));
  const allA = summarize(KINDS.flatMap((k) => (samples.a as Record<Kind, number[]>)[k]));
  lines.push(`| all edits | ${fmtMedianP95(allA)} | ${fmtMedianP95(allFloor)} | | | ${fmtRatio(allA.median / allFloor.median)} |`, '');
  lines.push(`Cold start to the first fresh answer: (a) ${fmtMs(cold.a ?? NaN)}, (b) ${fmtMs(cold.b ?? NaN)} (first push), (c) ${fmtMs(cold.c ?? NaN)}, (d) ${fmtMs(cold.d ?? NaN)}; (a)/(b) ${fmtRatio((cold.a ?? NaN) / (cold.b ?? NaN))} (one cold start each).`, '');
  lines.push(`Correctness: answers marked fresh that did not match the text — (a) ${wrongFresh.a}, (d) ${wrongFresh.d}; non-fresh answers — (a) ${nonFresh.a}, (d) ${nonFresh.d}; (b)/(c) answers not showing the edit — ${missed.b} / ${missed.c}.`, '');
  const { batch, tsc } = extra;
  lines.push('Whole project (fresh engine, `diagnosticsMany` over every `.ts` file; wall includes server start and project load) vs `tsc --noEmit -p` (TypeScript 5.9.3) on the same project:', '');
  lines.push('| | wall | peak RSS | errors found |', '|---|---|---|---|');
  lines.push(`| engine \`diagnosticsMany\` | ${fmtMs(batch.ms)} | ${batch.peakMiB.toFixed(0)} MiB (server tree) | ${batch.errors} (${batch.fresh} files fresh, ${batch.wrongFresh} fresh-but-wrong) |`);
  lines.push(`| \`tsc --noEmit -p\` | ${fmtMs(tsc.ms)} | ${tsc.peakMiB.toFixed(0)} MiB | ${tsc.errors} |`);
  lines.push(`| ratio | ${fmtRatio(batch.ms / tsc.ms)} | ${fmtRatio(batch.peakMiB / tsc.peakMiB)} | |`, '');
  lines.push('Cross-file sync before each request (decision 0010): `stat` of every open document through the harness fs (watcher events cost nothing per request). 30 sweeps each, no change present:', '');
  lines.push('| workspace files | open documents | median | p95 |', '|---|---|---|---|');
  for (const s of extra.sweep) lines.push(`| ${s.files} | ${s.open} | ${fmtMs(s.median)} | ${fmtMs(s.p95)} |`);
  lines.push('');
  return { report: lines.join('\n') + '\n' };
}

function writeSection(section: string): void {
  writeBenchSection('diagnostics-strategies', section);
  log('wrote the diagnostics-strategies block of docs/benchmarks.md');
}
