/**
 * The report of `npm run bench` (printed, and written with `--write` into its own block of
 * docs/benchmarks.md — bench/bench-doc.ts — leaving the rest of the page as it is).
 */
import { fmtLoad, type MachineFacts } from './machine.ts';
import type { DiagSample } from './driver-types.ts';
import { breakdownTable, mainTable, mixTable, publishTable, summarizeMix, targets, targetsTable } from './report-tables.ts';
import { renderProtocolSection } from './protocol-report.ts';
import type { ProtocolResult } from './protocol-suite.ts';
import { fmtMs, fmtRatio, summarize } from './stats.ts';
import type { SuiteOptions, SuiteResult } from './suite.ts';

/** Everything the report shows. */
export interface ReportInput {
  command: string;
  options: Omit<SuiteOptions, 'progress'>;
  start: MachineFacts;
  end: MachineFacts;
  suites: SuiteResult[];
  /** The editor-protocol benchmark, unless `--no-protocol`. */
  protocol?: ProtocolResult;
  wallMs: number;
}

function machineSection(input: ReportInput): string {
  const { start, end } = input;
  const versions = input.suites.flatMap((s) => Object.entries(s.spec.versions).map(([name, version]) => `${name} ${version}`));
  return [
    '### Machine and run',
    '',
    `- Date: ${start.date}; commit ${start.commit} (plus the working tree at the time).`,
    `- Command: \`${input.command}\``,
    `- CPU: ${start.cpuCount} × ${start.cpuModel}; memory ${start.memoryGiB.toFixed(1)} GiB; Linux ${start.kernel}.`,
    `- Node ${start.node} (the project's own Node 22 from \`node_modules/.bin\`).`,
    `- Servers: ${versions.join(', ')}.`,
    `- Load average (1 / 5 / 15 min): ${fmtLoad(start.load)} at start, ${fmtLoad(end.load)} at the end. The machine is shared; other sessions run tests on it.`,
    `- Whole run: ${(input.wallMs / 1000).toFixed(0)} s (${input.options.coldRounds} cold starts per client, ${input.options.iterations} timed edits and completions per client, ${input.options.mixRounds} rounds of the mixed batch).`,
  ].join('\n');
}

const METHOD = [
  '### What is measured',
  '',
  '- **Project**: generated in a temp directory (`bench/generate-project.ts`): `tsconfig.json`, a types module, 197 modules',
  '  that import lower-numbered modules (classes, functions, factories), and `src/app.ts`, which imports several and holds',
  '  one type error. 200 files, deterministic. Each client gets its own copy.',
  '- **(a) engine**: `LspEngine` with the plugin\'s default config (embedded server preset) over the real harness services',
  '  (`dsh-subprocess-local`, `dsh-fs-local`). An edit is a disk write, then `engine.diagnostics()`: the engine reads the file',
  '  through the fs seam, sends an incremental `didChange`, and returns once its result is `fresh`.',
  '- **(b) raw floor** (`bench/raw-lsp-driver.ts`): the same server spawned with `node:child_process` and hand-written',
  '  Content-Length framing; documents stay open; an edit is one incremental `didChange`; the wait ends at the **first**',
  '  publish (or pull) that shows the edit. It knows the answer in advance, so no real client can be faster.',
  '- **(c) transient** (`bench/transient-driver.ts`): the lifecycle of earlier designs on a warm server process: read the',
  '  file, `didOpen`, ask, `didClose`, for every call. Its main rows use the same first-publish-showing-the-edit rule as (b),',
  '  i.e. only the lifecycle\'s own cost; the breakdown adds what such a client can really do without knowing the answer',
  '  (take the last publish after the same quiet time the engine uses), and spawn-per-call (its cold start).',
  '- **Edit**: a one-line edit of the error line, alternating between introducing the error with a literal unique to the',
  '  edit (`retries: 0 | 1 | 2 = 104` → "Type \'104\' is not assignable…") and fixing it (the list becomes empty). A result',
  '  counts only if it shows that edit; the engine\'s must also be reported `fresh`.',
  '- **Order**: servers are started one at a time; afterwards every iteration runs each client once, in rotating order, so',
  '  load from other sessions hits all clients alike. Two untimed warm-up edits and one untimed pass of the mixed batch',
  '  come first.',
  '- **Mixed batch**: hover, definition, references (a type used by all 197 modules), completion, signature help, code',
  '  actions on the error, document symbols (another module), formatting (a third module). Per round each request runs',
  '  alone, then all 8 together; wall time is compared with the slowest alone and with the sum.',
  '- **RSS**: summed `VmRSS` over the server\'s process tree from `/proc`, after the run, before stopping.',
  '- After every stop the benchmark checks that no process of the server\'s tree is left, kills survivors and says so.',
].join('\n');

