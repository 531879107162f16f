/**
 * Edit feedback benchmark: what the verdict appended to an agent's `edit` costs, and how often it
 * is fresh within the budget. The real harness (agent registry, sandboxed fs, observation policy,
 * `dsh-tool-fs`) with this plugin and typescript-language-server on the generated 200-file
 * project; each round reads the file, pauses as a model turn would, then times one `edit`
 * (`ctx.tools.execute` with the agent, post-execute included) that alternately introduces and
 * fixes a type error. Off and on run in two compositions on two copies of the project, paired:
 * each round edits with the feature off, then on, so load drift falls on both; the added time is
 * taken per pair. Where the "on" time goes comes from the verdict's own phase timings
 * (`VERDICT_TIMINGS_CHANNEL`). Both sessions are warm: their project was loaded (the plugin's
 * warm-up) before the first timed round.
 *
 *   node bench/edit-feedback.ts [--rounds 30] [--think-ms 1000] [--wait-ms <editFeedback.waitMs>] [--file src/app.ts] [--write]
 *
 * `--file` edits another file: `src/modules/mNNN.ts` has the dependents `mNNN+1…` and `src/app.ts`
 * (a declaration is appended to it first). `--write` replaces the `edit-feedback` block of
 * docs/benchmarks.md (appending it when absent; everything else on the page is kept —
 * bench/bench-doc.ts).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { appendFileSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Plugin } from '@deepseek-ai/cordis';
import type { Agent } from '@deepseek-ai/dsh-agent';
import { CallId } from '@deepseek-ai/dsh-llm';
import * as toolFs from '@deepseek-ai/dsh-tool-fs';
import { resolveConfig } from '../src/config.ts';
import { VERDICT_TIMINGS_CHANNEL, type VerdictTimings } from '../src/feedback/edit-verdict.ts';
import { ScriptedAgentHarness, textOf } from '../tests/support/scripted-agent.ts';
import { writeBenchSection } from './bench-doc.ts';
import { generateProject, type BenchProject } from './generate-project.ts';
import { fmtLoad, machineFacts } from './machine.ts';
import { fmtMedianP95, summarize, type Summary } from './stats.ts';


/** One configuration's samples. */
interface RunResult {
  edits: number[];
  /** Verdicts by kind (on only). */
  kinds: Record<'fresh' | 'pending' | 'failed' | 'none', number>;
  /** Fresh verdicts that named the edit's own error (error rounds) or said it was resolved (fix rounds). */
  correct: number;
  samples: string[];
}

/** The file a run edits, and the line toggled in it. */
interface Target {
  /** Workspace-relative path. */
  file: string;
  line: (value: number | undefined) => string;
}

let calls = 0;

async function execute(harness: ScriptedAgentHarness, agent: Agent, name: string, args: Record<string, unknown>): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const result = await harness.ctx.tools.execute({ callId: CallId(`bench_${++calls}`), name, arguments: args, agent, signal: AbortSignal.timeout(120_000) });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(`${name} failed: ${textOf(result.content)}`);
  return { ms, text: textOf(result.content) };
}

/** One composition on its own copy of the project, editing one file. */
class Session {
  readonly result: RunResult = { edits: [], kinds: { fresh: 0, pending: 0, failed: 0, none: 0 }, correct: 0, samples: [] };
  #current: number | undefined;

  readonly harness: ScriptedAgentHarness;
  readonly agent: Agent;
  readonly target: Target;

  private constructor(harness: ScriptedAgentHarness, agent: Agent, target: Target) {
    this.harness = harness;
    this.agent = agent;
    this.target = target;
  }

