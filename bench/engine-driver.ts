/**
 * (a) This engine: `LspEngine` over the real harness services (dsh-subprocess-local,
 * dsh-fs-local), exactly as the plugin runs it. An edit is a write to disk followed by
 * `engine.diagnostics()`; the engine reads the file through the fs seam, sends the
 * incremental `didChange` and waits until its result is fresh. `onDiagnostics` timestamps when
 * the first publish showing the edit reached the engine, to split server time from settle time.
 */
import { writeFileSync } from 'node:fs';
import type { Config } from '../src/config.ts';
import type { EngineDiagnostic, FileDiagnostics } from '../src/lsp/engine-types.ts';
import { LspEngine } from '../src/lsp/lsp-engine.ts';
import { resolveServerExecutables } from '../src/lsp/resolve-server-executables.ts';
import { createHarnessServices, type HarnessServices } from '../tests/support/harness-services.ts';
import { expectationFor, reflects, type DiagItem } from './diag-oracle.ts';
import type { BenchDriver, DiagSample, MixRequest } from './driver-types.ts';
import type { BenchProject } from './generate-project.ts';
import { now } from './raw-session.ts';
import type { ServerSpec } from './server-specs.ts';

const SEVERITY: Record<EngineDiagnostic['severity'], number> = { error: 1, warning: 2, information: 3, hint: 4 };

/** @returns engine diagnostics reduced for the oracle */
const toItems = (diagnostics: EngineDiagnostic[]): DiagItem[] =>
  diagnostics.map((d) => ({ line: d.range.start.line, severity: SEVERITY[d.severity], message: d.message }));

/** Engine log lines worth reporting (warnings, and the reopen nudges at debug level). */
export interface EngineLogCounts {
  warnings: string[];
  nudges: number;
}

/** The engine client. */
export class EngineDriver implements BenchDriver {
  readonly label: string;
  readonly logCounts: EngineLogCounts = { warnings: [], nudges: 0 };
  private readonly spec: ServerSpec;
  private readonly project: BenchProject;
  private readonly config: Config;
  private harness: HarnessServices | undefined;
  private engine: LspEngine | undefined;
  private updates: Array<{ at: number; items: DiagItem[] }> = [];

  /**
   * @param spec the server
   * @param project the generated project (this client's own copy)
   * @param options label, and a `diagnosticsSettleMs` override (only for the breakdown variant)
   * @param options.label row label
   * @param options.settleMs overrides the server entry's `diagnosticsSettleMs`
   */
  constructor(spec: ServerSpec, project: BenchProject, options: { label: string; settleMs?: number }) {
    this.spec = spec;
    this.project = project;
    this.label = options.label;
    this.config = spec.engineConfig(options.settleMs);
  }

  /** @returns the effective `diagnosticsSettleMs` of the server entry */
  get settleMs(): number {
    return this.config.servers[this.spec.serverId]?.diagnosticsSettleMs ?? Number.NaN;
  }

  async coldStart(): Promise<DiagSample> {
    this.harness = await createHarnessServices(this.project.root);
    const executables = await resolveServerExecutables(this.config, this.harness.subprocess);
    const t0 = now();
    const engine = new LspEngine({
      config: this.config,
      subprocess: this.harness.subprocess,
      fs: this.harness.fs,
      executables,
      log: (level, message) => {
        if (level === 'warn' || level === 'error') this.logCounts.warnings.push(message);
        if (message.includes('reopening it to ask again')) this.logCounts.nudges++;
      },
    });
    this.engine = engine;
    engine.onDiagnostics((event) => {
      if (event.path === this.project.appPath) this.updates.push({ at: now(), items: toItems(event.diagnostics.diagnostics) });
    });
    const result = await engine.diagnostics(this.target(), { waitMs: 60_000 });
    return this.judge(result, t0, expectationFor(this.project.initialErrorValue, this.project.errorLine));
  }

  async edit(value: number | undefined): Promise<DiagSample> {
    const engine = this.started();
    this.updates = [];
    const t0 = now();
    writeFileSync(this.project.appPath, this.project.appText(value));
    const result = await engine.diagnostics(this.target(), { waitMs: 60_000 });
    return this.judge(result, t0, expectationFor(value, this.project.errorLine));
  }

  async completion(): Promise<{ ms: number; items: number }> {
    const engine = this.started();
    const t0 = now();
    const result = await engine.completion(this.target(), this.project.probes.completion);
    return { ms: now() - t0, items: result.items.length };
  }

  async resetApp(): Promise<void> {
    await this.edit(this.project.initialErrorValue);
  }

  mix(): MixRequest[] {
    const engine = this.started();
    const { probes, errorLine, symbolsPath, formatPath, root } = this.project;
    const app = this.target();
    const lineLength = this.project.errorLineText(this.project.initialErrorValue).length;
    const errorRange = { start: { line: errorLine, character: 0 }, end: { line: errorLine, character: lineLength } };
    return [
      { name: 'hover', run: () => engine.hover(app, probes.hover) },
      { name: 'definition', run: () => engine.definition(app, probes.definition) },
      { name: 'references', run: () => engine.references(app, probes.references) },
      { name: 'completion', run: () => engine.completion(app, probes.completion) },
      { name: 'signatureHelp', run: () => engine.signatureHelp(app, probes.signatureHelp) },
      { name: 'codeActions', run: () => engine.codeActions(app, errorRange) },
      { name: 'documentSymbols', run: () => engine.documentSymbols({ root, path: symbolsPath }) },
      { name: 'format', run: () => engine.format({ root, path: formatPath }, undefined) },
    ];
  }

  serverPids(): number[] {
    return (this.engine?.liveServers() ?? []).flatMap((s) => (s.pid === undefined ? [] : [s.pid]));
  }

  /** @returns documents the engine holds open */
  openDocuments(): number {
    return this.engine?.openDocuments().length ?? 0;
  }

  async stop(): Promise<void> {
    await this.engine?.dispose();
    this.engine = undefined;
    await this.harness?.dispose();
    this.harness = undefined;
  }

  private judge(result: FileDiagnostics, t0: number, expect: ReturnType<typeof expectationFor>): DiagSample {
    const ms = now() - t0;
    const seen = this.updates.find((u) => u.at >= t0 && reflects(u.items, expect));
    const sample: DiagSample = { ms, ok: result.state === 'fresh' && reflects(toItems(result.diagnostics), expect) };
    if (seen !== undefined) sample.firstSeenMs = seen.at - t0;
    if (!sample.ok) sample.note = `state ${result.state}, ${result.diagnostics.length} diagnostic(s) not showing the edit`;
    return sample;
  }

  private target(): { root: string; path: string } {
    return { root: this.project.root, path: this.project.appPath };
  }

  private started(): LspEngine {
    if (this.engine === undefined) throw new Error('engine driver not started');
    return this.engine;
  }
}