function notes(r: SuiteResult): string {
  const out: string[] = [];
  if (r.engine.mix !== undefined && r.transient.mix === undefined) {
    out.push('¹ The transient client is not run in the parallel batch: 8 concurrent open → request → close cycles on shared files would race each other\'s `didOpen`/`didClose`.');
  }
  const killed = [r.engine, r.raw, r.transient].flatMap((c) => c.killedAfterStop.map((pid) => `${c.label} pid ${pid}`));
  killed.push(...(r.engineVariant?.killedAfterStop ?? []).map((pid) => `engine variant pid ${pid}`));
  out.push(killed.length === 0 ? 'No server process was left after any stop (nothing had to be killed).' : `Processes left after stop and killed by the benchmark: ${killed.join(', ')}.`);
  out.push(`Engine: ${r.engineOpenDocuments} document(s) open at the end; ${r.engineLog.nudges} silent-server nudge(s); ${r.engineLog.warnings.length} warning(s)${r.engineLog.warnings.length === 0 ? '' : `: ${r.engineLog.warnings.slice(0, 3).join(' | ')}`}.`);
  out.push(`Suite wall time: ${(r.wallMs / 1000).toFixed(0)} s.`);
  return out.map((line) => `- ${line}`).join('\n');
}

const medianMs = (samples: readonly DiagSample[]): number => summarize(samples.map((x) => x.ms)).median;

function pushReading(r: SuiteResult, floor: number): string[] {
  const edits = [...r.engine.editOn, ...r.engine.editOff].filter((e) => e.firstSeenMs !== undefined);
  if (edits.length === 0) return [];
  const total = medianMs(edits);
  const reached = summarize(edits.map((e) => e.firstSeenMs as number)).median;
  const lines = [
    `The first publish showing the edit reaches the engine after ${fmtMs(reached)} (median; the floor sees it after ${fmtMs(floor)}). ` +
      `The engine then waits for the push to settle (\`diagnosticsSettleMs\` ${r.engineSettleMs}, doubled when the list is empty: ` +
      `${fmtMs(summarize(r.engine.editOn.filter((e) => e.firstSeenMs !== undefined).map((e) => e.ms - (e.firstSeenMs as number))).median)} after an edit that introduces the error, ` +
      `${fmtMs(summarize(r.engine.editOff.filter((e) => e.firstSeenMs !== undefined).map((e) => e.ms - (e.firstSeenMs as number))).median)} after one that fixes it) and answers after ${fmtMs(total)}: ` +
      `${fmtMs(total - reached)} of the median is the settle window. Within 1.2× of this floor leaves ${fmtMs(0.2 * floor)} for any settling.`,
    'typescript-language-server 5.3.0 itself waits 300 ms after every `didOpen`/`didChange` of a file under 6 000 lines before asking tsserver ' +
      '(`requestDiagnostic`: `max(ceil(lines / 20), 300)` ms, at most 800) and debounces publishes by 50 ms; every client pays that. A publish carries no ' +
      'document version, so without a completion signal the engine cannot tell the last publish of a cycle from an earlier one except by waiting.',
  ];
  if (r.transientSettle !== undefined) {
    lines.push(
      `Against a transient client that settles the same way (last publish after ${r.transientSettle.settleMs} ms quiet): ` +
        `${fmtMs(medianMs(r.engine.editOn))} vs ${fmtMs(medianMs(r.transientSettle.on))} when the edit introduces the error, ` +
        `${fmtMs(medianMs(r.engine.editOff))} vs ${fmtMs(medianMs(r.transientSettle.off))} when it fixes it` +
        (medianMs(r.engine.editOff) - medianMs(r.transientSettle.off) > 0.5 * r.engineSettleMs && Math.abs(medianMs(r.engine.editOn) - medianMs(r.transientSettle.on)) < 0.2 * r.engineSettleMs
          ? ' — the difference is the engine doubling its window for an empty list.'
          : '.'),
    );
  }
  const cycles = r.raw.publishCycles.filter((c) => c.kind !== 'open');
  const opens = r.raw.publishCycles.filter((c) => c.kind === 'open');
  if (cycles.length > 0) {
    const single = cycles.filter((c) => c.count === 1 && c.firstFinal).length;
    lines.push(
      `Publishes per edit (floor client, table above): in ${single} of ${cycles.length} edits the server published exactly once and that publish was final; ` +
        `${cycles.filter((c) => c.firstEmpty && !c.firstFinal).length} edits began with an empty publish that was not the answer; ` +
        `on didOpen of a cold server ${opens.filter((c) => c.firstEmpty && !c.firstFinal).length} of ${opens.length} began with one.`,
    );
  }
  return lines;
}

