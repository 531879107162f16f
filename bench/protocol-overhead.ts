/**
 * Protocol overhead against the scriptable fake LSP server (`tests/fixtures/fake-lsp-server.ts`,
 * fast and deterministic): the same cheap read, on a warm document, measured on four tiers —
 *
 * - `plain`: `LspEngine` in this process over plain `dsh-fs-local` (as `engine-driver.ts` runs it);
 * - `engine`: the `LspEngine` of `serve`'s own default composition (sandboxed fs, observation
 *   policy, the same `--servers` file), booted in this process with the editor protocol off;
 * - `runner`: that composition's `ActionRunner` (`hover.get` / `diagnostics.get`: params
 *   validation, workspace-root check through the fs seam, wire result);
 * - `serve`: `dsh-lsp-actions serve` as a child process routing `*.fake` to the fake through the
 *   `--servers` file, driven over stdio with `lsp.actions.run` by an editor-like client subscribed
 *   to events.
 *
 * `serve` − `engine` is then exactly the protocol, the process hop and the envelope.
 *
 * Each tier runs sequentially (1 in flight) and with N in flight, in rounds that rotate the tier
 * order so machine load hits all tiers alike.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BootedComposition } from '../src/cli/boot-composition.ts';
import { bootPrepared, prepareComposition } from '../src/cli/prepare-composition.ts';
import { resolveConfig } from '../src/config.ts';
import type { LspEngineApi } from '../src/lsp/engine-types.ts';
import { LspEngine } from '../src/lsp/lsp-engine.ts';
import { resolveServerExecutables } from '../src/lsp/resolve-server-executables.ts';
import { fakeServerCommand } from '../tests/fixtures/fake-lsp-scenario.ts';
import { createHarnessServices, type HarnessServices } from '../tests/support/harness-services.ts';
import { ServeClient, type Json } from './protocol-client.ts';
import { runLoad, withCpu } from './protocol-load.ts';
import { killSurvivors, processTree } from './process-tree.ts';
import { summarize } from './stats.ts';

/** Something the caller can stop on failure (run.ts's last-resort cleanup). */
export interface Stoppable {
  serverPids(): number[];
  stop(): Promise<void>;
}

/** Knobs of the overhead measurement. */
export interface OverheadOptions {
  /** Timed requests per tier, operation and concurrency level. */
  requests: number;
  /** Concurrency levels; 1 = sequential. */
  inflight: number[];
  /** Rounds the requests are split into (tier order rotated per round). */
  rounds: number;
  /** Untimed requests per tier and operation first. */
  warmup: number;
  progress(line: string): void;
}

/** The tiers, innermost first. */
export const TIERS = ['plain', 'engine', 'runner', 'serve'] as const;
/** A tier. */
export type Tier = (typeof TIERS)[number];

/** One tier at one concurrency level, summed over the rounds. */
export interface TierRun {
  tier: Tier;
  inflight: number;
  latencies: number[];
  /** Median latency of each round, ms (rounds alternate the tiers, so these pair up across tiers). */
  roundMedians: number[];
  /** Summed wall time of the rounds, ms. */
  wallMs: number;
  failures: number;
  firstFailure?: string;
  /** CPU ms by process role: `host` (this process: the engine, or the editor client for `serve`), `serve`, `server` (the fake). */
  cpuMs: Record<string, number>;
  /** `serve` only: what the client received. */
  wire?: { responses: number; events: number; bytes: number };
}

/** One operation on all tiers. */
export interface OperationResult {
  /** Protocol action id. */
  action: string;
  /** What the engine tier calls. */
  engineCall: string;
  runs: TierRun[];
}

/** Everything the overhead measurement found. */
export interface OverheadResult {
  operations: OperationResult[];
  /** The fake workspace file's size. */
  document: { lines: number; bytes: number };
  /** `serve` exit code after stdin ended. */
  serveExit: number | null;
  /** Processes left after the stops (killed by the benchmark). */
  killedAfterStop: number[];
  wallMs: number;
}

const DOCUMENT = [
  'alpha beta gamma delta',
  'the quick brown fox jumps over the lazy dog',
  'ERROR is reported here',
  'WARN is reported here',
  ...Array.from({ length: 36 }, (_, i) => `line ${i + 5} holds some words to analyse`),
  '',
].join('\n');

const HOVER_AT = { line: 1, character: 5 };
const rotate = <T>(list: readonly T[], by: number): T[] => list.map((_, i) => list[(i + by) % list.length] as T);

function fakeChildOf(servePid: number): number {
  const pid = processTree([servePid]).find((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('fake-lsp-server');
    } catch {
      return false;
    }
  });
  if (pid === undefined) throw new Error('serve did not start the fake server');
  return pid;
}

