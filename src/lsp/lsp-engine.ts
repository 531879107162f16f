/**
 * The LSP engine: warm real language servers, persistent versioned documents and diagnostics
 * with freshness, behind {@link LspEngineApi}. Servers are spawned only through the harness
 * subprocess seam and files are read only through the harness fs seam.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { SubprocessRuntime } from '@deepseek-ai/dsh-subprocess';
import type { Config } from '../config.ts';
import { DocumentStore } from '../documents/document-store.ts';
import { abortError, ActionError } from '../errors.ts';
import { batchDiagnostics, type BatchDeps } from './batch-diagnostics.ts';
import { DiagnosticsCollector } from './diagnostics-collector.ts';
import { EngineRequests } from './engine-requests.ts';
import type {
  ApplyEditHandler,
  CallHierarchyResult,
  CallOptions,
  CodeActionItem,
  CodeActionServer,
  CompletionItemInfo,
  CompletionResult,
  BatchDiagnosticsEntry,
  DeclarationSignature,
  DependencyChangeEvent,
  DiagnosticsEvent,
  WatchDegradedEvent,
  DocumentTarget,
  FileDiagnostics,
  FileLocation,
  HoverResult,
  InlayHintInfo,
  LiveServerInfo,
  LspCommand,
  LspEngineApi,
  NormalizedWorkspaceEdit,
  Position,
  Range,
  ServerDiagnostics,
  FileSnapshot,
  ServerEpoch,
  SignatureHelpResult,
  SymbolNode,
  TextEdit,
  WorkspaceWatch,
} from './engine-types.ts';
import type { EngineLog } from './json-rpc-connection.ts';
import type { LanguageClient } from './language-client.ts';
import { mergeDiagnostics } from './merge-diagnostics.ts';
import { ServerPool } from './server-pool.ts';
import { ServerRouter } from './server-routing.ts';
import { ServerSessions } from './server-sessions.ts';
import { requestDeclarationSignatures } from './tsserver-declaration-signatures.ts';
import { warmStart } from './warm-start.ts';
import { requestFileImporters } from './tsserver-file-importers.ts';
import { requestProjectFiles } from './tsserver-project-files.ts';
import type { FileChange } from './watched-files.ts';
import { WorkspaceChanges } from './workspace-changes.ts';

export { resolveServerExecutables, resolveServerExecutablesLeniently } from './resolve-server-executables.ts';

/** What the engine is built from. */
export interface LspEngineDeps {
  config: Config;
  subprocess: Pick<SubprocessRuntime, 'spawn'>;
  fs: Pick<FileSystem, 'resolve' | 'readText' | 'stat'>;
  /**
   * A workspace file watcher (the CLI injects one; plugin code has none): outside changes to
   * files no document is open for are then learned as they happen. Without it, open documents
   * are still swept before every request (docs/decisions/0010-cross-file-freshness.md).
   */
  watch?: WorkspaceWatch;
  /** serverId → absolute executable resolved at load ({@link resolveServerExecutables}). */
  executables?: ReadonlyMap<string, string>;
  /** serverId → why it cannot run here (a default server not found at load); requests routed to it fail with it. */
  unavailable?: ReadonlyMap<string, Error>;
  log?: EngineLog;
  /**
   * `'push'` makes every server use pushed diagnostics even when it offers pull or tsserver
   * passthrough (benchmarks and comparisons). Default `'auto'`.
   */
  diagnosticsStrategy?: 'auto' | 'push';
}

/** {@link LspEngineApi} over real language servers. */
export class LspEngine implements LspEngineApi {
  private readonly config: Config;
  private readonly fs: LspEngineDeps['fs'];
  private readonly log: EngineLog;
  private readonly router: ServerRouter;
  private readonly pool: ServerPool;
  private readonly store: DocumentStore;
  private readonly sessions: ServerSessions;
  private readonly requests: EngineRequests;
  private readonly collectors = new Map<LanguageClient, DiagnosticsCollector>();
  private readonly listeners = new Set<(event: DiagnosticsEvent) => void>();
  /** Latest unsolicited update per path (a settled follow-up speaks only while it is the latest). */
  private readonly updateSeq = new Map<string, number>();
  private readonly lifetime = new AbortController();
  private readonly dependencyListeners = new Set<(event: DependencyChangeEvent) => void>();
  private readonly degradedListeners = new Set<(event: WatchDegradedEvent) => void>();
  private readonly changes: WorkspaceChanges;
  private disposed = false;
  private readonly forcePush: boolean;

  /** @inheritdoc */
  codeActionKinds(target: DocumentTarget, opts: CallOptions = {}): Promise<CodeActionServer[]> {
    return this.requests.codeActionKinds(target, opts.signal);
  }