function reading(r: SuiteResult): string {
  const t = targets(r);
  const a = medianMs([...r.engine.editOn, ...r.engine.editOff]);
  const b = medianMs([...r.raw.editOn, ...r.raw.editOff]);
  const c = medianMs([...r.transient.editOn, ...r.transient.editOff]);
  const lines: string[] = r.spec.engineDiagnostics === 'push' ? pushReading(r, b) : [];
  if (r.spec.engineDiagnostics === 'passthrough') {
    lines.push(
      `Passthrough: the engine asks tsserver, through typescript-language-server, for the diagnostics of the version it just sent (decision 0001) — ` +
        `fresh by construction, with no publish to wait for and no settle window — and answers after ${fmtMs(a)}, where the floor's first publish showing the edit ` +
        `comes after ${fmtMs(b)}: typescript-language-server itself waits 300 ms after every change before it asks tsserver and publishes. ` +
        'The push strategy (the default before issue 8) is measured beside it in "Diagnostics strategies".',
    );
  }
  if (r.spec.engineDiagnostics === 'pull') {
    lines.push(`Pull: the engine waits for nothing after the answer; (a) − (b) = ${fmtMs(a - b)} per call is its own work (reading the file through the fs seam, syncing the document, normalising).`);
  }
  const settle = r.transientSettle === undefined ? '' : `; with the settle rule a transient client needs ${fmtMs(medianMs([...r.transientSettle.on, ...r.transientSettle.off]))}`;
  const spawn = `; spawning a server per call costs ${fmtMs(medianMs(r.transient.cold))}`;
  lines.push(
    c <= 1.25 * b
      ? `On a warm server the transient lifecycle costs about what the floor does ((c) ${fmtMs(c)} vs (b) ${fmtMs(b)}): the server keeps the project loaded and re-analyses a reopened file as fast as a changed one${settle}${spawn}.`
      : `The transient lifecycle costs ${fmtMs(c)} against the floor's ${fmtMs(b)}${settle}${spawn}.`,
  );
  const engineMix = r.engine.mix === undefined ? undefined : summarizeMix(r.engine.mix);
  const rawMix = r.raw.mix === undefined ? undefined : summarizeMix(r.raw.mix);
  if (engineMix !== undefined && rawMix !== undefined) {
    lines.push(
      `Mixed batch: the engine finishes in ${fmtRatio(t.parallel.ratio)} of its slowest request alone (${fmtRatio(t.parallel.overSum)} of the sum of all 8 alone); ` +
        `the floor in ${fmtRatio(rawMix.overSlowest.median)} (${fmtRatio(rawMix.overSum.median)}). The engine's batch takes ${fmtRatio(engineMix.wall.median / rawMix.wall.median)} the floor's.` +
        (rawMix.overSum.median >= 0.8
          ? ' Even the floor\'s batch takes about the sum of its requests: the server answers one request at a time (tsserver is single-threaded behind ts-ls), so no client can bring 8 mixed requests near the slowest one here.'
          : ''),
    );
    const gap = largestGap(r);
    if (gap !== undefined && gap.delta > 5) {
      lines.push(
        `Largest per-request overhead over the floor: ${gap.name}, ${fmtMs(gap.engine)} vs ${fmtMs(gap.raw)} alone.` +
          (r.spec.key === 'ts7' && gap.name === 'references'
            ? ' This server negotiates utf-8, so the engine converts every returned location to UTF-16, reading each referenced file (one per module here) through the fs seam.'
            : ''),
      );
    }
  }
  return lines.map((line) => `- ${line}`).join('\n');
}

function largestGap(r: SuiteResult): { name: string; engine: number; raw: number; delta: number } | undefined {
  let best: { name: string; engine: number; raw: number; delta: number } | undefined;
  for (const name of Object.keys(r.engine.mix?.[0]?.alone ?? {})) {
    const engine = summarize((r.engine.mix ?? []).map((m) => m.alone[name] ?? Number.NaN)).median;
    const raw = summarize((r.raw.mix ?? []).map((m) => m.alone[name] ?? Number.NaN)).median;
    if (best === undefined || engine - raw > best.delta) best = { name, engine, raw, delta: engine - raw };
  }
  return best;
}

/**
 * @param input everything measured
 * @returns the markdown report
 */
export function renderReport(input: ReportInput): string {
  const parts = [
    '## Engine, floor and transient clients',
    '',
    `Generated by \`${input.command}\` on ${input.start.date}; this block is rewritten by every \`npm run bench -- --write\`.`,
    '',
    machineSection(input),
    '',
    METHOD,
  ];
  for (const r of input.suites) {
    parts.push(
      '',
      `### ${r.spec.title}`,
      '',
      mainTable(r),
      '',
      '#### Targets',
      '',
      targetsTable(r),
      '',
      '#### Where the time goes',
      '',
      breakdownTable(r),
      '',
      ...(publishTable(r) === undefined ? [] : ['#### What the server publishes per didOpen / didChange', '', publishTable(r) as string, '']),
      '#### Mixed batch, per request (medians)',
      '',
      mixTable(r),
      '',
      '#### Reading the results',
      '',
      reading(r),
      '',
      '#### Notes',
      '',
      notes(r),
    );
  }
  if (input.protocol !== undefined) {
    parts.push('', renderProtocolSection(input.protocol, input.suites.find((s) => s.spec.key === 'tsls')));
  }
  return `${parts.join('\n')}\n`;
}
