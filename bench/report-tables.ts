/**
 * Markdown tables of one server's results: the side-by-side table, the targets, and the
 * breakdowns that explain them.
 */
import type { DiagSample } from './driver-types.ts';
import { aloneStats, type MixRound } from './mixed-batch.ts';
import { fmtMedianP95, fmtMs, fmtRatio, summarize, type Summary } from './stats.ts';
import type { ClientResult, SuiteResult } from './suite.ts';

const ms = (samples: readonly DiagSample[]): number[] => samples.map((s) => s.ms);
const edits = (c: ClientResult): DiagSample[] => [...c.editOn, ...c.editOff];
const bad = (samples: readonly DiagSample[]): number => samples.filter((s) => !s.ok).length;

/** Medians of the mixed batch over rounds. */
export interface MixSummary {
  wall: Summary;
  slowest: Summary;
  sum: Summary;
  /** Per round wall ÷ slowest alone. */
  overSlowest: Summary;
  overSum: Summary;
  slowestName: string;
}

/**
 * @param rounds the rounds
 * @returns medians over rounds
 */
export function summarizeMix(rounds: readonly MixRound[]): MixSummary {
  const stats = rounds.map((r) => ({ ...aloneStats(r), wall: r.wall }));
  const names = stats.map((s) => s.slowestName);
  const slowestName = names.sort((a, b) => names.filter((n) => n === b).length - names.filter((n) => n === a).length)[0] ?? '';
  return {
    wall: summarize(stats.map((s) => s.wall)),
    slowest: summarize(stats.map((s) => s.slowest)),
    sum: summarize(stats.map((s) => s.sum)),
    overSlowest: summarize(stats.map((s) => s.wall / s.slowest)),
    overSum: summarize(stats.map((s) => s.wall / s.sum)),
    slowestName,
  };
}

/** Pass/fail of the targets for one server. */
export interface TargetVerdicts {
  vsFloor: { ratio: number; pass: boolean };
  vsTransient: { ratio: number; pass: boolean };
  parallel: { ratio: number; pass: boolean; overSum: number; floorRatio: number };
}

/**
 * @param r one server's results
 * @returns the verdicts (medians compared)
 */
export function targets(r: SuiteResult): TargetVerdicts {
  const a = summarize(ms(edits(r.engine))).median;
  const b = summarize(ms(edits(r.raw))).median;
  const c = summarize(ms(edits(r.transient))).median;
  const mix = summarizeMix(r.engine.mix ?? []);
  const floorMix = summarizeMix(r.raw.mix ?? []);
  return {
    vsFloor: { ratio: a / b, pass: a <= 1.2 * b },
    vsTransient: { ratio: c / a, pass: c >= 3 * a },
    parallel: { ratio: mix.overSlowest.median, pass: mix.overSlowest.median <= 1.5, overSum: mix.overSum.median, floorRatio: floorMix.overSlowest.median },
  };
}

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const verdict = (pass: boolean): string => (pass ? '**met**' : '**missed**');
const median = (c: ClientResult, pick: (c: ClientResult) => readonly number[]): number => summarize(pick(c)).median;
const cold = (c: ClientResult): number[] => ms(c.cold);
const all = (c: ClientResult): number[] => ms(edits(c));
const editsOn = (c: ClientResult): number[] => ms(c.editOn);
const editsOff = (c: ClientResult): number[] => ms(c.editOff);
const completion = (c: ClientResult): number[] => c.completion;
/** Samples turned into "when the first publish showing the edit reached the engine". */
const reached = (s: DiagSample[]): DiagSample[] => s.filter((x) => x.firstSeenMs !== undefined).map((x) => ({ ms: x.firstSeenMs as number, ok: true }));
/** Samples turned into "how long the engine waited after that publish". */
const settleWait = (s: DiagSample[]): DiagSample[] => s.filter((x) => x.firstSeenMs !== undefined).map((x) => ({ ms: x.ms - (x.firstSeenMs as number), ok: true }));
const roundMedian = (rounds: MixRound[] | undefined, name: string, key: 'alone' | 'inParallel'): string =>
  fmtMs(summarize((rounds ?? []).map((round) => round[key][name] ?? Number.NaN)).median);

/**
 * @param r one server's results
 * @returns the side-by-side table
 */
