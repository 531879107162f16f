/**
 * One server's benchmark: (a) engine, (b) raw floor and (c) transient side by side on their own
 * copies of the generated project, started one at a time and then measured interleaved
 * (round-robin per iteration, order rotated) so machine load hits all clients alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchDriver, DiagSample, PublishCycle } from './driver-types.ts';
import { EngineDriver, type EngineLogCounts } from './engine-driver.ts';
import { generateProject } from './generate-project.ts';
import { mixRound, warmMix, type MixRound } from './mixed-batch.ts';
import { killSurvivors, processTree, treeRss } from './process-tree.ts';
import { RawLspDriver } from './raw-lsp-driver.ts';
import type { ServerSpec } from './server-specs.ts';
import { TransientDriver } from './transient-driver.ts';

/** Knobs of a run. */
export interface SuiteOptions {
  /** Cold starts per client (each a fresh server). */
  coldRounds: number;
  /** Timed edits per client (alternating: introduce the error, fix it). */
  iterations: number;
  /** Rounds of the mixed batch. */
  mixRounds: number;
  /** `diagnosticsSettleMs` of the extra engine variant in the breakdown; 0 = none. */
  variantSettleMs: number;
  /** Progress lines go here. */
  progress(line: string): void;
}

/** Everything measured for one client. */
export interface ClientResult {
  label: string;
  cold: DiagSample[];
  /** Edits that introduce the error. */
  editOn: DiagSample[];
  /** Edits that fix it (the list becomes empty). */
  editOff: DiagSample[];
  completion: number[];
  completionItems: number;
  mix?: MixRound[];
  rss?: { mib: number; processes: number };
  /** Server processes still alive after stop, killed by the benchmark. */
  killedAfterStop: number[];
  /** What each didOpen/didChange made the server publish (floor client, push servers). */
  publishCycles: PublishCycle[];
}

/** One server's results. */
export interface SuiteResult {
  spec: ServerSpec;
  engine: ClientResult;
  raw: ClientResult;
  transient: ClientResult;
  /** (c) judged by the settle rule instead of the oracle (push servers only). */
  transientSettle?: { settleMs: number; on: DiagSample[]; off: DiagSample[] };
  /** The engine with another `diagnosticsSettleMs` (breakdown only). */
  engineVariant?: { settleMs: number; on: DiagSample[]; off: DiagSample[]; killedAfterStop: number[] };
  engineSettleMs: number;
  engineLog: EngineLogCounts;
  engineOpenDocuments: number;
  wallMs: number;
}

const client = (label: string): ClientResult => ({ label, cold: [], editOn: [], editOff: [], completion: [], completionItems: 0, killedAfterStop: [], publishCycles: [] });
const rotate = <T>(list: readonly T[], by: number): T[] => list.map((_, i) => list[(i + by) % list.length] as T);
const editValue = (i: number, base: number): number | undefined => (i % 2 === 0 ? base + i : undefined);

async function stopChecked(driver: BenchDriver, result: ClientResult): Promise<void> {
  const pids = processTree(driver.serverPids());
  await driver.stop();
  result.publishCycles.push(...(driver.publishCycles?.() ?? []));
  await sleep(300);
  result.killedAfterStop.push(...killSurvivors(pids));
}

/**
 * @param spec the server
 * @param options knobs
 * @param live drivers started so far are added here, so the caller can stop them on failure
 * @returns the measurements
 */