type Op = () => Promise<string | undefined>;

const pidsOf = (engine: { liveServers(): Array<{ pid?: number | undefined }> } | undefined): number[] =>
  (engine?.liveServers() ?? []).flatMap((s) => (s.pid === undefined ? [] : [s.pid]));

function envelopeOk(envelope: Json, check: (result: Json) => string | undefined): string | undefined {
  return envelope['status'] === 'succeeded' ? check(envelope['result'] as Json) : `failed: ${JSON.stringify(envelope['error'])}`;
}

function hoverOk(r: Json): string | undefined {
  return r['found'] === true ? undefined : `no hover: ${JSON.stringify(r).slice(0, 200)}`;
}

/** The document holds one ERROR and one WARN. */
function diagOk(r: Json): string | undefined {
  return r['state'] === 'fresh' && r['total'] === 2 ? undefined : `diagnostics ${String(r['state'])}, ${String(r['total'])} item(s)`;
}

/**
 * @param options knobs
 * @param live what is running is added here while it runs
 * @returns the measurements
 */
export async function runProtocolOverhead(options: OverheadOptions, live: Set<Stoppable>): Promise<OverheadResult> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'dsh-lsp-bench-protocol-'));
  const log = options.progress;
  const filePath = 'a.fake';
  const absPath = join(dir, filePath);
  writeFileSync(absPath, DOCUMENT);
  const { command, args } = fakeServerCommand({});
  const entry = { command, args, extensionToLanguage: { '.fake': 'fake' } };
  writeFileSync(join(dir, 'servers.json'), JSON.stringify({ fake: entry }));
  const killed: number[] = [];
  let harness: HarnessServices | undefined;
  let plainEngine: LspEngine | undefined;
  let booted: BootedComposition | undefined;
  let client: ServeClient | undefined;
  const inProcess: Stoppable = {
    serverPids: () => [...pidsOf(plainEngine), ...pidsOf(booted?.lspActions()?.engine)],
    stop: async () => {
      await plainEngine?.dispose();
      await harness?.dispose();
      await booted?.dispose();
    },
  };
  const served: Stoppable = {
    serverPids: () => (client === undefined ? [] : [client.pid]),
    stop: async () => {
      await client?.close();
    },
  };
  live.add(inProcess);
  live.add(served);
  try {
    log('  plain engine (dsh-fs-local) on the fake server');
    harness = await createHarnessServices(dir);
    const config = resolveConfig({ embeddedTypeScript: false, servers: { fake: entry } });
    const executables = await resolveServerExecutables(config, harness.subprocess);
    const plain = new LspEngine({ config, subprocess: harness.subprocess, fs: harness.fs, executables });
    plainEngine = plain;

    log("  serve's default composition, in process, on the fake server");
    const io = { stdin: process.stdin, stdout: process.stderr, stderr: process.stderr, env: process.env, cwd: dir };
    const common = { servers: join(dir, 'servers.json'), logLevel: 'warn' } as const;
    booted = await bootPrepared(prepareComposition(common, { workspace: dir, sandbox: 'workspace-write', editor: false }, io), common, io);
    const api = booted.lspActions();
    if (api === undefined) throw new Error('the default composition did not provide lspActions');
    const { engine, runner } = api;

    log('  serve on the fake server');
    const theClient = new ServeClient(['--workspace', dir, '--servers', join(dir, 'servers.json')]);
    client = theClient;
    const list = await theClient.request('lsp.actions.list', {});
    if ((list['result'] as Json | undefined)?.['protocol'] !== 'lsp-actions/v1') throw new Error(`lsp.actions.list: ${JSON.stringify(list).slice(0, 300)}`);
    theClient.notify('lsp.events', { subscribe: true });

    const target = { root: dir, path: absPath };
    const wire = { filePath, workspaceRoot: dir };
    const signal = new AbortController().signal;
    const hoverOn = (e: LspEngineApi) => async (): Promise<string | undefined> =>
      (await e.hover(target, HOVER_AT))?.contents.includes('fake hover') ? undefined : 'no hover';
    const diagnosticsOn = (e: LspEngineApi) => async (): Promise<string | undefined> => {
      const r = await e.diagnostics(target);
      return r.state === 'fresh' && r.diagnostics.length === 2 ? undefined : `diagnostics ${r.state}, ${r.diagnostics.length} item(s)`;
    };

    const operations: Array<{ action: string; engineCall: string; ops: Record<Tier, Op> }> = [
      {
        action: 'hover.get',
        engineCall: 'engine.hover()',
        ops: {
          plain: hoverOn(plain),
          engine: hoverOn(engine),
          runner: async () => hoverOk((await runner.run({ action: 'hover.get', params: { ...wire, position: HOVER_AT }, signal, toolName: 'bench' })) as Json),
          serve: async () => envelopeOk(await theClient.run('hover.get', { ...wire, position: HOVER_AT }), hoverOk),
        },
      },
      {
        action: 'diagnostics.get',
        engineCall: 'engine.diagnostics()',
        ops: {
          plain: diagnosticsOn(plain),
          engine: diagnosticsOn(engine),
          runner: async () => diagOk((await runner.run({ action: 'diagnostics.get', params: wire, signal, toolName: 'bench' })) as Json),
          serve: async () => envelopeOk(await theClient.run('diagnostics.get', wire), diagOk),
        },
      },
    ];

    // Every engine opens the document and its fake server publishes before anything is timed.
    await plain.diagnostics(target);
    await engine.diagnostics(target);
    await theClient.run('diagnostics.get', wire);
    const servePid = theClient.pid;
    const fakes = { plain: pidsOf(plain)[0], engine: pidsOf(engine)[0], serve: fakeChildOf(servePid) };
    if (fakes.plain === undefined || fakes.engine === undefined) throw new Error('an in-process engine did not start the fake server');
    const rolesOf = (tier: Tier): Record<string, number> =>
      tier === 'serve'
        ? { host: process.pid, serve: servePid, server: fakes.serve }
        : { host: process.pid, server: (tier === 'plain' ? fakes.plain : fakes.engine) as number };

    const results: OperationResult[] = [];
    for (const op of operations) {
      for (const tier of TIERS) {
        const warm = await runLoad(options.warmup, 1, op.ops[tier]);
        if (warm.failures > 0) throw new Error(`${op.action} on ${tier}: ${warm.firstFailure ?? ''}`);
      }
      const runs: TierRun[] = [];
      for (const inflight of options.inflight) {
        const byTier = new Map<Tier, TierRun>(TIERS.map((tier) => [tier, { tier, inflight, latencies: [], roundMedians: [], wallMs: 0, failures: 0, cpuMs: {} }]));
        const perRound = Math.ceil(options.requests / options.rounds);
        for (let round = 0; round < options.rounds; round++) {
          for (const tier of rotate(TIERS, round)) {
            const acc = byTier.get(tier) as TierRun;
            const before = { ...theClient.counts };
            const { value, cpuMs } = await withCpu(rolesOf(tier), () => runLoad(perRound, inflight, op.ops[tier]));
            acc.latencies.push(...value.latencies);
            acc.roundMedians.push(summarize(value.latencies).median);
            acc.wallMs += value.wallMs;
            acc.failures += value.failures;
            if (value.firstFailure !== undefined) acc.firstFailure ??= value.firstFailure;
            for (const [role, ms] of Object.entries(cpuMs)) acc.cpuMs[role] = (acc.cpuMs[role] ?? 0) + ms;
            if (tier === 'serve') {
              const w = acc.wire ?? { responses: 0, events: 0, bytes: 0 };
              w.responses += theClient.counts.responses - before.responses;
              w.events += theClient.counts.events - before.events;
              w.bytes += theClient.counts.bytes - before.bytes;
              acc.wire = w;
            }
          }
        }
        for (const run of byTier.values()) {
          runs.push(run);
          const sorted = [...run.latencies].sort((a, b) => a - b);
          log(`  ${op.action} ${run.tier} ×${inflight}: ${((run.latencies.length / run.wallMs) * 1000).toFixed(0)} req/s, median ${(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN).toFixed(2)} ms${run.failures > 0 ? `, ${run.failures} failed` : ''}`);
        }
      }
      results.push({ action: op.action, engineCall: op.engineCall, runs });
    }
    if (theClient.counts.junk > 0) throw new Error(`serve wrote ${theClient.counts.junk} non-JSON line(s) on stdout`);

    const servePids = processTree([servePid]);
    const serveExit = await theClient.close();
    client = undefined;
    const inProcessPids = processTree(inProcess.serverPids());
    await inProcess.stop();
    plainEngine = undefined;
    harness = undefined;
    booted = undefined;
    await sleep(300);
    killed.push(...killSurvivors([...servePids, ...inProcessPids]));
    return {
      operations: results,
      document: { lines: DOCUMENT.split('\n').length, bytes: Buffer.byteLength(DOCUMENT) },
      serveExit,
      killedAfterStop: killed,
      wallMs: performance.now() - started,
    };
  } finally {
    const leftover = [...processTree(served.serverPids()), ...processTree(inProcess.serverPids())];
    await Promise.allSettled([served.stop(), inProcess.stop()]);
    killSurvivors(leftover);
    live.delete(inProcess);
    live.delete(served);
    rmSync(dir, { recursive: true, force: true });
  }
}