  /** @param deps config, subprocess and fs seams, resolved executables, log */
  constructor(deps: LspEngineDeps) {
    this.config = deps.config;
    this.fs = deps.fs;
    this.log = deps.log ?? (() => undefined);
    this.forcePush = deps.diagnosticsStrategy === 'push';
    this.router = new ServerRouter(deps.config.servers);
    this.store = new DocumentStore({
      fs: deps.fs,
      maxOpenDocuments: deps.config.maxOpenDocuments,
      log: this.log,
      listener: {
        onSent: (client, path, uri, version) => this.collectors.get(client)?.noteSent(path, uri, version),
        onClosed: (client, path) => this.collectors.get(client)?.noteClosed(path),
      },
    });
    this.pool = new ServerPool({
      config: deps.config,
      subprocess: deps.subprocess,
      ...(deps.executables === undefined ? {} : { executables: deps.executables }),
      ...(deps.unavailable === undefined ? {} : { unavailable: deps.unavailable }),
      log: this.log,
      onStarted: (client) => this.attach(client),
      onGone: (client) => {
        this.collectors.delete(client);
        this.store.forgetClient(client);
      },
    });
    this.sessions = new ServerSessions({
      config: deps.config,
      fs: deps.fs,
      router: this.router,
      pool: this.pool,
      store: this.store,
      beforeRequest: () => this.changes.sync(),
    });
    this.changes = new WorkspaceChanges({
      fs: deps.fs,
      store: this.store,
      sessions: this.sessions,
      router: this.router,
      pool: this.pool,
      collectorOf: (client) => this.collectors.get(client),
      log: this.log,
      maxBytes: Math.max(...Object.values(deps.config.servers).map((s) => s.maxDocumentBytes), 1024),
      onDependencyChange: (event) => this.emitDependencyChange(event),
      watch: deps.watch,
      onWatchDegraded: (event) => this.emitWatchDegraded(event),
    });
    this.requests = new EngineRequests(this.sessions, deps.config, (client) => this.collectors.get(client));
  }

  private attach(client: LanguageClient): void {
    const entry = this.config.servers[client.serverId];
    const collector = new DiagnosticsCollector(client, {
      documents: { serverText: (c, p) => this.store.serverText(c, p), reopen: (c, p) => this.store.reopen(c, p) },
      settleMs: entry?.diagnosticsSettleMs ?? 300,
      waitMs: this.config.diagnosticsWaitMs,
      log: this.log,
      onUpdate: (path) => this.emitUpdate(client, path),
      forcePush: this.forcePush,
      noticed: () => this.changes.noticed,
    });
    this.collectors.set(client, collector);
    this.changes.watchRoot(client.root);
  }

  private guard(): void {
    if (this.disposed) throw new ActionError('LSP_ACTION_DISPOSED', 'the language-server engine was disposed');
  }

  serversFor(path: string, root: string): string[] {
    return this.router.route(path, root).map((r) => r.serverId);
  }

  async diagnostics(target: DocumentTarget, opts: CallOptions & { waitMs?: number } = {}): Promise<FileDiagnostics> {
    this.guard();
    const waitMs = opts.waitMs ?? this.config.diagnosticsWaitMs;
    let version = 0;
    const outcomes = await this.sessions.each(target, undefined, opts.signal, async (session) => {
      version = Math.max(version, session.doc.version);
      const collector = this.collectors.get(session.client);
      if (collector === undefined) throw new ActionError('LSP_ACTION_SERVER_FAILED', `${session.client.serverId} is not ready`);
      return collector.collect(session.doc.path, session.doc.version, waitMs, opts.signal);
    });
    const failures = outcomes.filter((o) => o.error !== undefined);
    if (failures.length === outcomes.length && failures[0]?.error !== undefined) throw failures[0].error;
    const servers: ServerDiagnostics[] = outcomes.map((o) =>
      o.error === undefined
        ? o.value
        : { serverId: o.route.serverId, mode: 'push', state: 'pending', version, diagnostics: [], error: { code: o.error.code, message: o.error.message } },
    );
    return this.unlessBlind(mergeDiagnostics(target.path, version, servers));
  }

  /** A `fresh` answer about a file under a root whose watching failed with no sweep is `stale`: others' changes there cannot be seen. */
  private unlessBlind<T extends { path: string; state: FileDiagnostics['state'] }>(result: T): T {
    if (result.state !== 'fresh') return result;
    const why = this.changes.blindSpot(result.path);
    if (why === undefined) return result;
    this.log('debug', `${result.path}: stale, not fresh: ${why}`);
    return { ...result, state: 'stale' };
  }

