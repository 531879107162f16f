/**
 * End-to-end `diagnostics.get` after an edit through `dsh-lsp-actions serve` on
 * typescript-language-server (the embedded default), against the engine's own figure measured
 * alongside: the same generated project (`generate-project.ts`, one copy each), the same edit
 * pattern as `suite.ts` (two untimed warm-up edits, then timed edits alternating between
 * introducing the error with a unique literal and fixing it), the two clients interleaved per
 * edit in rotating order.
 *
 * An edit through `serve` is what an editor does after a save: write the file on disk, then
 * `lsp.actions.run diagnostics.get` until the envelope shows the edit and says `fresh` (the
 * number of extra calls is reported; it should be 0). The client is subscribed to events, so it
 * also notes when the unsolicited `diagnostics.updated` push showing the edit arrived.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectationFor, fromLspDiagnostics, reflects } from './diag-oracle.ts';
import type { DiagSample } from './driver-types.ts';
import { EngineDriver } from './engine-driver.ts';
import { generateProject, type BenchProject } from './generate-project.ts';
import { ServeClient, type Json } from './protocol-client.ts';
import type { Stoppable } from './protocol-overhead.ts';
import { killSurvivors, processTree, treeRss } from './process-tree.ts';
import { now } from './raw-session.ts';
import type { ServerSpec } from './server-specs.ts';

/** One edit (or the cold start) through `serve`. */
export interface ServeSample extends DiagSample {
  /** `diagnostics.get` calls it took (1 when the first answer was fresh and showed the edit). */
  calls: number;
  /** When the unsolicited `diagnostics.updated` (`origin: "push"`) showing the edit arrived, ms after the write. */
  pushEventMs?: number;
}

/** Both clients' results. */
export interface EndToEndResult {
  serve: { cold: ServeSample; readyMs: number; on: ServeSample[]; off: ServeSample[]; rss?: { mib: number; processes: number }; exit: number | null };
  engine: { cold: DiagSample; on: DiagSample[]; off: DiagSample[]; rss?: { mib: number; processes: number } };
  killedAfterStop: number[];
  wallMs: number;
}

/** How many times one edit may re-ask before the benchmark gives up (a failure, not a sample). */
const MAX_CALLS = 50;

/** The `serve` client of the end-to-end measurement. */
class ServeDiagnostics {
  readonly project: BenchProject;
  client: ServeClient | undefined;
  private readonly rel: string;

  constructor(project: BenchProject) {
    this.project = project;
    this.rel = relative(project.root, project.appPath);
  }

  /** Spawns `serve`, lists, subscribes, then asks until the initial error is fresh. */
  async coldStart(): Promise<{ sample: ServeSample; readyMs: number }> {
    const t0 = now();
    const client = new ServeClient(['--workspace', this.project.root]);
    this.client = client;
    client.keepEvents = true;
    await client.request('lsp.actions.list', {});
    const readyMs = now() - t0;
    client.notify('lsp.events', { subscribe: true });
    const sample = await this.ask(t0, this.project.initialErrorValue);
    return { sample, readyMs };
  }

  async edit(value: number | undefined): Promise<ServeSample> {
    const client = this.started();
    client.clearEvents();
    const t0 = now();
    writeFileSync(this.project.appPath, this.project.appText(value));
    return this.ask(t0, value);
  }

  private async ask(t0: number, value: number | undefined): Promise<ServeSample> {
    const client = this.started();
    const expect = expectationFor(value, this.project.errorLine);
    let calls = 0;
    let last = '';
    while (calls < MAX_CALLS) {
      calls++;
      const envelope = await client.run('diagnostics.get', { filePath: this.rel, workspaceRoot: this.project.root });
      const result = envelope['result'] as Json | undefined;
      if (envelope['status'] === 'succeeded' && result !== undefined) {
        if (result['state'] === 'fresh' && reflects(fromLspDiagnostics(result['diagnostics']), expect)) {
          const sample: ServeSample = { ms: now() - t0, ok: true, calls };
          const push = client.events.find(
            (e) =>
              e.at >= t0 &&
              e.params['kind'] === 'diagnostics.updated' &&
              e.params['origin'] === 'push' &&
              String(e.params['filePath']).endsWith('app.ts') &&
              reflects(fromLspDiagnostics(e.params['diagnostics']), expect),
          );
          if (push !== undefined) sample.pushEventMs = push.at - t0;
          return sample;
        }
        last = `state ${String(result['state'])}, ${String(result['total'])} diagnostic(s)`;
      } else {
        last = `failed: ${JSON.stringify(envelope['error'])}`;
      }
    }
    return { ms: now() - t0, ok: false, calls, note: `no fresh result showing the edit after ${MAX_CALLS} calls (last: ${last})` };
  }

