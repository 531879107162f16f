/**
 * Benchmark entry: `npm run bench` (build, install test servers, then this file on Node 22).
 *
 *   node bench/run.ts [--write] [--iterations N] [--cold-rounds N] [--mix-rounds N]
 *                     [--variant-settle MS] [--no-ts7]
 *                     [--protocol-requests N] [--protocol-inflight N] [--no-protocol]
 *
 * Runs (a) the engine, (b) the raw floor and (c) the transient client side by side on
 * typescript-language-server (the embedded default) and, unless `--no-ts7`, on TypeScript 7
 * `tsc --lsp`; then, unless `--no-protocol`, the editor protocol through `serve`
 * (`bench/protocol-suite.ts`); prints a markdown report; `--write` also rewrites its block of
 * docs/benchmarks.md (bench/bench-doc.ts: every other section of the page is kept).
 */
import { parseArgs } from 'node:util';
import { writeBenchSection } from './bench-doc.ts';
import type { BenchDriver } from './driver-types.ts';
import { machineFacts } from './machine.ts';
import { processTree } from './process-tree.ts';
import type { Stoppable } from './protocol-overhead.ts';
import { runProtocolSuite, type ProtocolOptions, type ProtocolResult } from './protocol-suite.ts';
import { renderReport } from './report.ts';
import { ts7Spec, tslsSpec } from './server-specs.ts';
import { runSuite, type SuiteOptions, type SuiteResult } from './suite.ts';

const { values } = parseArgs({
  options: {
    write: { type: 'boolean', default: false },
    iterations: { type: 'string', default: '24' },
    'cold-rounds': { type: 'string', default: '3' },
    'mix-rounds': { type: 'string', default: '10' },
    'variant-settle': { type: 'string', default: '100' },
    'no-ts7': { type: 'boolean', default: false },
    'protocol-requests': { type: 'string', default: '2000' },
    'protocol-inflight': { type: 'string', default: '8' },
    'no-protocol': { type: 'boolean', default: false },
  },
});

const positive = (name: string, raw: string | undefined, min: number): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${raw}`);
  return n;
};

const options: SuiteOptions = {
  iterations: positive('iterations', values.iterations, 2),
  coldRounds: positive('cold-rounds', values['cold-rounds'], 1),
  mixRounds: positive('mix-rounds', values['mix-rounds'], 1),
  variantSettleMs: positive('variant-settle', values['variant-settle'], 0),
  progress: (line) => process.stderr.write(`${line}\n`),
};

const protocolOptions: ProtocolOptions | undefined = values['no-protocol']
  ? undefined
  : {
      requests: positive('protocol-requests', values['protocol-requests'], 10),
      inflight: positive('protocol-inflight', values['protocol-inflight'], 1),
      edits: options.iterations,
      progress: options.progress,
    };

const live = new Set<BenchDriver>();
const protocolLive = new Set<Stoppable>();

/** Last resort on failure: stop what is running, then SIGKILL any server tree still there. */
async function cleanup(): Promise<void> {
  const running: Stoppable[] = [...live, ...protocolLive];
  const pids = running.flatMap((d) => processTree(d.serverPids()));
  await Promise.allSettled(running.map((d) => d.stop()));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

process.once('SIGINT', () => {
  void cleanup().finally(() => process.exit(130));
});

const argv = process.argv.slice(2);
const command = `npm run bench${argv.length === 0 ? '' : ` -- ${argv.join(' ')}`}`;
const start = machineFacts();
const t0 = performance.now();
const specs = values['no-ts7'] ? [tslsSpec()] : [tslsSpec(), ts7Spec()];
const suites: SuiteResult[] = [];
let protocol: ProtocolResult | undefined;
try {
  for (const spec of specs) {
    options.progress(`== ${spec.title}`);
    suites.push(await runSuite(spec, options, live));
  }
  if (protocolOptions !== undefined) {
    options.progress('== editor protocol (serve)');
    protocol = await runProtocolSuite(tslsSpec(), protocolOptions, protocolLive);
  }
} catch (error) {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await cleanup();
  process.exit(1);
}
const { progress: _progress, ...shown } = options;
const report = renderReport({ command, options: shown, start, end: machineFacts(), suites, ...(protocol === undefined ? {} : { protocol }), wallMs: performance.now() - t0 });
process.stdout.write(report);
if (values.write) {
  writeBenchSection('bench-run', report);
  process.stderr.write('wrote the bench-run block of docs/benchmarks.md (the rest of the page is kept)\n');
}