  diagnosticsMany(
    root: string,
    paths: readonly string[],
    opts: CallOptions & { waitMs?: number; minSeverity?: 1 | 2 | 3 | 4; onAnswered?: (path: string) => void; epoch?: ServerEpoch } = {},
  ): Promise<BatchDiagnosticsEntry[]> {
    this.guard();
    const deps: BatchDeps = {
      fs: this.fs,
      router: this.router,
      pool: this.pool,
      sessions: this.sessions,
      collectorOf: (client) => this.collectors.get(client),
      isOpen: (client, path) => this.store.serverText(client, path) !== undefined,
      noticed: () => this.changes.noticed,
      sync: () => this.changes.sync(),
      waitMs: opts.waitMs ?? this.config.diagnosticsWaitMs,
      log: (message) => this.log('debug', message),
      ...(opts.epoch === undefined ? {} : { epoch: opts.epoch }),
      single: (path, signal) => this.diagnostics({ root, path }, { ...opts, ...(signal === undefined ? {} : { signal }) }),
    };
    return batchDiagnostics(deps, root, paths, opts.signal, opts.minSeverity, opts.onAnswered).then((entries) =>
      entries.map((e) => ('error' in e ? e : this.unlessBlind(e))),
    );
  }

  async prestart(serverId: string, path: string, root: string, opts: CallOptions = {}): Promise<void> {
    this.guard();
    const serverRoot = await this.router.findRoot(serverId, path, root, this.fs, opts.signal);
    const lease = await this.pool.lease(serverId, serverRoot, opts.signal);
    lease.release();
  }

  async warmStart(serverId: string, path: string, root: string, snapshot: FileSnapshot, opts: CallOptions = {}): Promise<{ epoch: ServerEpoch | undefined; loaded: Promise<void> }> {
    this.guard();
    const serverRoot = await this.router.findRoot(serverId, path, root, this.fs, opts.signal);
    const deps = { pool: this.pool, watchRoot: (dir: string) => this.changes.watchRoot(dir), waitMs: this.config.diagnosticsWaitMs };
    return warmStart(deps, serverId, serverRoot, path, snapshot, root, opts.signal);
  }

  serverRootOf(serverId: string, path: string, root: string, opts: CallOptions = {}): Promise<string> {
    this.guard();
    return this.router.findRoot(serverId, path, root, this.fs, opts.signal);
  }

  stopServer(serverId: string, serverRoot: string, opts: CallOptions = {}): Promise<boolean> {
    this.guard();
    return this.pool.stop(serverId, serverRoot, opts.signal);
  }

  projectFiles(path: string, root: string, opts: CallOptions = {}): Promise<string[] | undefined> {
    return this.askTsserver(path, root, opts, requestProjectFiles);
  }

  fileImporters(path: string, root: string, opts: CallOptions = {}): Promise<string[] | undefined> {
    return this.askTsserver(path, root, opts, requestFileImporters);
  }

  async declarationSignatures(paths: readonly string[], root: string, opts: CallOptions = {}): Promise<Map<string, DeclarationSignature>> {
    this.guard();
    // one request per server process: the files grouped by the root the first routed server uses
    const groups = new Map<string, { serverId: string; serverRoot: string; paths: string[] }>();
    for (const path of paths) {
      const serverId = this.router.route(path, root)[0]?.serverId;
      if (serverId === undefined) continue;
      const serverRoot = await this.router.findRoot(serverId, path, root, this.fs, opts.signal);
      const key = `${serverId}\0${serverRoot}`;
      const group = groups.get(key) ?? { serverId, serverRoot, paths: [] };
      group.paths.push(path);
      groups.set(key, group);
    }
    const out = new Map<string, DeclarationSignature>();
    for (const group of groups.values()) {
      // only a server that is up now: one started again has no project loaded (it would answer
      // nothing) and its start would stop another program's server (maxLiveServers)
      const lease = this.pool.leaseIfReady(group.serverId, group.serverRoot);
      if (lease === undefined) continue;
      try {
        if (this.collectors.get(lease.client)?.strategy !== 'tsserver') continue;
        const answered = await requestDeclarationSignatures(lease.client, group.paths, opts.signal);
        for (const [path, signature] of answered ?? []) out.set(path, signature);
      } finally {
        lease.release();
      }
    }
    return out;
  }

