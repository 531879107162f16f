/**
 * The Problems view: one DiagnosticCollection fed by `diagnostics.get` for open files (with the
 * unsaved buffer's `text`, debounced while typing) and by `diagnostics.updated` events (pushes
 * and run results). Remembers each file's freshness; a `pending`/`stale` answer is asked again
 * (backing off) until it is fresh, and is shown as such in the status bar meanwhile.
 * Versions are the engine's document versions of ONE backend process: what the feed remembers
 * carries that process's epoch, and a new process (restart, crash) makes every remembered entry
 * of its folder `stale` and its versions incomparable — the new backend counts from 1 again.
 * Only documents this extension owns are shown (ownership.ts); the built-in shows the others.
 */
import * as vscode from 'vscode';
import type { FolderBackend } from './folder-backend.ts';
import { ownsDocument, ownsPath } from './ownership.ts';
import { absolutePath, toDiagnostic } from './wire-mapping.ts';
import type { Freshness, WireDiagnostics } from './wire-types.ts';

/** What the feed knows about one file. */
export interface FileFreshness {
  state: Freshness;
  version: number | undefined;
  /** The backend process the snapshot came from. */
  epoch: number;
}

const RETRY_MS = [1000, 2000, 4000, 8000, 15000];

/** Diagnostics of open files, from the backends. */
export class DiagnosticsFeed implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('dsh-lsp-actions');
  readonly #freshness = new Map<string, FileFreshness>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #retries = new Map<string, number>();
  readonly #backendFor: (uri: vscode.Uri) => FolderBackend | undefined;
  readonly #changed: () => void;
  readonly #log: (line: string) => void;

  /**
   * @param backendFor the backend serving a file, if any
   * @param changed called when a file's diagnostics or freshness changed
   * @param log a line for the output channel
   */
  constructor(backendFor: (uri: vscode.Uri) => FolderBackend | undefined, changed: () => void, log: (line: string) => void) {
    this.#backendFor = backendFor;
    this.#changed = changed;
    this.#log = log;
  }

  /**
   * @param uri a file
   * @returns its last known freshness
   */
  freshness(uri: vscode.Uri): FileFreshness | undefined {
    return this.#freshness.get(uri.toString());
  }

  /**
   * Asks for a file's diagnostics after `delayMs` (restarting the wait on every call).
   * @param document the open document
   * @param delayMs the debounce
   */
  schedule(document: vscode.TextDocument, delayMs: number): void {
    if (document.uri.scheme !== 'file') return;
    const key = document.uri.toString();
    clearTimeout(this.#timers.get(key));
    this.#timers.set(
      key,
      setTimeout(() => {
        this.#timers.delete(key);
        void this.refresh(document);
      }, delayMs),
    );
  }

  /**
   * Runs `diagnostics.get` for an open document now (its unsaved text when dirty).
   * @param document the document
   */
  async refresh(document: vscode.TextDocument): Promise<void> {
    const backend = this.#backendFor(document.uri);
    if (backend === undefined || document.isClosed || backend.state !== 'ready') return;
    if (!ownsDocument(document)) {
      this.forget(document.uri);
      return;
    }
    const params: Record<string, unknown> = { filePath: backend.relativePath(document.uri) };
    if (document.isDirty) params['text'] = document.getText();
    let envelope;
    try {
      envelope = await backend.run<WireDiagnostics>('diagnostics.get', params);
    } catch (error) {
      this.#log(`diagnostics.get ${String(params['filePath'])}: ${(error as Error).message}`);
      this.#retry(document);
      return;
    }
    if (envelope.status !== 'succeeded' || envelope.result === undefined) {
      // No server for this file (UNAVAILABLE without a reason) is normal for plain text: no retry.
      // Other failures (a timeout, a crashed server) leave the shown result stale and are asked again.
      if (envelope.error?.code === 'LSP_ACTION_UNAVAILABLE' && envelope.error.reason === undefined) return;
      this.#log(`diagnostics.get ${String(params['filePath'])}: ${envelope.error?.code} ${envelope.error?.reason ?? ''} ${envelope.error?.message}`);
      this.#markStale(document.uri);
      this.#retry(document);
      return;
    }
    this.apply(backend, { ...envelope.result, workspaceRoot: backend.folder.uri.fsPath }, envelope.epoch ?? backend.epoch);
    if ((envelope.result.state ?? 'fresh') === 'fresh') this.#retries.delete(document.uri.toString());
    else this.#retry(document);
  }

  /** Asks again later, backing off (1 s, 2 s, 4 s, 8 s, then every 15 s). */
  #retry(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const attempt = this.#retries.get(key) ?? 0;
    this.#retries.set(key, attempt + 1);
    this.schedule(document, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] ?? 15000);
  }

  #markStale(uri: vscode.Uri): void {
    const known = this.#freshness.get(uri.toString());
    if (known !== undefined && known.state === 'fresh') {
      this.#freshness.set(uri.toString(), { ...known, state: 'stale' });
      this.#changed();
    }
  }

  /**
   * Shows a snapshot (a run result or a `diagnostics.updated` event). A snapshot from an older
   * backend process than the running one is ignored. Within one process, an older engine version
   * than the one shown is ignored, and so is a not-fresh snapshot of the version already shown
   * fresh (events and run results may arrive in either order); versions of different processes
   * are never compared. A not-fresh snapshot of an open file is asked again later, so the view
   * converges on a fresh one.
   * @param backend the backend it came from
   * @param snapshot the snapshot
   * @param epoch the backend process that produced it
   */
  apply(backend: FolderBackend, snapshot: WireDiagnostics, epoch: number): void {
    if (typeof snapshot.filePath !== 'string' || !Array.isArray(snapshot.diagnostics)) return;
    if (epoch !== backend.epoch) return;
    const root = snapshot.workspaceRoot ?? backend.folder.uri.fsPath;
    const uri = vscode.Uri.file(absolutePath(snapshot.filePath, root));
    if (!ownsPath(uri)) return;
    const key = uri.toString();
    const known = this.#freshness.get(key);
    const state = snapshot.state ?? 'fresh';
    if (known !== undefined && known.epoch === epoch && known.version !== undefined && snapshot.version !== undefined) {
      if (snapshot.version < known.version) return;
      if (snapshot.version === known.version && known.state === 'fresh' && state !== 'fresh') return;
    }
    this.collection.set(
      uri,
      snapshot.diagnostics.map((d) => toDiagnostic(vscode, d, root)),
    );
    this.#freshness.set(key, { state, version: snapshot.version, epoch });
    this.#changed();
    if (state !== 'fresh' && !this.#timers.has(key)) {
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
      if (document !== undefined) this.#retry(document);
    }
  }

  /**
   * A file changed on disk (a write action, or the backend observed it): ask again if it is open.
   * @param uri the file
   */
  invalidate(uri: vscode.Uri): void {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    this.#markStale(uri);
    if (document !== undefined) this.schedule(document, 50);
  }

  /**
   * @param uri a closed file: its entries leave the Problems view
   */
  forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.#timers.get(key));
    this.#timers.delete(key);
    this.#retries.delete(key);
    this.#freshness.delete(key);
    this.collection.delete(uri);
    this.#changed();
  }

  /**
   * A new backend process is starting for `backend`'s folder: nothing the previous one said is
   * fresh any more. The entries stay visible, marked `stale`, until the new process answers
   * (its `ready` asks again for every open document).
   * @param backend the folder's backend
   */
  restarted(backend: FolderBackend): void {
    const prefix = backend.folder.uri.toString() + '/';
    let changed = false;
    for (const [key, known] of this.#freshness) {
      if (!key.startsWith(prefix) || known.state === 'stale') continue;
      this.#freshness.set(key, { ...known, state: 'stale' });
      changed = true;
    }
    if (changed) this.#changed();
  }

  /**
   * Ownership changed (the built-in's validation setting): drop what is no longer ours, ask for
   * what now is.
   */
  reconsider(): void {
    this.collection.forEach((uri) => {
      if (!ownsPath(uri)) this.forget(uri);
    });
    for (const document of vscode.workspace.textDocuments) if (ownsDocument(document)) this.schedule(document, 0);
  }

  /**
   * @param backend a backend that stopped: its files' entries go
   */
  forgetFolder(backend: FolderBackend): void {
    const prefix = backend.folder.uri.toString() + '/';
    this.collection.forEach((uri) => {
      if (uri.toString().startsWith(prefix)) this.forget(uri);
    });
  }

  dispose(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.collection.dispose();
  }
}
