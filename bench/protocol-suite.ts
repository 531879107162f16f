/**
 * The editor-protocol benchmark (issue 4): protocol overhead against the fake LSP server
 * (`protocol-overhead.ts`), then end-to-end `diagnostics.get` after an edit through `serve` on
 * typescript-language-server against the engine (`protocol-e2e.ts`). Called by `bench/run.ts`;
 * rendered by `bench/protocol-report.ts`.
 */
import { loadavg } from 'node:os';
import { runEndToEnd, type EndToEndResult } from './protocol-e2e.ts';
import { runProtocolOverhead, type OverheadResult, type Stoppable } from './protocol-overhead.ts';
import type { ServerSpec } from './server-specs.ts';

/** Knobs of the protocol benchmark. */
export interface ProtocolOptions {
  /** Timed requests per tier, action and concurrency level. */
  requests: number;
  /** Requests kept in flight in the concurrent runs (the sequential run is always there). */
  inflight: number;
  /** Timed edits per client through `serve` and the engine. */
  edits: number;
  progress(line: string): void;
}

/** Everything the protocol benchmark found. */
export interface ProtocolResult {
  options: Omit<ProtocolOptions, 'progress'>;
  overhead: OverheadResult;
  endToEnd: EndToEndResult;
  /** 1, 5, 15 minute load averages before and after. */
  load: { start: number[]; end: number[] };
  wallMs: number;
}

/** Rounds the timed requests are split into (the tier order rotates per round). */
const ROUNDS = 10;

/**
 * @param spec typescript-language-server's spec (the embedded default `serve` runs)
 * @param options knobs
 * @param live what is running is added here while it runs, for a last-resort cleanup
 * @returns the measurements
 */
export async function runProtocolSuite(spec: ServerSpec, options: ProtocolOptions, live: Set<Stoppable>): Promise<ProtocolResult> {
  const started = performance.now();
  const start = loadavg();
  const overhead = await runProtocolOverhead(
    {
      requests: options.requests,
      inflight: options.inflight > 1 ? [1, options.inflight] : [1],
      rounds: ROUNDS,
      warmup: Math.max(50, Math.ceil(options.requests / 5)),
      progress: options.progress,
    },
    live,
  );
  const endToEnd = await runEndToEnd(spec, { edits: options.edits, progress: options.progress }, live);
  const { progress: _progress, ...shown } = options;
  return { options: shown, overhead, endToEnd, load: { start, end: loadavg() }, wallMs: performance.now() - started };
}
