/**
 * (b) The floor: the same server driven directly with hand-written framing. Documents stay
 * open; an edit is one incremental `didChange`; the wait ends at the first publish (or pull)
 * that shows the edit — a client that knows the answer in advance, so nothing can be faster.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expectationFor, reflects } from './diag-oracle.ts';
import type { BenchDriver, DiagSample, MixRequest, PublishCycle } from './driver-types.ts';
import type { BenchProject, DiagExpectation } from './generate-project.ts';
import type { RawConnection } from './raw-connection.ts';
import { PublishRouter, didOpen, now, pullUntil, startRawServer, uriOf } from './raw-session.ts';
import type { ServerSpec } from './server-specs.ts';

/** The floor client. */
export class RawLspDriver implements BenchDriver {
  readonly label = '(b) raw floor';
  private readonly spec: ServerSpec;
  private readonly project: BenchProject;
  private conn: RawConnection | undefined;
  private router: PublishRouter | undefined;
  private version = 1;
  private errorValue: number | undefined;
  private mixOpened = false;
  private readonly cycles: PublishCycle[] = [];
  private openCycle: { kind: PublishCycle['kind']; t0: number; expect: DiagExpectation } | undefined;

  /**
   * @param spec the server
   * @param project the generated project (this client's own copy)
   */
  constructor(spec: ServerSpec, project: BenchProject) {
    this.spec = spec;
    this.project = project;
    this.errorValue = project.initialErrorValue;
  }

  async coldStart(): Promise<DiagSample> {
    const t0 = now();
    const conn = await startRawServer(this.spec, this.project.root);
    this.conn = conn;
    this.router = new PublishRouter(conn);
    const expect = expectationFor(this.errorValue, this.project.errorLine);
    const text = this.project.appText(this.errorValue);
    this.beginCycle('open', t0, expect);
    if (this.spec.diagnostics === 'push') {
      const seen = this.router.waitFor(this.project.appPath, expect);
      didOpen(conn, this.project.appPath, this.version, text);
      await seen;
    } else {
      didOpen(conn, this.project.appPath, this.version, text);
      await pullUntil(conn, this.project.appPath, expect);
    }
    return { ms: now() - t0, ok: true };
  }

  async edit(value: number | undefined): Promise<DiagSample> {
    const { conn, router } = this.session();
    const { appPath, errorLine } = this.project;
    const t0 = now();
    const previous = this.project.errorLineText(this.errorValue);
    this.errorValue = value;
    writeFileSync(appPath, this.project.appText(value));
    const change = {
      textDocument: { uri: uriOf(appPath), version: ++this.version },
      contentChanges: [{ range: { start: { line: errorLine, character: 0 }, end: { line: errorLine, character: previous.length } }, text: this.project.errorLineText(value) }],
    };
    const expect = expectationFor(value, errorLine);
    this.beginCycle(value === undefined ? 'clean' : 'error', t0, expect);
    if (this.spec.diagnostics === 'push') {
      const seen = router.waitFor(appPath, expect);
      conn.notify('textDocument/didChange', change);
      await seen;
    } else {
      conn.notify('textDocument/didChange', change);
      await pullUntil(conn, appPath, expect);
    }
    return { ms: now() - t0, ok: true };
  }

  async completion(): Promise<{ ms: number; items: number }> {
    const { conn } = this.session();
    const t0 = now();
    const result = await conn.request<unknown>('textDocument/completion', this.at(this.project.probes.completion));
    const ms = now() - t0;
    return { ms, items: countItems(result) };
  }

  async resetApp(): Promise<void> {
    await this.edit(this.project.initialErrorValue);
    this.openCycle = undefined;
  }

  mix(): MixRequest[] {
    const { conn, router } = this.session();
    const { probes, appPath, errorLine, symbolsPath, formatPath } = this.project;
    if (!this.mixOpened) {
      this.mixOpened = true;
      didOpen(conn, symbolsPath, 1, readFileSync(symbolsPath, 'utf8'));
      didOpen(conn, formatPath, 1, readFileSync(formatPath, 'utf8'));
    }
    const lineLength = this.project.errorLineText(this.errorValue).length;
    const errorRange = { start: { line: errorLine, character: 0 }, end: { line: errorLine, character: lineLength } };
    return [
      { name: 'hover', run: () => conn.request('textDocument/hover', this.at(probes.hover)) },
      { name: 'definition', run: () => conn.request('textDocument/definition', this.at(probes.definition)) },
      { name: 'references', run: () => conn.request('textDocument/references', { ...this.at(probes.references), context: { includeDeclaration: true } }) },
      { name: 'completion', run: () => conn.request('textDocument/completion', this.at(probes.completion)) },
      { name: 'signatureHelp', run: () => conn.request('textDocument/signatureHelp', this.at(probes.signatureHelp)) },
      {
        name: 'codeActions',
        run: () => conn.request('textDocument/codeAction', { ...doc(appPath), range: errorRange, context: { diagnostics: router.latest(appPath) } }),
      },
      { name: 'documentSymbols', run: () => conn.request('textDocument/documentSymbol', doc(symbolsPath)) },
      { name: 'format', run: () => conn.request('textDocument/formatting', { ...doc(formatPath), options: { tabSize: 2, insertSpaces: true } }) },
    ];
  }

  publishCycles(): PublishCycle[] {
    return this.cycles;
  }

  serverPids(): number[] {
    return this.conn === undefined ? [] : [this.conn.pid];
  }

  async stop(): Promise<void> {
    this.beginCycle(undefined, 0, { kind: 'clean' });
    await this.conn?.shutdown();
    this.conn = undefined;
  }

  /** Closes the bookkeeping of the previous didOpen/didChange (its publishes are all in by now) and starts the next. */
  private beginCycle(kind: PublishCycle['kind'] | undefined, t0: number, expect: DiagExpectation): void {
    const previous = this.openCycle;
    this.openCycle = kind === undefined ? undefined : { kind, t0, expect };
    if (previous === undefined || this.router === undefined || this.spec.diagnostics !== 'push') return;
    const publishes = this.router.history.filter((h) => h.path === this.project.appPath && h.at >= previous.t0);
    const first = publishes[0];
    const last = publishes.at(-1);
    if (first === undefined || last === undefined) return;
    this.cycles.push({
      kind: previous.kind,
      count: publishes.length,
      spanMs: last.at - first.at,
      firstFinal: reflects(first.items, previous.expect),
      firstEmpty: first.items.length === 0,
    });
  }

  private at(position: { line: number; character: number }): { textDocument: { uri: string }; position: { line: number; character: number } } {
    return { textDocument: { uri: uriOf(this.project.appPath) }, position };
  }

  private session(): { conn: RawConnection; router: PublishRouter } {
    if (this.conn === undefined || this.router === undefined) throw new Error('raw driver not started');
    return { conn: this.conn, router: this.router };
  }
}

/**
 * @param path absolute path
 * @returns a `TextDocumentIdentifier` param object
 */
function doc(path: string): { textDocument: { uri: string } } {
  return { textDocument: { uri: uriOf(path) } };
}

/**
 * @param result a completion result (CompletionList or CompletionItem[])
 * @returns how many items it holds
 */
export function countItems(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const items = (result as { items?: unknown[] } | null)?.items;
  return Array.isArray(items) ? items.length : 0;
}
