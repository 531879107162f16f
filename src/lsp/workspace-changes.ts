/**
 * Keeping every server's view of the files equal to the disk, whoever changed them
 * (docs/decisions/0010-cross-file-freshness.md). Changes are learned three ways — our own
 * writes and observations ({@link WorkspaceChanges.apply} via `filesChanged`), an optional
 * workspace watcher (`watch` dependency), and a `stat` sweep of the open documents before
 * every request — and applied the same way:
 *
 * - a document we hold open is re-synced (`didChange`), or closed when deleted;
 * - a file we do not hold open is announced with `workspace/didChangeWatchedFiles`, and, to a
 *   server that forwards requests to tsserver (which ignores that notification unless told to
 *   use client watchers), made known in a way tsserver honours at once: `didOpen` with the disk
 *   text + `didClose` for a change or a deletion, tsserver `reloadProjects` for a creation
 *   (a recreated import target is otherwise never re-resolved — measured);
 * - every server that sees the file is told its other documents' diagnostics may have changed
 *   (collectors ask again), and listeners get a {@link DependencyChangeEvent}.
 *
 * A change noticed (watcher event, sweep hit, `filesChanged`) bumps {@link noticed} at once, so
 * an answer in flight across it comes back `pending`, never `fresh`.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { URI } from 'vscode-uri';
import type { DocumentStore } from '../documents/document-store.ts';
import { readDocumentText } from '../documents/document-reader.ts';
import { sweepOpenFiles } from '../documents/open-set-sweep.ts';
import { isActionError } from '../errors.ts';
import type { DiagnosticsCollector } from './diagnostics-collector.ts';
import type { DependencyChangeEvent, WatchDegradedEvent, WorkspaceWatch } from './engine-types.ts';
import type { EngineLog } from './json-rpc-connection.ts';
import type { LanguageClient } from './language-client.ts';
import type { ServerPool } from './server-pool.ts';
import { workspaceRelative, type ServerRouter } from './server-routing.ts';
import type { ServerSessions } from './server-sessions.ts';
import { TSSERVER_REQUEST_COMMAND, offersTsserverRequest } from './tsserver-diagnostics.ts';
import { watchedFileEvents, type FileChange } from './watched-files.ts';

/** What applying changes needs from the engine. */
export interface WorkspaceChangesDeps {
  fs: Pick<FileSystem, 'resolve' | 'readText' | 'stat'>;
  store: DocumentStore;
  sessions: ServerSessions;
  router: ServerRouter;
  pool: ServerPool;
  collectorOf: (client: LanguageClient) => DiagnosticsCollector | undefined;
  log: EngineLog;
  /** Largest `maxDocumentBytes` (texts of unopened files sent to tsserver). */
  maxBytes: number;
  /** Told after every applied batch that may change open documents' diagnostics. */
  onDependencyChange: (event: DependencyChangeEvent) => void;
  watch?: WorkspaceWatch | undefined;
  /** Told once per root whose watching became degraded; returns whether a listener heard it. */
  onWatchDegraded?: (event: WatchDegradedEvent) => boolean;
}

/** Learns and applies file changes for one engine. */
export class WorkspaceChanges {
  private readonly deps: WorkspaceChangesDeps;
  /** Bumped whenever a change is noticed. */
  noticed = 0;
  private chain: Promise<void> = Promise.resolve();
  /** A sync queued behind the running one and not started yet (callers join it). */
  private queued: Promise<void> | undefined;
  private pending: FileChange[] = [];
  private sweeping = false;
  private readonly watching = new Map<string, () => void>();
  /** Roots whose watching is degraded, with the sweep that replaces it (if the watcher has one). */
  private readonly degraded = new Map<string, { reason: string; sweep: (() => Promise<void>) | undefined }>();
  /** Files seen deleted (bounded): swept too, since a recreation must be announced as one. */
  private readonly gone = new Set<string>();

  /** @param deps engine parts */
  constructor(deps: WorkspaceChangesDeps) {
    this.deps = deps;
  }

  /**
   * Starts watching `root` with the injected watcher (once per root).
   * @param root a server root or workspace root
   */
  watchRoot(root: string): void {
    const watch = this.deps.watch;
    if (watch === undefined || this.watching.has(root) || this.degraded.has(root)) return;
    try {
      this.watching.set(root, watch(root, (changes) => this.enqueue(changes), { onDegraded: (reason, sweep) => this.degrade(root, reason, sweep) }));
    } catch (error) {
      this.degrade(root, `the watcher could not be set up: ${(error as Error).message}`, undefined);
    }
  }

  /** @returns the degraded roots (for status and `check`'s report) */
  degradedRoots(): WatchDegradedEvent[] {
    return [...this.degraded].map(([root, d]) => ({ root, reason: d.reason, fallback: d.sweep === undefined ? 'none' : 'sweep' }));
  }

