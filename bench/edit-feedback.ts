/**
 * Edit feedback benchmark: what the verdict appended to an agent's `edit` costs, and how often it
 * is fresh within the budget. The real harness (agent registry, sandboxed fs, observation policy,
 * `dsh-tool-fs`) with this plugin and typescript-language-server on the generated 200-file
 * project; each round reads `src/app.ts`, pauses as a model turn would, then times one `edit`
 * (`ctx.tools.execute` with the agent, post-execute included) that alternately introduces and
 * fixes a type error. The same script runs with the feature off and on, in separate compositions.
 *
 *   node bench/edit-feedback.ts [--rounds 30] [--think-ms 1000] [--wait-ms <editFeedback.waitMs>] [--write]
 *
 * `--write` replaces the `edit-feedback` block of docs/benchmarks.md (appending it when absent;
 * everything else on the page is kept — bench/bench-doc.ts).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Plugin } from '@deepseek-ai/cordis';
import type { Agent } from '@deepseek-ai/dsh-agent';
import { CallId } from '@deepseek-ai/dsh-llm';
import * as toolFs from '@deepseek-ai/dsh-tool-fs';
import { resolveConfig } from '../src/config.ts';
import { ScriptedAgentHarness, textOf } from '../tests/support/scripted-agent.ts';
import { writeBenchSection } from './bench-doc.ts';
import { generateProject, type BenchProject } from './generate-project.ts';
import { fmtLoad, machineFacts } from './machine.ts';
import { fmtMedianP95, fmtMs, summarize, type Summary } from './stats.ts';


/** One configuration's run. */
interface RunResult {
  edits: number[];
  /** Verdicts by kind (on only). */
  kinds: Record<'fresh' | 'pending' | 'failed' | 'none', number>;
  /** Fresh verdicts that named the edit's own error (error rounds) or said it was resolved (fix rounds). */
  correct: number;
  samples: string[];
}

let calls = 0;

async function execute(harness: ScriptedAgentHarness, agent: Agent, name: string, args: Record<string, unknown>): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const result = await harness.ctx.tools.execute({ callId: CallId(`bench_${++calls}`), name, arguments: args, agent, signal: AbortSignal.timeout(120_000) });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(`${name} failed: ${textOf(result.content)}`);
  return { ms, text: textOf(result.content) };
}

async function run(project: BenchProject, enabled: boolean, options: { rounds: number; thinkMs: number; waitMs: number | undefined }): Promise<RunResult> {
  const editFeedback = { enabled, ...(options.waitMs !== undefined ? { waitMs: options.waitMs } : {}) };
  const harness = await ScriptedAgentHarness.start({
    workspace: project.root,
    sandboxMode: 'workspace-write',
    pluginConfig: { editFeedback },
    extraPlugins: [{ plugin: toolFs as unknown as Plugin }],
  });
  const out: RunResult = { edits: [], kinds: { fresh: 0, pending: 0, failed: 0, none: 0 }, correct: 0, samples: [] };
  try {
    const agent = await harness.createAgent(project.root);
    writeFileSync(project.appPath, project.appText(undefined));
    // warm the server the same way in both runs: one diagnostics call on the file
    await execute(harness, agent, 'lsp_diagnostics', { file_path: 'src/app.ts' });
    let current: number | undefined;
    for (let round = 0; round < options.rounds; round++) {
      await execute(harness, agent, 'read', { file_path: 'src/app.ts' });
      await new Promise((resolve) => setTimeout(resolve, options.thinkMs));
      const next = current === undefined ? 3 + round : undefined;
      const edit = await execute(harness, agent, 'edit', {
        file_path: 'src/app.ts',
        old_string: project.errorLineText(current),
        new_string: project.errorLineText(next),
      });
      current = next;
      out.edits.push(edit.ms);
      const lsp = edit.text.slice(edit.text.indexOf('\nLSP: ') + 1);
      const kind = !edit.text.includes('\nLSP: ') ? 'none' : lsp.includes('diagnostics pending') ? 'pending' : lsp.includes('failed') ? 'failed' : 'fresh';
      out.kinds[kind]++;
      if (kind === 'fresh') {
        const right = next === undefined ? lsp.startsWith('LSP: no new problems (1 resolved)') : lsp.startsWith('LSP: 1 new error — src/app.ts:') && lsp.includes(`'${next}'`);
        if (right) out.correct++;
      }
      if (out.samples.length < 2 && kind !== 'none') out.samples.push(lsp);
    }
  } finally {
    await harness.dispose();
  }
  return out;
}