  static async start(project: BenchProject, enabled: boolean, target: Target, waitMs: number | undefined): Promise<Session> {
    const editFeedback = { enabled, ...(waitMs !== undefined ? { waitMs } : {}) };
    const harness = await ScriptedAgentHarness.start({
      workspace: project.root,
      sandboxMode: 'workspace-write',
      pluginConfig: { editFeedback },
      extraPlugins: [{ plugin: toolFs as unknown as Plugin }],
    });
    // the generated app.ts starts with an error; the rounds start from the clean text
    if (target.file === 'src/app.ts') writeFileSync(project.appPath, project.appText(undefined));
    const agent = await harness.createAgent(project.root);
    // warm: one diagnostics call on the file (both), and the warm-up the session started (on)
    await execute(harness, agent, 'lsp_diagnostics', { file_path: target.file });
    await harness.ctx.get('lspActions')?.warmedUp?.(project.root);
    return new Session(harness, agent, target);
  }

  async read(): Promise<void> {
    await execute(this.harness, this.agent, 'read', { file_path: this.target.file });
  }

  async edit(round: number): Promise<void> {
    const next = this.#current === undefined ? 3 + round : undefined;
    const edit = await execute(this.harness, this.agent, 'edit', { file_path: this.target.file, old_string: this.target.line(this.#current), new_string: this.target.line(next) });
    this.#current = next;
    const out = this.result;
    out.edits.push(edit.ms);
    const lsp = edit.text.slice(edit.text.indexOf('\nLSP: ') + 1);
    const kind = !edit.text.includes('\nLSP: ') ? 'none' : /pending|not judged|still loading/.test(lsp) ? 'pending' : lsp.includes('failed') ? 'failed' : 'fresh';
    out.kinds[kind]++;
    if (kind === 'fresh') {
      const right = next === undefined ? lsp.startsWith('LSP: no new problems (1 resolved') : lsp.startsWith(`LSP: 1 new error — ${this.target.file}:`) && lsp.includes(`'${next}'`);
      if (right) out.correct++;
    }
    if (out.samples.length < 2 && kind !== 'none') out.samples.push(lsp);
  }

  dispose(): Promise<void> {
    return this.harness.dispose();
  }
}

/** Runs off and on paired, round by round; returns both and the on-verdicts' phase timings. */
async function run(projects: [BenchProject, BenchProject], target: Target, options: { rounds: number; thinkMs: number; waitMs: number | undefined }): Promise<{ off: RunResult; on: RunResult; timings: VerdictTimings[] }> {
  const off = await Session.start(projects[0], false, target, options.waitMs);
  const on = await Session.start(projects[1], true, target, options.waitMs);
  const timings: VerdictTimings[] = [];
  const listen = (message: unknown): void => void timings.push(message as VerdictTimings);
  subscribe(VERDICT_TIMINGS_CHANNEL, listen);
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const session of [off, on]) {
        await session.read();
        await new Promise((resolve) => setTimeout(resolve, options.thinkMs));
        await session.edit(round);
      }
    }
  } finally {
    unsubscribe(VERDICT_TIMINGS_CHANNEL, listen);
    await off.dispose();
    await on.dispose();
  }
  return { off: off.result, on: on.result, timings };
}