  /** Asks the first tsserver-backed server routed to `path` that can answer; undefined when none can. */
  private async askTsserver(
    path: string,
    root: string,
    opts: CallOptions,
    ask: (client: LanguageClient, path: string, signal?: AbortSignal) => Promise<string[] | undefined>,
  ): Promise<string[] | undefined> {
    this.guard();
    for (const serverId of this.router.route(path, root).map((r) => r.serverId)) {
      const serverRoot = await this.router.findRoot(serverId, path, root, this.fs, opts.signal);
      const lease = await this.pool.lease(serverId, serverRoot, opts.signal);
      try {
        if (this.collectors.get(lease.client)?.strategy !== 'tsserver') continue;
        const files = await ask(lease.client, path, opts.signal);
        if (files !== undefined) return files;
      } finally {
        lease.release();
      }
    }
    return undefined;
  }

  completion(target: DocumentTarget, position: Position, opts: CallOptions = {}): Promise<CompletionResult> {
    this.guard();
    return this.requests.completion(target, position, opts.signal);
  }

  resolveCompletion(target: DocumentTarget, item: CompletionItemInfo, opts: CallOptions = {}): Promise<CompletionItemInfo> {
    this.guard();
    return this.requests.resolveCompletion(target, item, opts.signal);
  }

  codeActions(target: DocumentTarget, range: Range, opts: CallOptions & { only?: string[] } = {}): Promise<CodeActionItem[]> {
    this.guard();
    return this.requests.codeActions(target, range, opts.only, opts.signal);
  }

  resolveCodeAction(target: DocumentTarget, item: CodeActionItem, opts: CallOptions = {}): Promise<CodeActionItem> {
    this.guard();
    return this.requests.resolveCodeAction(target, item, opts.signal);
  }

  executeCommand(target: DocumentTarget, serverId: string, command: LspCommand, opts: CallOptions & { applyEdit: ApplyEditHandler }): Promise<unknown> {
    this.guard();
    return this.requests.executeCommand(target, serverId, command, opts.applyEdit, opts.signal);
  }

  format(target: DocumentTarget, range: Range | undefined, opts: CallOptions = {}): Promise<{ serverId: string; edits: TextEdit[] }> {
    this.guard();
    return this.requests.format(target, range, opts.signal);
  }

  prepareRename(target: DocumentTarget, position: Position, opts: CallOptions = {}): Promise<{ serverId: string; range?: Range; placeholder?: string } | null> {
    this.guard();
    return this.requests.prepareRename(target, position, opts.signal);
  }

  rename(target: DocumentTarget, position: Position, newName: string, opts: CallOptions = {}): Promise<{ serverId: string; edit: NormalizedWorkspaceEdit }> {
    this.guard();
    return this.requests.rename(target, position, newName, opts.signal);
  }

  documentSymbols(target: DocumentTarget, opts: CallOptions = {}): Promise<{ serverId: string; symbols: SymbolNode[] }> {
    this.guard();
    return this.requests.documentSymbols(target, opts.signal);
  }

  workspaceSymbols(root: string, query: string, opts: CallOptions & { anchorPath?: string } = {}): Promise<SymbolNode[]> {
    this.guard();
    return this.requests.workspaceSymbols(root, query, opts.anchorPath, (r) => this.pool.clients(r), opts.signal);
  }

  signatureHelp(target: DocumentTarget, position: Position, opts: CallOptions = {}): Promise<SignatureHelpResult | null> {
    this.guard();
    return this.requests.signatureHelp(target, position, opts.signal);
  }

  inlayHints(target: DocumentTarget, range: Range | undefined, opts: CallOptions = {}): Promise<{ serverId: string; hints: InlayHintInfo[] }> {
    this.guard();
    return this.requests.inlayHints(target, range, opts.signal);
  }

  hover(target: DocumentTarget, position: Position, opts: CallOptions = {}): Promise<HoverResult | null> {
    this.guard();
    return this.requests.hover(target, position, opts.signal);
  }

  definition(target: DocumentTarget, position: Position, opts: CallOptions = {}): Promise<FileLocation[]> {
    this.guard();
    return this.requests.definition(target, position, opts.signal);
  }

  references(target: DocumentTarget, position: Position, opts: CallOptions & { includeDeclaration?: boolean } = {}): Promise<FileLocation[]> {
    this.guard();
    return this.requests.references(target, position, opts.includeDeclaration ?? true, opts.signal);
  }

  implementation(target: DocumentTarget, position: Position, opts: CallOptions = {}): Promise<FileLocation[]> {
    this.guard();
    return this.requests.implementation(target, position, opts.signal);
  }

  callHierarchy(target: DocumentTarget, position: Position, direction: 'incoming' | 'outgoing', opts: CallOptions = {}): Promise<CallHierarchyResult> {
    this.guard();
    return this.requests.callHierarchy(target, position, direction, opts.signal);
  }