  /**
   * @param path a file
   * @returns why answers about it cannot be known fresh: it lies under a root whose watching
   *   failed with no sweep to replace it (undefined otherwise)
   */
  blindSpot(path: string): string | undefined {
    for (const [root, d] of this.degraded) {
      if (d.sweep === undefined && workspaceRelative(path, root) !== undefined) return `watching ${root} failed (${d.reason}); changes to other files there cannot be seen`;
    }
    return undefined;
  }

  private degrade(root: string, reason: string, sweep: (() => Promise<void>) | undefined): void {
    if (this.degraded.has(root)) return;
    this.degraded.set(root, { reason, sweep });
    // a change may have been missed already: answers in flight must not come back fresh
    this.noticed++;
    const how =
      sweep === undefined
        ? 'answers about files there are `stale` until it is restarted'
        : 'outside changes are found by a stat sweep of the watched tree before every answer (slower, still exact)';
    // said once: to the host's listener when it has one (check prints it), else as a warning
    const heard = this.deps.onWatchDegraded?.({ root, reason, fallback: sweep === undefined ? 'none' : 'sweep' }) ?? false;
    this.deps.log(heard ? 'info' : 'warn', `watching ${root} is degraded: ${reason}; ${how}`);
  }

  /**
   * Changes reported by a watcher: noticed now, applied soon (and before the next request).
   * @param changes what changed
   */
  enqueue(changes: readonly FileChange[]): void {
    if (changes.length === 0) return;
    this.noticed++;
    this.pending.push(...changes);
    // a sweep reports inside a running sync, which applies `pending` right after it
    if (this.sweeping) return;
    void this.sync().catch((error: unknown) => this.deps.log('debug', `applying watched changes: ${String(error)}`));
  }