export function mainTable(r: SuiteResult): string {
  const clients = [r.engine, r.raw, r.transient];
  const ratios = (pick: (c: ClientResult) => readonly number[]): string[] => [
    fmtRatio(median(r.engine, pick) / median(r.raw, pick)),
    fmtRatio(median(r.transient, pick) / median(r.engine, pick)),
  ];
  const mixes = clients.map((c) => (c.mix === undefined ? undefined : summarizeMix(c.mix)));
  const mixCell = (f: (m: MixSummary) => string): string[] => mixes.map((m) => (m === undefined ? 'not measured¹' : f(m)));
  const n = edits(r.engine).length;
  const lines = [
    row(['Measure', '(a) engine', '(b) raw floor', '(c) transient', '(a) ÷ (b)', '(c) ÷ (a)']),
    row(['---', '---', '---', '---', '---', '---']),
    row([`Cold start → first fresh diagnostics, median (n=${r.engine.cold.length}; min–max)`, ...clients.map((c) => coldCell(cold(c))), ...ratios(cold)]),
    row([`**Warm diagnostics after a one-line edit**, median / p95 (n=${n})`, ...clients.map((c) => `**${fmtMedianP95(summarize(all(c)))}**`), ...ratios(all)]),
    row([`· edit introduces the error (n=${r.engine.editOn.length})`, ...clients.map((c) => fmtMedianP95(summarize(editsOn(c)))), ...ratios(editsOn)]),
    row([`· edit fixes it, list becomes empty (n=${r.engine.editOff.length})`, ...clients.map((c) => fmtMedianP95(summarize(editsOff(c)))), ...ratios(editsOff)]),
    row([`Warm completion, median / p95 (n=${r.engine.completion.length}; items)`, ...clients.map((c) => `${fmtMedianP95(summarize(completion(c)))} (${c.completionItems})`), ...ratios(completion)]),
    row([`8 parallel mixed requests: wall, median of ${r.engine.mix?.length ?? 0} rounds`, ...mixCell((m) => fmtMs(m.wall.median)), '', '']),
    row(['· slowest request alone / sum of the 8 alone', ...mixCell((m) => `${fmtMs(m.slowest.median)} (${m.slowestName}) / ${fmtMs(m.sum.median)}`), '', '']),
    row(['· wall ÷ slowest alone / wall ÷ sum', ...mixCell((m) => `${fmtRatio(m.overSlowest.median)} / ${fmtRatio(m.overSum.median)}`), '', '']),
    row(['Server RSS after the run, whole process tree (processes)', ...clients.map((c) => (c.rss === undefined ? '—' : `${c.rss.mib.toFixed(0)} MiB (${c.rss.processes})`)), '', '']),
    row(['Diagnostics results not fresh or not showing the edit', ...clients.map((c) => `${bad([...c.cold, ...edits(c)])} of ${c.cold.length + edits(c).length}`), '', '']),
  ];
  return lines.join('\n');
}

function coldCell(values: number[]): string {
  const s = summarize(values);
  return `${fmtMs(s.median)} (${fmtMs(s.min)}–${fmtMs(s.max)})`;
}

/**
 * @param r one server's results
 * @returns other lifecycles and the engine's diagnostics breakdown
 */
export function breakdownTable(r: SuiteResult): string {
  const lines = [row(['Warm post-edit diagnostics', 'median / p95', 'introduces / fixes (medians)', 'not showing the edit']), row(['---', '---', '---', '---'])];
  const add = (label: string, on: DiagSample[], off: DiagSample[]): void => {
    lines.push(
      row([
        label,
        fmtMedianP95(summarize(ms([...on, ...off]))),
        `${fmtMs(summarize(ms(on)).median)} / ${fmtMs(summarize(ms(off)).median)}`,
        `${bad([...on, ...off])} of ${on.length + off.length}`,
      ]),
    );
  };
  add('(b) raw floor: first publish/pull showing the edit', r.raw.editOn, r.raw.editOff);
  const enginePush = r.spec.engineDiagnostics === 'push';
  if (enginePush) add('(a) engine: the first publish showing the edit reaches the engine', reached(r.engine.editOn), reached(r.engine.editOff));
  add(
    enginePush ? `(a) engine: result returned (diagnosticsSettleMs ${r.engineSettleMs}, the default)` : `(a) engine: result returned (${r.spec.engineDiagnostics})`,
    r.engine.editOn,
    r.engine.editOff,
  );
  if (enginePush) add('(a) engine: settle wait after that publish (returned − reached)', settleWait(r.engine.editOn), settleWait(r.engine.editOff));
  if (r.engineVariant !== undefined) add(`(a) engine with diagnosticsSettleMs ${r.engineVariant.settleMs} (not the default)`, r.engineVariant.on, r.engineVariant.off);
  add('(c) transient: first publish/pull showing the edit', r.transient.editOn, r.transient.editOff);
  if (r.transientSettle !== undefined) add(`(c) transient, settle rule: last publish after ${r.transientSettle.settleMs} ms quiet`, r.transientSettle.on, r.transientSettle.off);
  if (enginePush) {
    const coldReached = reached(r.engine.cold);
    lines.push(
      row([
        `Cold: first publish showing the error reaches the engine → engine returns (n=${r.engine.cold.length})`,
        `${fmtMs(summarize(ms(coldReached)).median)} → ${fmtMs(summarize(ms(r.engine.cold)).median)}`,
        `(b) ${fmtMs(summarize(ms(r.raw.cold)).median)}`,
        `${bad(r.engine.cold)} of ${r.engine.cold.length}`,
      ]),
    );
  }
  const spawn = summarize(ms(r.transient.cold));
  lines.push(row([`(c) spawn per call (= its cold start, n=${spawn.n})`, `${fmtMs(spawn.median)} (${fmtMs(spawn.min)}–${fmtMs(spawn.max)})`, '', '']));
  return lines.join('\n');
}