  private started(): ServeClient {
    if (this.client === undefined) throw new Error('serve not started');
    return this.client;
  }
}

const rotate = <T>(list: readonly T[], by: number): T[] => list.map((_, i) => list[(i + by) % list.length] as T);
/** The suite's edit pattern: even iterations introduce the error (a literal unique to the edit), odd ones fix it. */
const editValue = (i: number, base: number): number | undefined => (i % 2 === 0 ? base + i : undefined);

/**
 * @param spec typescript-language-server's spec (the engine's config; `serve` runs the same embedded default)
 * @param options timed edits and progress
 * @param options.edits timed edits per client (alternating)
 * @param options.progress progress lines
 * @param live what is running is added here while it runs
 * @returns both clients' samples
 */
export async function runEndToEnd(spec: ServerSpec, options: { edits: number; progress(line: string): void }, live: Set<Stoppable>): Promise<EndToEndResult> {
  const started = now();
  const log = options.progress;
  const dir = mkdtempSync(join(tmpdir(), 'dsh-lsp-bench-serve-'));
  const serve = new ServeDiagnostics(generateProject(join(dir, 'serve')));
  const engine = new EngineDriver(spec, generateProject(join(dir, 'engine')), { label: '(a) engine' });
  const served: Stoppable = { serverPids: () => (serve.client === undefined ? [] : [serve.client.pid]), stop: async () => void (await serve.client?.close()) };
  live.add(served);
  live.add(engine);
  try {
    log('  serve on typescript-language-server: cold start');
    const cold = await serve.coldStart();
    log(`  cold serve: ready ${cold.readyMs.toFixed(0)} ms, fresh diagnostics ${cold.sample.ms.toFixed(0)} ms`);
    const engineCold = await engine.coldStart();
    log(`  cold engine: ${engineCold.ms.toFixed(0)} ms`);
    for (const value of [50, undefined]) {
      await serve.edit(value);
      await engine.edit(value);
    }
    const out: EndToEndResult = {
      serve: { cold: cold.sample, readyMs: cold.readyMs, on: [], off: [], exit: null },
      engine: { cold: engineCold, on: [], off: [] },
      killedAfterStop: [],
      wallMs: 0,
    };
    log(`  ${options.edits} interleaved edits`);
    for (let i = 0; i < options.edits; i++) {
      const value = editValue(i, 100);
      const steps = [
        async (): Promise<void> => void (value === undefined ? out.serve.off : out.serve.on).push(await serve.edit(value)),
        async (): Promise<void> => void (value === undefined ? out.engine.off : out.engine.on).push(await engine.edit(value)),
      ];
      for (const step of rotate(steps, i)) await step();
    }
    const servePids = processTree(served.serverPids());
    out.serve.rss = treeRss(served.serverPids());
    out.engine.rss = treeRss(engine.serverPids());
    const enginePids = processTree(engine.serverPids());
    out.serve.exit = (await serve.client?.close()) ?? null;
    serve.client = undefined;
    await engine.stop();
    await sleep(300);
    out.killedAfterStop = killSurvivors([...servePids, ...enginePids]);
    out.wallMs = now() - started;
    return out;
  } finally {
    const leftover = [...processTree(served.serverPids()), ...processTree(engine.serverPids())];
    await Promise.allSettled([served.stop(), engine.stop()]);
    killSurvivors(leftover);
    live.delete(served);
    live.delete(engine);
    rmSync(dir, { recursive: true, force: true });
  }
}
