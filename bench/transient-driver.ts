/**
 * (c) The transient lifecycle of earlier designs on a warm server process: every call reads the
 * file, sends `didOpen`, asks, and sends `didClose`. Two ways to decide that diagnostics are
 * complete:
 * - `oracle`: the first publish that shows the edit (the lifecycle's own cost, same rule as (b));
 * - `settle`: what such a client can actually do without knowing the answer — take the last
 *   publish once none followed for `settleMs` (push servers only; a pull answers directly).
 * A cold start is spawn → initialize → one such call: the cost of spawn-per-call designs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expectationFor, reflects } from './diag-oracle.ts';
import type { BenchDriver, DiagSample } from './driver-types.ts';
import type { BenchProject } from './generate-project.ts';
import type { RawConnection } from './raw-connection.ts';
import { countItems } from './raw-lsp-driver.ts';
import { PublishRouter, didClose, didOpen, now, pullUntil, startRawServer, uriOf } from './raw-session.ts';
import type { ServerSpec } from './server-specs.ts';

/** The transient client. */
export class TransientDriver implements BenchDriver {
  readonly label = '(c) transient';
  private readonly spec: ServerSpec;
  private readonly project: BenchProject;
  private conn: RawConnection | undefined;
  private router: PublishRouter | undefined;
  private version = 0;

  /**
   * @param spec the server
   * @param project the generated project (this client's own copy)
   */
  constructor(spec: ServerSpec, project: BenchProject) {
    this.spec = spec;
    this.project = project;
  }

  async coldStart(): Promise<DiagSample> {
    const t0 = now();
    this.conn = await startRawServer(this.spec, this.project.root);
    this.router = new PublishRouter(this.conn);
    await this.diagnosticsCall(expectationFor(this.project.initialErrorValue, this.project.errorLine));
    return { ms: now() - t0, ok: true };
  }

  async edit(value: number | undefined): Promise<DiagSample> {
    const t0 = now();
    writeFileSync(this.project.appPath, this.project.appText(value));
    await this.diagnosticsCall(expectationFor(value, this.project.errorLine));
    return { ms: now() - t0, ok: true };
  }

  /**
   * The same edit, judged by the settle rule instead of the oracle.
   * @param value the error's literal, or `undefined` to fix it
   * @param settleMs quiet time after the last publish
   * @returns the time, and whether the settled list showed the edit
   */
  async editSettled(value: number | undefined, settleMs: number): Promise<DiagSample> {
    const { conn, router } = this.session();
    const path = this.project.appPath;
    const t0 = now();
    writeFileSync(path, this.project.appText(value));
    const settled = router.waitSettled(path, settleMs);
    didOpen(conn, path, ++this.version, readFileSync(path, 'utf8'));
    const items = await settled;
    this.close(path, true);
    const ok = reflects(items, expectationFor(value, this.project.errorLine));
    return ok ? { ms: now() - t0, ok } : { ms: now() - t0, ok, note: 'settled list did not show the edit' };
  }

  async completion(): Promise<{ ms: number; items: number }> {
    const { conn } = this.session();
    const path = this.project.appPath;
    const t0 = now();
    didOpen(conn, path, ++this.version, readFileSync(path, 'utf8'));
    const result = await conn.request<unknown>('textDocument/completion', { textDocument: { uri: uriOf(path) }, position: this.project.probes.completion });
    this.close(path, false);
    return { ms: now() - t0, items: countItems(result) };
  }

  async resetApp(): Promise<void> {
    writeFileSync(this.project.appPath, this.project.appText(this.project.initialErrorValue));
  }

  serverPids(): number[] {
    return this.conn === undefined ? [] : [this.conn.pid];
  }

  async stop(): Promise<void> {
    await this.conn?.shutdown();
    this.conn = undefined;
  }

  private async diagnosticsCall(expect: ReturnType<typeof expectationFor>): Promise<void> {
    const { conn, router } = this.session();
    const path = this.project.appPath;
    const text = readFileSync(path, 'utf8');
    if (this.spec.diagnostics === 'push') {
      const seen = router.waitFor(path, expect);
      didOpen(conn, path, ++this.version, text);
      await seen;
    } else {
      didOpen(conn, path, ++this.version, text);
      await pullUntil(conn, path, expect);
    }
    this.close(path, true);
  }

  /**
   * @param path the document
   * @param published whether the server published diagnostics for it while open (then a
   *   clearing `[]` follows the close on servers that do that, and must not be taken for the next call's answer)
   */
  private close(path: string, published: boolean): void {
    const { conn, router } = this.session();
    if (published && this.spec.clearsOnClose) router.expectCloseEcho(path);
    didClose(conn, path);
  }

  private session(): { conn: RawConnection; router: PublishRouter } {
    if (this.conn === undefined || this.router === undefined) throw new Error('transient driver not started');
    return { conn: this.conn, router: this.router };
  }
}