/**
 * @param r one server's results
 * @returns per-request times of the mixed batch (medians)
 */
export function mixTable(r: SuiteResult): string {
  const names = Object.keys(r.engine.mix?.[0]?.alone ?? {});
  const lines = [
    row(['Request', '(a) alone', '(a) done after, in the batch', '(b) alone', '(b) done after, in the batch']),
    row(['---', '---', '---', '---', '---']),
    ...names.map((name) =>
      row([name, roundMedian(r.engine.mix, name, 'alone'), roundMedian(r.engine.mix, name, 'inParallel'), roundMedian(r.raw.mix, name, 'alone'), roundMedian(r.raw.mix, name, 'inParallel')]),
    ),
  ];
  return lines.join('\n');
}

/**
 * @param r one server's results
 * @returns the targets table
 */
export function targetsTable(r: SuiteResult): string {
  const t = targets(r);
  const settle = r.transientSettle === undefined ? undefined : summarize(ms([...r.transientSettle.on, ...r.transientSettle.off])).median;
  const a = summarize(ms(edits(r.engine))).median;
  const others = [
    settle === undefined ? undefined : `vs (c) with the settle rule: ${fmtRatio(settle / a)}`,
    `vs (c) spawn per call: ${fmtRatio(summarize(ms(r.transient.cold)).median / a)}`,
  ].filter((x) => x !== undefined);
  return [
    row(['Target (issue 2)', 'Measured (medians)', 'Result']),
    row(['---', '---', '---']),
    row(['Warm post-edit diagnostics within 1.2× of (b)', `(a) ÷ (b) = ${fmtRatio(t.vsFloor.ratio)}`, verdict(t.vsFloor.pass)]),
    row(['Warm post-edit diagnostics at least 3× faster than (c)', `(c) ÷ (a) = ${fmtRatio(t.vsTransient.ratio)} (${others.join('; ')})`, verdict(t.vsTransient.pass)]),
    row(['8 parallel requests within 1.5× of the slowest single, not their sum', `wall ÷ slowest = ${fmtRatio(t.parallel.ratio)}; wall ÷ sum = ${fmtRatio(t.parallel.overSum)} (the floor (b): wall ÷ slowest = ${fmtRatio(t.parallel.floorRatio)})`, verdict(t.parallel.pass)]),
  ].join('\n');
}

/**
 * @param r one server's results
 * @returns how the server published per didOpen/didChange (seen by the floor client), or `undefined` for pull servers
 */
export function publishTable(r: SuiteResult): string | undefined {
  const cycles = r.raw.publishCycles;
  if (r.spec.diagnostics !== 'push' || cycles.length === 0) return undefined;
  const lines = [
    row(['Trigger (floor client)', 'n', 'exactly 1 publish', 'first publish already final', 'first publish empty', 'first → last publish, max']),
    row(['---', '---', '---', '---', '---', '---']),
  ];
  const labels: Record<string, string> = { open: 'didOpen, cold server', error: 'didChange introducing the error', clean: 'didChange fixing it' };
  for (const kind of ['open', 'error', 'clean'] as const) {
    const of = cycles.filter((c) => c.kind === kind);
    if (of.length === 0) continue;
    lines.push(
      row([
        labels[kind] ?? kind,
        String(of.length),
        String(of.filter((c) => c.count === 1).length),
        String(of.filter((c) => c.firstFinal).length),
        String(of.filter((c) => c.firstEmpty).length),
        fmtMs(Math.max(...of.map((c) => c.spanMs))),
      ]),
    );
  }
  return lines.join('\n');
}
