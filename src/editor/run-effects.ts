/**
 * What a successful run changes beyond its envelope: a `diagnostics.get` snapshot is cached
 * and announced; a write invalidates the cache for every file it changed and announces each.
 * Also how a client names files, so events use the same style as its requests.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import type { CachedDiagnostic, DiagnosticsCache, SourceStamp } from './diagnostics-cache.ts';
import type { EventStream } from './event-stream.ts';

/** The file params every file action carries, when they are well-formed. */
export interface FileRef {
  /** As the client sent it. */
  filePath: string;
  /** Absolute workspace root. */
  workspaceRoot: string;
  /** Absolute path of the file. */
  path: string;
}

/**
 * @param params raw action params
 * @returns the file they name, or undefined when `filePath`/`workspaceRoot` are not usable
 */
export function fileRef(params: unknown): FileRef | undefined {
  const raw = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const filePath = raw['filePath'];
  const workspaceRoot = raw['workspaceRoot'];
  if (typeof filePath !== 'string' || filePath === '' || typeof workspaceRoot !== 'string' || !isAbsolute(workspaceRoot)) return undefined;
  return { filePath, workspaceRoot, path: resolve(workspaceRoot, filePath) };
}

/**
 * Remembers, per workspace root, whether the client names files relative to it or absolutely,
 * so events about files it did not name itself (server pushes) use its style.
 */
export class ClientPaths {
  readonly #roots = new Map<string, boolean>();
  readonly #max: number;

  /** @param maxRoots roots remembered at most (oldest forgotten first) */
  constructor(maxRoots: number) {
    this.#max = maxRoots;
  }

  /** @param ref a file the client named */
  note(ref: FileRef): void {
    const root = resolve(ref.workspaceRoot);
    this.#roots.delete(root);
    this.#roots.set(root, !isAbsolute(ref.filePath));
    if (this.#roots.size > this.#max) this.#roots.delete(this.#roots.keys().next().value as string);
  }

  /**
   * @param path absolute path
   * @param fallbackRoot the engine's root for it, used when no root the client named contains it
   * @returns the file as the client would name it, and the root that name is relative to
   */
  present(path: string, fallbackRoot: string): { filePath: string; workspaceRoot: string } {
    let best: string | undefined;
    for (const root of this.#roots.keys()) {
      if (isUnder(root, path) && (best === undefined || root.length > best.length)) best = root;
    }
    const root = best ?? fallbackRoot;
    const asRelative = best === undefined ? true : this.#roots.get(best) === true;
    return { filePath: asRelative && isUnder(root, path) ? toPosix(relative(root, path)) : path, workspaceRoot: root };
  }

  /** Forgets everything (dispose). */
  clear(): void {
    this.#roots.clear();
  }
}

function isUnder(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** A `diagnostics.get` result, as far as the backend reads it. */
interface DiagnosticsResultView {
  filePath?: unknown;
  diagnostics?: unknown;
  truncated?: unknown;
  total?: unknown;
  state?: unknown;
  version?: unknown;
}

/**
 * Caches a `diagnostics.get` snapshot and announces it as `diagnostics.updated`.
 * @param deps cache, events, engine
 * @param ref the file asked about
 * @param result the action's result
 * @param overlay whether the run analysed the editor's unsaved text instead of the file
 * @param fsVersion the file's filesystem version now, when known
 * @param requestId the run, named on the event
 */
export function announceDiagnostics(
  deps: { cache: DiagnosticsCache; events: EventStream; engine: Pick<LspEngineApi, 'documentText'> },
  ref: FileRef,
  result: unknown,
  overlay: boolean,
  fsVersion: string | undefined,
  requestId: string,
): void {
  const view = (typeof result === 'object' && result !== null ? result : {}) as DiagnosticsResultView;
  const diagnostics = Array.isArray(view.diagnostics) ? (view.diagnostics as CachedDiagnostic[]) : [];
  const state = view.state === 'fresh' || view.state === 'pending' || view.state === 'stale' ? view.state : undefined;
  const version = typeof view.version === 'number' ? view.version : deps.engine.documentText(ref.path)?.version;
  const stamp: SourceStamp = {
    ...(overlay || version === undefined ? {} : { engineVersion: version }),
    ...(state ? { state } : {}),
    ...(fsVersion === undefined ? {} : { fsVersion }),
  };
  deps.cache.set({ path: ref.path, root: ref.workspaceRoot, clientPath: ref.filePath, diagnostics, stamp });
  const source = (diagnostics[0] as { source?: unknown } | undefined)?.source;
  deps.events.emit('diagnostics.updated', {
    filePath: typeof view.filePath === 'string' ? view.filePath : ref.filePath,
    diagnostics,
    truncated: view.truncated === true,
    total: typeof view.total === 'number' ? view.total : diagnostics.length,
    ...(typeof source === 'string' ? { source } : {}),
    workspaceRoot: ref.workspaceRoot,
    ...(state ? { state } : {}),
    ...(version === undefined ? {} : { version }),
    origin: 'run',
    requestId,
  });
}

/**
 * The files a write result says it changed, as the result names them (the request's style).
 * @param ref the file the run was about
 * @param result the action's result
 * @returns names of changed files; empty for `{kind: 'unchanged'}`
 */
export function changedFiles(ref: FileRef, result: unknown): string[] {
  const view = (typeof result === 'object' && result !== null ? result : {}) as { kind?: unknown; diffs?: unknown; filePath?: unknown };
  if (view.kind === 'unchanged') return [];
  if (Array.isArray(view.diffs)) {
    const names = view.diffs.map((d) => (d as { filePath?: unknown } | null)?.filePath).filter((f): f is string => typeof f === 'string');
    return [...new Set(names)];
  }
  return [typeof view.filePath === 'string' ? view.filePath : ref.filePath];
}
