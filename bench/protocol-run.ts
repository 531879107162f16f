/**
 * The editor-protocol benchmark alone (after `npm run build`), printing only its section:
 *
 *   node bench/protocol-run.ts [--protocol-requests N] [--protocol-inflight N] [--iterations N]
 *
 * `npm run bench` runs it too, after the engine suites, and `--write` puts its section into
 * docs/benchmarks.md; this entry never writes.
 */
import { parseArgs } from 'node:util';
import { killSurvivors, processTree } from './process-tree.ts';
import type { Stoppable } from './protocol-overhead.ts';
import { renderProtocolSection } from './protocol-report.ts';
import { runProtocolSuite } from './protocol-suite.ts';
import { tslsSpec } from './server-specs.ts';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '24' },
    'protocol-requests': { type: 'string', default: '2000' },
    'protocol-inflight': { type: 'string', default: '8' },
  },
});

const integer = (name: string, raw: string | undefined, min: number): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${raw}`);
  return n;
};

const live = new Set<Stoppable>();
process.once('SIGINT', () => {
  const pids = [...live].flatMap((s) => processTree(s.serverPids()));
  void Promise.allSettled([...live].map((s) => s.stop())).finally(() => {
    killSurvivors(pids);
    process.exit(130);
  });
});

try {
  const result = await runProtocolSuite(
    tslsSpec(),
    {
      requests: integer('protocol-requests', values['protocol-requests'], 10),
      inflight: integer('protocol-inflight', values['protocol-inflight'], 1),
      edits: integer('iterations', values.iterations, 2),
      progress: (line) => process.stderr.write(`${line}\n`),
    },
    live,
  );
  process.stdout.write(`${renderProtocolSection(result, undefined)}\n`);
} catch (error) {
  process.stderr.write(`protocol benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