function section(
  off: RunResult,
  on: RunResult,
  timings: VerdictTimings[],
  facts: { before: string; after: string; rounds: number; thinkMs: number; waitMs: number; commit: string; wallS: number; file: string },
): string {
  const s = (r: RunResult): Summary => summarize(r.edits);
  const offS = s(off);
  const onS = s(on);
  const added = summarize(on.edits.map((ms, i) => ms - (off.edits[i] ?? 0)));
  const phase = (pick: (t: VerdictTimings) => number): string => fmtMedianP95(summarize(timings.map(pick)));
  const lines = [
    '## Edit feedback',
    '',
    `\`node bench/edit-feedback.ts --rounds ${facts.rounds} --think-ms ${facts.thinkMs} --file ${facts.file} --write\` (commit ${facts.commit}): one \`edit\` of \`${facts.file}\` in the generated 200-file project per round, through \`ctx.tools.execute\` with a live agent (the real sandboxed fs, observation policy, \`dsh-tool-fs\`; typescript-language-server 5.3.0), alternately introducing and fixing a type error; each edit follows a \`read\` of the file and a ${facts.thinkMs} ms pause standing for the model's turn. Off and on run in two compositions on two copies of the project, paired round by round; both warm. \`editFeedback.waitMs\` ${facts.waitMs} ms.`,
    '',
    '| | edit, median / p95 |',
    '|---|---|',
    `| feedback off (the harness's own \`edit\`) | ${fmtMedianP95(offS)} |`,
    `| feedback on | ${fmtMedianP95(onS)} |`,
    `| added by the feedback (per pair) | ${fmtMedianP95(added)} |`,
    '',
    `Where the time of a verdict goes (median / p95 over ${timings.length} verdicts): waiting for background checks ${phase((t) => t.backgroundMs)}, telling the server of the write ${phase((t) => t.announceMs)}, the written file's check ${phase((t) => t.writtenMs)} and, sent at the same time, finding its dependents (tsserver \`fileReferences\`, transitively) ${phase((t) => t.dependentsMs)}, then checking the dependents and other files due ${phase((t) => t.dueMs)}; whole verdict ${phase((t) => t.totalMs)}. Dependents per edit: median ${summarize(timings.map((t) => t.dependents)).median}; files checked besides the written one: median ${summarize(timings.map((t) => t.checked)).median}.`,
    '',
    `Verdicts with the feature on: ${on.kinds.fresh} of ${facts.rounds} fresh within the budget (${on.correct} of them naming exactly the edit's error, or its resolution), ${on.kinds.pending} \`diagnostics pending\`, ${on.kinds.failed} failed, ${on.kinds.none} without a verdict. With it off, ${off.kinds.none} of ${facts.rounds} results carried no verdict.`,
    '',
    "The rest of the added time (the per-pair figure minus the verdict) is the harness's post-execute plumbing and rendering. `waitMs` bounds the worst case (a cold or busy server); it is not spent when the answer comes sooner, and a verdict stops as soon as every file it covers is judged.",
    '',
    'Samples:',
    '',
    '```text',
    ...on.samples,
    '```',
    '',
    `Load average (1 / 5 / 15 min): ${facts.before} before, ${facts.after} after; wall time ${facts.wallS.toFixed(0)} s.`,
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '30' },
      'think-ms': { type: 'string', default: '1000' },
      'wait-ms': { type: 'string' },
      file: { type: 'string', default: 'src/app.ts' },
      write: { type: 'boolean', default: false },
    },
  });
  const file = values.file;
  const rounds = Number(values.rounds);
  const thinkMs = Number(values['think-ms']);
  const waitMs = values['wait-ms'] !== undefined ? Number(values['wait-ms']) : undefined;
  const effectiveWait = waitMs ?? resolveConfig({}).editFeedback.waitMs;
  const before = machineFacts();
  const started = performance.now();
  const roots = [0, 1].map(() => realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-bench-feedback-'))));
  try {
    const projects = roots.map((root) => generateProject(root)) as [BenchProject, BenchProject];
    const target: Target =
      file === 'src/app.ts'
        ? { file, line: (value) => projects[0].errorLineText(value) }
        : { file, line: (value) => `export const benchFlag: 0 | 1 | 2 = ${value ?? 1};` };
    if (file !== 'src/app.ts') for (const root of roots) appendFileSync(join(root, file), `${target.line(undefined)}\n`);
    const { off, on, timings } = await run(projects, target, { rounds, thinkMs, waitMs });
    const text = section(off, on, timings, {
      before: fmtLoad(before.load), after: fmtLoad(machineFacts().load), rounds, thinkMs, waitMs: effectiveWait, commit: before.commit,
      wallS: (performance.now() - started) / 1000, file,
    });
    process.stdout.write(`${text}\n`);
    if (values.write) writeBenchSection('edit-feedback', text);
  } finally {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  }
}

await main();