  /**
   * Brings every server's view up to date before a request: the watcher's pending changes and
   * a sweep of the open documents. Concurrent callers share a sync that has not started yet; a
   * running one is never joined (it may have swept before the caller's change).
   * @returns when done (errors are logged, never thrown: the request itself reports them)
   */
  sync(): Promise<void> {
    if (this.queued !== undefined) return this.queued;
    const run = async (): Promise<void> => {
      this.queued = undefined;
      // let a watcher deliver events the OS already queued (it reports on the next turn)
      await new Promise<void>((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
      // a degraded watcher's sweep reports (through enqueue, into `pending`) what it missed
      for (const [root, { reason, sweep }] of this.degraded) {
        if (sweep === undefined) continue;
        this.sweeping = true;
        try {
          await sweep();
        } catch (error) {
          // no way of knowing left: answers there are stale from now on
          this.degraded.set(root, { reason: `${reason}; its sweep failed too: ${(error as Error).message}`, sweep: undefined });
          this.deps.log('warn', `watching ${root}: the sweep that replaced the watcher failed (${(error as Error).message}); answers about files there are \`stale\``);
        } finally {
          this.sweeping = false;
        }
      }
      // with a healthy watcher, outside changes arrive as events (applied below); without one
      // (or with one that failed), stat every open document (cost: docs/benchmarks.md, "cross-file sync")
      const watched = this.watching.size > 0 && this.degraded.size === 0;
      const found = watched ? [] : await sweepOpenFiles(this.deps.fs, this.deps.store.diskBacked());
      if (this.gone.size > 0) {
        for (const change of await sweepOpenFiles(this.deps.fs, [...this.gone].map((path) => ({ path, version: '' })))) {
          if (change.kind === 'changed' && !this.pending.some((p) => p.path === change.path)) found.push({ path: change.path, kind: 'created' });
        }
      }
      if (found.length > 0) this.noticed++;
      const changes = [...this.pending, ...found];
      this.pending = [];
      if (changes.length > 0) await this.applyNow(changes);
    };
    const next = this.chain.then(run, run);
    this.chain = next.catch((error: unknown) => this.deps.log('debug', `workspace sync: ${String(error)}`));
    this.queued = this.chain;
    return this.chain;
  }

  /**
   * Applies changes learned elsewhere (`filesChanged`), in order with the other syncs.
   * @param changes what changed
   * @param signal cancels waiting (the changes are still applied)
   */
  async apply(changes: readonly FileChange[], signal?: AbortSignal): Promise<void> {
    if (changes.length === 0) return;
    this.noticed++;
    const run = (): Promise<void> => this.applyNow(changes);
    const next = this.chain.then(run, run);
    this.chain = next.catch((error: unknown) => this.deps.log('debug', `filesChanged: ${String(error)}`));
    this.queued = undefined;
    if (signal === undefined) return next;
    await Promise.race([next, new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }))]);
  }

  private async applyNow(input: readonly FileChange[]): Promise<void> {
    const changes = dedupe(input);
    const { store, router, pool } = this.deps;
    for (const change of changes) {
      if (change.kind === 'deleted') this.gone.add(change.path);
      else this.gone.delete(change.path);
    }
    while (this.gone.size > GONE_LIMIT) this.gone.delete(this.gone.values().next().value as string);
    router.invalidateRoots(changes.map((c) => c.path));
    const unopened: FileChange[] = [];
    for (const change of changes) {
      const docs = store.docsFor(change.path);
      if (docs.length === 0) {
        unopened.push(change);
        continue;
      }
      if (change.kind === 'deleted') {
        // closed, then announced like any file not open (a server may still hold it)
        store.closeEverywhere(change.path);
        unopened.push(change);
        continue;
      }
      try {
        const state = await this.deps.sessions.readState(change.path);
        for (const doc of docs) store.release(store.acquire(doc.client, state, doc.languageId, doc.root));
      } catch (error) {
        if (!isActionError(error)) throw error;
        this.deps.log('debug', `re-sync ${change.path}: ${error.message}`);
      }
    }
    const affected: DependencyChangeEvent['affected'] = [];
    for (const client of pool.clients()) {
      const sees = changes.filter((c) => this.sees(client, c.path));
      if (sees.length === 0) continue;
      const mine = unopened.filter((c) => this.sees(client, c.path));
      if (mine.length > 0) {
        const events = watchedFileEvents(client.registry, client.root, mine);
        if (events.length > 0) client.notify('workspace/didChangeWatchedFiles', { changes: events });
        if (offersTsserverRequest(client.registry)) await this.tellTsserver(client, mine);
      }
      this.deps.collectorOf(client)?.noteDependencyChange();
      for (const doc of store.docsOf(client)) affected.push({ root: doc.root, path: doc.path, serverId: client.serverId });
    }
    if (affected.length > 0) this.deps.onDependencyChange({ changes, affected });
  }

  /** Whether `client` may see `path`: inside its root, or inside a workspace of its documents. */
  private sees(client: LanguageClient, path: string): boolean {
    if (workspaceRelative(path, client.root) !== undefined) return true;
    return this.deps.store.docsOf(client).some((d) => workspaceRelative(path, d.root) !== undefined);
  }

  /**
   * Makes tsserver see changes to files no document of ours holds open (measured with
   * typescript-language-server 5.3.0 + TypeScript 5.9.3: it forwards didChangeWatchedFiles only
   * with `useClientFileWatcher`, and tsserver's own watchers lag or, for a recreated file, never
   * re-resolve the failed import).
   */
  private async tellTsserver(client: LanguageClient, changes: readonly FileChange[]): Promise<void> {
    let reload = false;
    for (const change of changes) {
      const languageId = this.deps.router.route(change.path, client.root).find((r) => r.serverId === client.serverId)?.languageId;
      if (change.kind !== 'changed' || languageId === undefined) {
        // a new file (may satisfy a failed import), a deleted one (tsserver keeps a closed
        // copy's script info, after which a recreation is never re-resolved — measured), or a
        // config file (tsconfig.json, package.json)
        reload = true;
        continue;
      }
      let text: string;
      try {
        text = await readDocumentText(this.deps.fs, change.path, this.deps.maxBytes, undefined, () => undefined);
      } catch {
        reload = true;
        continue;
      }
      if (this.deps.store.docsFor(change.path).some((d) => d.client === client)) continue; // opened meanwhile
      const uri = URI.file(change.path).toString();
      // open with the disk text and close again: tsserver takes the text, and on close of a
      // file that exists reloads it from disk (same text)
      client.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 0, text } });
      client.notify('textDocument/didClose', { textDocument: { uri } });
    }
    if (reload) {
      try {
        await client.request('workspace/executeCommand', { command: TSSERVER_REQUEST_COMMAND, arguments: ['reloadProjects', {}] });
      } catch (error) {
        this.deps.log('warn', `${client.serverId}: tsserver reloadProjects failed: ${(error as Error).message}`);
      }
    }
  }

  /** Stops every watcher. */
  dispose(): void {
    for (const stop of this.watching.values()) {
      try {
        stop();
      } catch {
        // already stopped
      }
    }
    this.watching.clear();
    this.pending = [];
  }
}

/** Deleted files remembered for the recreation sweep. */
const GONE_LIMIT = 64;

/** Last change per path wins, except that created-then-changed stays created. */
function dedupe(changes: readonly FileChange[]): FileChange[] {
  const byPath = new Map<string, FileChange>();
  for (const change of changes) {
    const before = byPath.get(change.path);
    byPath.set(change.path, before?.kind === 'created' && change.kind === 'changed' ? before : change);
  }
  return [...byPath.values()];
}
