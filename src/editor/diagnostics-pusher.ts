/**
 * Unsolicited `diagnostics.updated`: when a language server publishes new diagnostics for an
 * open document, the snapshot is announced, coalesced per file within
 * `editor.diagnosticsDebounceMs`, so an editor's Problems view stays live.
 *
 * v1 defines the event as a fresh snapshot: a non-fresh one (an interim list from a server still
 * analysing, or a result a dependency change has outdated) is announced only to a client that
 * opted in (`lsp.events {includeNonFresh: true}`), and it drops the file's cached snapshot (the
 * server is re-analysing it). The engine re-announces the file once its result settles, and that
 * fresh snapshot is cached and announced to everyone — so after a dependency changes, every
 * affected open file gets a fresh push once the servers have answered.
 */
import { toWireDiagnostic } from '../actions/wire-format.ts';
import type { DiagnosticsEvent, LspEngineApi } from '../lsp/engine-types.ts';
import type { DiagnosticsCache } from './diagnostics-cache.ts';
import type { EventStream } from './event-stream.ts';
import type { ClientPaths } from './run-effects.ts';

/** What the pusher runs against. */
export interface DiagnosticsPusherDeps {
  /** `onDependencyChange` is optional: without it only publishes and writes invalidate. */
  engine: Pick<LspEngineApi, 'onDiagnostics'> & Partial<Pick<LspEngineApi, 'onDependencyChange'>>;
  cache: DiagnosticsCache;
  events: EventStream;
  paths: ClientPaths;
  /** Coalescing window per file (`editor.diagnosticsDebounceMs`). */
  debounceMs: number;
}

/**
 * Listens to `engine.onDiagnostics`. The first push for a file schedules one flush after the
 * debounce window; later pushes within the window replace the pending snapshot (so a server that
 * publishes continuously still gets announced at least once per window).
 */
export class DiagnosticsPusher {
  readonly #deps: DiagnosticsPusherDeps;
  readonly #pending = new Map<string, { timer: NodeJS.Timeout; event: DiagnosticsEvent }>();
  #off: (() => void) | undefined;
  #offDependencies: (() => void) | undefined;

  /** @param deps engine, cache, events, paths, window */
  constructor(deps: DiagnosticsPusherDeps) {
    this.#deps = deps;
  }

  /** @returns files with a flush scheduled */
  get pending(): number {
    return this.#pending.size;
  }

  /** Starts listening. */
  start(): void {
    this.#off ??= this.#deps.engine.onDiagnostics((event) => this.#schedule(event));
    // a file others depend on changed: their snapshots are outdated until the engine
    // re-announces them (it does, once their results for the new state settle)
    this.#offDependencies ??= this.#deps.engine.onDependencyChange?.((event) => {
      this.#deps.cache.noteChange();
      for (const { path } of event.affected) this.#deps.cache.invalidate(path);
    });
  }

  /** Stops listening and drops every scheduled flush. */
  stop(): void {
    this.#off?.();
    this.#off = undefined;
    this.#offDependencies?.();
    this.#offDependencies = undefined;
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }

  #schedule(event: DiagnosticsEvent): void {
    if (event.diagnostics.state !== 'fresh') {
      // the previous snapshot no longer describes what the server is analysing
      this.#deps.cache.invalidate(event.path);
    }
    const pending = this.#pending.get(event.path);
    if (pending) {
      pending.event = event;
      return;
    }
    const timer = setTimeout(() => {
      const latest = this.#pending.get(event.path)?.event ?? event;
      this.#pending.delete(event.path);
      this.#flush(latest);
    }, this.#deps.debounceMs);
    this.#pending.set(event.path, { timer, event });
  }

  #flush(event: DiagnosticsEvent): void {
    const { cache, events, paths } = this.#deps;
    const snapshot = event.diagnostics;
    const fresh = snapshot.state === 'fresh';
    if (!fresh && !events.includeNonFresh) return;
    const previous = cache.peek(event.path);
    const named = previous ? { filePath: previous.clientPath, workspaceRoot: previous.root } : paths.present(event.path, event.root);
    const diagnostics = snapshot.diagnostics.map(toWireDiagnostic);
    const keepFsVersion = previous?.stamp.fsVersion !== undefined && previous.stamp.engineVersion === snapshot.version;
    if (fresh) {
      cache.set({
        path: event.path,
        root: named.workspaceRoot,
        clientPath: named.filePath,
        diagnostics,
        stamp: {
          engineVersion: snapshot.version,
          state: snapshot.state,
          ...(keepFsVersion ? { fsVersion: previous.stamp.fsVersion } : {}),
        },
      });
    }
    const source = diagnostics[0]?.source;
    events.emit('diagnostics.updated', {
      filePath: named.filePath,
      diagnostics,
      truncated: false,
      total: diagnostics.length,
      ...(source === undefined ? {} : { source }),
      workspaceRoot: named.workspaceRoot,
      state: snapshot.state,
      version: snapshot.version,
      origin: 'push',
    });
  }
}