export async function runSuite(spec: ServerSpec, options: SuiteOptions, live: Set<BenchDriver>): Promise<SuiteResult> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), `dsh-lsp-bench-${spec.key}-`));
  const log = options.progress;
  try {
    const projects = {
      engine: generateProject(join(dir, 'engine')),
      raw: generateProject(join(dir, 'raw')),
      transient: generateProject(join(dir, 'transient')),
      variant: generateProject(join(dir, 'engine-variant')),
    };
    const results = { engine: client('(a) engine'), raw: client('(b) raw floor'), transient: client('(c) transient') };
    const make = {
      engine: (): BenchDriver => new EngineDriver(spec, projects.engine, { label: '(a) engine' }),
      raw: (): BenchDriver => new RawLspDriver(spec, projects.raw),
      transient: (): BenchDriver => new TransientDriver(spec, projects.transient),
    };
    type Kind = keyof typeof make;
    const kinds: Kind[] = ['engine', 'raw', 'transient'];
    const drivers = {} as Record<Kind, BenchDriver>;

    for (let round = 0; round < options.coldRounds; round++) {
      for (const kind of rotate(kinds, round)) {
        const driver = make[kind]();
        live.add(driver);
        const sample = await driver.coldStart();
        results[kind].cold.push(sample);
        log(`  cold ${round + 1}/${options.coldRounds} ${results[kind].label}: ${sample.ms.toFixed(0)} ms${sample.ok ? '' : ` (${sample.note})`}`);
        if (round < options.coldRounds - 1) {
          await stopChecked(driver, results[kind]);
          live.delete(driver);
        } else {
          drivers[kind] = driver;
        }
      }
    }
    const engine = drivers.engine as EngineDriver;
    const transient = drivers.transient as TransientDriver;
    let variant: EngineDriver | undefined;
    if (options.variantSettleMs > 0 && spec.engineDiagnostics === 'push') {
      variant = new EngineDriver(spec, projects.variant, { label: `(a) engine, diagnosticsSettleMs ${options.variantSettleMs}`, settleMs: options.variantSettleMs });
      live.add(variant);
      await variant.coldStart();
    }
    const settleMs = engine.settleMs;
    const transientSettle = spec.diagnostics === 'push' ? { settleMs, on: [] as DiagSample[], off: [] as DiagSample[] } : undefined;
    const engineVariant = variant === undefined ? undefined : { settleMs: variant.settleMs, on: [] as DiagSample[], off: [] as DiagSample[], killedAfterStop: [] as number[] };

    log('  warm-up edits');
    for (const value of [50, undefined]) {
      for (const kind of kinds) await drivers[kind].edit(value);
      await variant?.edit(value);
    }
    log(`  ${options.iterations} interleaved edits`);
    for (let i = 0; i < options.iterations; i++) {
      const value = editValue(i, 100);
      const steps: Array<() => Promise<void>> = kinds.map((kind) => async () => {
        const sample = await drivers[kind].edit(value);
        (value === undefined ? results[kind].editOff : results[kind].editOn).push(sample);
      });
      if (transientSettle !== undefined) {
        steps.push(async () => {
          const sample = await transient.editSettled(editValue(i, 1000), settleMs);
          (value === undefined ? transientSettle.off : transientSettle.on).push(sample);
        });
      }
      if (variant !== undefined && engineVariant !== undefined) {
        const v = variant;
        steps.push(async () => {
          const sample = await v.edit(value);
          (value === undefined ? engineVariant.off : engineVariant.on).push(sample);
        });
      }
      for (const step of rotate(steps, i)) await step();
    }

    log(`  ${options.iterations} interleaved completions`);
    for (const kind of kinds) await drivers[kind].completion();
    for (let i = 0; i < options.iterations; i++) {
      for (const kind of rotate(kinds, i)) {
        const { ms, items } = await drivers[kind].completion();
        results[kind].completion.push(ms);
        results[kind].completionItems = items;
      }
    }

    log(`  mixed batch, ${options.mixRounds} rounds`);
    const mixKinds: Kind[] = ['engine', 'raw'];
    for (const kind of mixKinds) {
      await drivers[kind].resetApp();
      const batch = drivers[kind].mix?.();
      if (batch !== undefined) await warmMix(batch);
      results[kind].mix = [];
    }
    for (let round = 0; round < options.mixRounds; round++) {
      for (const kind of rotate(mixKinds, round)) {
        const batch = drivers[kind].mix?.();
        if (batch !== undefined) results[kind].mix?.push(await mixRound(batch));
      }
    }

    for (const kind of kinds) results[kind].rss = treeRss(drivers[kind].serverPids());
    const engineOpenDocuments = engine.openDocuments();
    for (const kind of kinds) {
      await stopChecked(drivers[kind], results[kind]);
      live.delete(drivers[kind]);
    }
    if (variant !== undefined && engineVariant !== undefined) {
      const stopped = client(variant.label);
      await stopChecked(variant, stopped);
      engineVariant.killedAfterStop = stopped.killedAfterStop;
      live.delete(variant);
    }
    const out: SuiteResult = {
      spec,
      ...results,
      engineSettleMs: settleMs,
      engineLog: engine.logCounts,
      engineOpenDocuments,
      wallMs: performance.now() - started,
    };
    if (transientSettle !== undefined) out.transientSettle = transientSettle;
    if (engineVariant !== undefined) out.engineVariant = engineVariant;
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