function section(off: RunResult, on: RunResult, facts: { before: string; after: string; rounds: number; thinkMs: number; waitMs: number; commit: string; wallS: number }): string {
  const s = (r: RunResult): Summary => summarize(r.edits);
  const offS = s(off);
  const onS = s(on);
  const lines = [
    '## Edit feedback',
    '',
    `\`node bench/edit-feedback.ts --rounds ${facts.rounds} --think-ms ${facts.thinkMs} --write\` (commit ${facts.commit}): one \`edit\` of \`src/app.ts\` in the generated 200-file project per round, through \`ctx.tools.execute\` with a live agent (the real sandboxed fs, observation policy, \`dsh-tool-fs\`; typescript-language-server 5.3.0), alternately introducing and fixing a type error; each edit follows a \`read\` of the file and a ${facts.thinkMs} ms pause standing for the model's turn. Off and on run in separate compositions on the same project; \`editFeedback.waitMs\` ${facts.waitMs} ms.`,
    '',
    '| | edit, median / p95 |',
    '|---|---|',
    `| feedback off (the harness's own \`edit\`) | ${fmtMedianP95(offS)} |`,
    `| feedback on | ${fmtMedianP95(onS)} |`,
    `| added by the feedback | ${fmtMs(onS.median - offS.median)} / ${fmtMs(onS.p95 - offS.p95)} |`,
    '',
    `Verdicts with the feature on: ${on.kinds.fresh} of ${facts.rounds} fresh within the budget (${on.correct} of them naming exactly the edit's error, or its resolution), ${on.kinds.pending} \`diagnostics pending\`, ${on.kinds.failed} failed, ${on.kinds.none} without a verdict. With it off, ${off.kinds.none} of ${facts.rounds} results carried no verdict.`,
    '',
    "What the added time is: the written file's check — the engine learning of the write, the server's analysis, and, for a server that pushes diagnostics, its own publish delay plus the engine's settle window (`diagnosticsSettleMs`) before the answer counts as fresh; with a server answering by request (pull, or typescript-language-server's tsserver passthrough) only the analysis. `waitMs` bounds the worst case (a cold or busy server), it is not spent when the answer comes sooner.",
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
    options: { rounds: { type: 'string', default: '30' }, 'think-ms': { type: 'string', default: '1000' }, 'wait-ms': { type: 'string' }, write: { type: 'boolean', default: false } },
  });
  const rounds = Number(values.rounds);
  const thinkMs = Number(values['think-ms']);
  const waitMs = values['wait-ms'] !== undefined ? Number(values['wait-ms']) : undefined;
  const effectiveWait = waitMs ?? resolveConfig({}).editFeedback.waitMs;
  const before = machineFacts();
  const started = performance.now();
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-bench-feedback-')));
  try {
    const project = generateProject(root);
    const off = await run(project, false, { rounds, thinkMs, waitMs });
    const on = await run(project, true, { rounds, thinkMs, waitMs });
    const text = section(off, on, {
      before: fmtLoad(before.load), after: fmtLoad(machineFacts().load), rounds, thinkMs, waitMs: effectiveWait, commit: before.commit,
      wallS: (performance.now() - started) / 1000,
    });
    process.stdout.write(`${text}\n`);
    if (values.write) writeBenchSection('edit-feedback', text);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