  async fileText(path: string, opts: CallOptions = {}): Promise<string | undefined> {
    this.guard();
    if (opts.signal?.aborted) throw abortError(opts.signal);
    return this.sessions.fileText(path);
  }

  async filesChanged(changes: FileChange[], opts: CallOptions = {}): Promise<void> {
    this.guard();
    await this.changes.apply(changes, opts.signal);
  }

  documentText(path: string): { text: string; version: number } | undefined {
    return this.store.documentText(path);
  }

  openDocuments(root?: string): string[] {
    return this.store.openPaths(root);
  }

  onDiagnostics(listener: (event: DiagnosticsEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onDependencyChange(listener: (event: DependencyChangeEvent) => void): () => void {
    this.dependencyListeners.add(listener);
    return () => this.dependencyListeners.delete(listener);
  }

  onWatchDegraded(listener: (event: WatchDegradedEvent) => void): () => void {
    this.degradedListeners.add(listener);
    for (const event of this.changes.degradedRoots()) listener(event);
    return () => this.degradedListeners.delete(listener);
  }

  private emitWatchDegraded(event: WatchDegradedEvent): boolean {
    for (const listener of this.degradedListeners) {
      try {
        listener(event);
      } catch (error) {
        this.log('warn', `onWatchDegraded listener threw: ${(error as Error).message}`);
      }
    }
    return this.degradedListeners.size > 0;
  }

  private emitDependencyChange(event: DependencyChangeEvent): void {
    if (this.disposed) return;
    for (const listener of this.dependencyListeners) {
      try {
        listener(event);
      } catch (error) {
        this.log('warn', `onDependencyChange listener threw: ${(error as Error).message}`);
      }
    }
    // every affected open document is announced again once its result for the new state of
    // the other files settles (emitUpdate's follow-up), even if its server never republishes
    for (const { path, serverId } of event.affected) {
      const client = this.store.docsFor(path).find((d) => d.client.serverId === serverId)?.client;
      if (client !== undefined) this.emitUpdate(client, path);
    }
  }

  /**
   * Announces a path whose diagnostics changed without being asked. When the result is not
   * fresh yet (an interim list, a result a dependency change outdated), it is announced again
   * once it settles (within `diagnosticsWaitMs`) — unless a newer update for the path came first.
   */
  private emitUpdate(client: LanguageClient, path: string): void {
    if (this.listeners.size === 0 || this.disposed) return;
    const seq = (this.updateSeq.get(path) ?? 0) + 1;
    this.updateSeq.set(path, seq);
    void this.announceUpdate(client, path, seq, 0)
      .then((state) => (state === undefined || state === 'fresh' ? undefined : this.announceUpdate(client, path, seq, this.config.diagnosticsWaitMs)))
      .then(
        () => {
          if (this.updateSeq.get(path) === seq) this.updateSeq.delete(path);
        },
        (error: unknown) => this.log('debug', `diagnostics event for ${path} dropped: ${String(error)}`),
      );
  }

  /** @returns the announced state, or undefined when nothing was announced */
  private async announceUpdate(client: LanguageClient, path: string, seq: number, waitMs: number): Promise<FileDiagnostics['state'] | undefined> {
    const docs = this.store.docsFor(path);
    const doc = docs.find((d) => d.client === client);
    if (doc === undefined) return undefined;
    const servers = await Promise.all(
      docs
        .map((d) => this.collectors.get(d.client)?.collect(path, d.version, waitMs, this.lifetime.signal))
        .filter((p): p is Promise<ServerDiagnostics> => p !== undefined),
    );
    const merged = mergeDiagnostics(path, doc.version, servers);
    // a follow-up speaks only when it settled and nothing newer was announced meanwhile
    if (waitMs > 0 && (merged.state !== 'fresh' || this.updateSeq.get(path) !== seq)) return undefined;
    if (this.disposed) return undefined;
    if (waitMs > 0 && this.store.docsFor(path).find((d) => d.client === client)?.version !== doc.version) return undefined;
    const event: DiagnosticsEvent = { root: doc.root, path, serverId: client.serverId, diagnostics: merged };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log('warn', `onDiagnostics listener threw: ${(error as Error).message}`);
      }
    }
    return merged.state;
  }

  liveServers(): LiveServerInfo[] {
    return this.pool.live((client) => this.store.countFor(client));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.lifetime.abort();
    this.listeners.clear();
    this.dependencyListeners.clear();
    this.changes.dispose();
    await this.pool.dispose();
    this.store.closeAll();
    this.router.clearRoots();
    this.sessions.clearTexts();
  }
}
