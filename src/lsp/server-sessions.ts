/**
 * The plumbing every engine call shares: route the file, find each server's root, lease the
 * warm server, bring its copy of the document up to date, run the request, release — and
 * convert positions between the engine's UTF-16 and the server's encoding both ways.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { Config } from '../config.ts';
import type { DocumentState, DocumentStore, OpenDocument } from '../documents/document-store.ts';
import { createPositionMapper } from '../documents/position-mapping.ts';
import { TextLines, positionFromUtf16, rangeFromUtf16 } from '../documents/position-encoding.ts';
import { ActionError, abortError, isActionError } from '../errors.ts';
import type { DocumentTarget, Position, Range } from './engine-types.ts';
import type { LanguageClient } from './language-client.ts';
import { RecordingMapper, type NormalizeContext } from './normalize-common.ts';
import type { ServerPool } from './server-pool.ts';
import { offersTsserverRequest } from './tsserver-diagnostics.ts';
import { workspaceRelative, type RouteMatch, type ServerRouter } from './server-routing.ts';

/** Files read at once when converting a multi-file answer's positions. */
const READ_CONCURRENCY = 8;
/** Bounds of the conversion text cache: entries, and UTF-16 code units over all entries. */
const TEXT_CACHE_ENTRIES = 512;
const TEXT_CACHE_CHARS = 32 * 1024 * 1024;

/** One server working on one document for one call. */
export interface Session {
  route: RouteMatch;
  client: LanguageClient;
  doc: OpenDocument;
}

/** Outcome per server of a call that asks several. */
export type Each<T> = { route: RouteMatch; value: T; error?: undefined } | { route: RouteMatch; value?: undefined; error: ActionError };

/** Shared request plumbing. */
export class ServerSessions {
  private readonly config: Config;
  private readonly fs: Pick<FileSystem, 'resolve' | 'readText' | 'stat'>;
  private readonly router: ServerRouter;
  private readonly pool: ServerPool;
  private readonly store: DocumentStore;
  /** Largest `maxDocumentBytes` of any server (files above it are never converted). */
  private readonly maxBytes: number;
  /** Texts read for position conversion, by path, with the fs version they were read at (LRU). */
  private readonly texts = new Map<string, { version: string; text: string }>();
  private textBytes = 0;
  /** Brings every server's view of the files up to date (outside changes) before a request. */
  private readonly beforeRequest: () => Promise<void>;

  /**
   * @param client a server
   * @param except a path to leave out (the request's own document)
   * @returns the text and version of every other document open on it, as the server has them
   *   now (strings are immutable: a later sync replaces them, it does not change these)
   */
  openTexts(client: LanguageClient, except: string): Map<string, { version: number; text: string }> {
    const out = new Map<string, { version: number; text: string }>();
    for (const doc of this.store.docsOf(client)) if (doc.path !== except) out.set(doc.path, { version: doc.version, text: doc.text });
    return out;
  }

  /**
   * @param deps config, fs seam, router, pool, store
   * @param deps.config plugin config
   * @param deps.fs harness file system
   * @param deps.router file → servers
   * @param deps.pool warm servers
   * @param deps.store open documents
   * @param deps.beforeRequest runs before every request (the engine's workspace sync)
   */
  constructor(deps: {
    config: Config;
    fs: Pick<FileSystem, 'resolve' | 'readText' | 'stat'>;
    router: ServerRouter;
    pool: ServerPool;
    store: DocumentStore;
    beforeRequest?: () => Promise<void>;
  }) {
    this.config = deps.config;
    this.beforeRequest = deps.beforeRequest ?? (() => Promise.resolve());
    this.fs = deps.fs;
    this.router = deps.router;
    this.pool = deps.pool;
    this.store = deps.store;
    this.maxBytes = Math.max(...Object.values(this.config.servers).map((s) => s.maxDocumentBytes), 0);
  }

  /**
   * @param target the file
   * @returns its routed servers
   * @throws ActionError OUTSIDE_WORKSPACE, UNAVAILABLE
   */
  routes(target: Pick<DocumentTarget, 'path' | 'root'>): RouteMatch[] {
    if (workspaceRelative(target.path, target.root) === undefined) {
      throw new ActionError('LSP_ACTION_OUTSIDE_WORKSPACE', `${target.path} is not inside the workspace ${target.root}`, { paths: [target.path] });
    }
    const routes = this.router.route(target.path, target.root);
    if (routes.length === 0) {
      throw new ActionError('LSP_ACTION_UNAVAILABLE', `no language server is configured for ${target.path}`, { paths: [target.path] });
    }
    return routes;
  }

  /**
   * Runs `fn` with one server's session, releasing it afterwards.
   * @param target the file
   * @param route which server
   * @param signal cancels
   * @param fn the work
   * @returns what `fn` returns
   */
  async with<T>(target: DocumentTarget, route: RouteMatch, signal: AbortSignal | undefined, fn: (session: Session) => Promise<T>): Promise<T> {
    const entry = this.config.servers[route.serverId];
    if (entry === undefined) throw new ActionError('LSP_ACTION_CONFIG_INVALID', `servers.${route.serverId} is not configured`);
    await this.beforeRequest();
    if (signal?.aborted) throw abortError(signal);
    const state = await this.store.read(target.path, target.text, entry.maxDocumentBytes, signal);
    try {
      const root = await this.router.findRoot(route.serverId, target.path, target.root, this.fs, signal);
      const lease = await this.pool.lease(route.serverId, root, signal);
      try {
        const doc = this.store.acquire(lease.client, state, route.languageId, target.root);
        try {
          return await fn({ route, client: lease.client, doc });
        } finally {
          this.store.release(doc);
        }
      } finally {
        lease.release();
      }
    } finally {
      this.store.dropIfUnused(target.path);
    }
  }

  /**
   * The first routed server that advertises `method` does the work.
   * @param target the file
   * @param method the LSP method that must be advertised
   * @param signal cancels
   * @param fn the work
   * @returns what `fn` returns
   * @throws ActionError UNSUPPORTED when no routed server advertises it
   */
  async first<T>(target: DocumentTarget, method: string, signal: AbortSignal | undefined, fn: (session: Session) => Promise<T>): Promise<T> {
    const routes = this.routes(target);
    for (const route of routes) {
      const result = await this.with(target, route, signal, async (session) =>
        session.client.registry.has(method) ? { value: await fn(session) } : undefined,
      );
      if (result !== undefined) return result.value;
    }
    throw unsupported(method, routes);
  }

  /**
   * Every routed server (advertising `method`, when given) does the work, concurrently.
   * @param target the file
   * @param method the LSP method that must be advertised, if any
   * @param signal cancels (an abort rejects the whole call)
   * @param fn the work
   * @returns one outcome per server that advertises it, in routing order
   */
  async each<T>(target: DocumentTarget, method: string | undefined, signal: AbortSignal | undefined, fn: (session: Session) => Promise<T>): Promise<Each<T>[]> {
    const routes = this.routes(target);
    const skipped = Symbol('skipped');
    const outcomes = await Promise.all(
      routes.map(async (route): Promise<Each<T> | typeof skipped> => {
        try {
          const value = await this.with(target, route, signal, async (session) =>
            method === undefined || session.client.registry.has(method) ? { value: await fn(session) } : skipped,
          );
          return value === skipped ? skipped : { route, value: value.value };
        } catch (error) {
          if (!isActionError(error) || signal?.aborted || error.code === 'LSP_ACTION_FILE_NOT_FOUND' || error.code === 'LSP_ACTION_DISPOSED') throw error;
          return { route, error };
        }
      }),
    );
    const out = outcomes.filter((o): o is Each<T> => o !== skipped);
    if (out.length === 0 && method !== undefined) throw unsupported(method, routes);
    return out;
  }

  /**
   * @param session the session
   * @param position engine (UTF-16) position in the session's document
   * @returns the position in the server's encoding
   */
  toServer(session: Session, position: Position): Position {
    if (session.client.encoding === 'utf-16') return position;
    return positionFromUtf16(new TextLines(session.doc.text), position, session.client.encoding);
  }

  /**
   * @param session the session
   * @param range engine range in the session's document
   * @returns the range in the server's encoding
   */
  rangeToServer(session: Session, range: Range): Range {
    if (session.client.encoding === 'utf-16') return range;
    return rangeFromUtf16(new TextLines(session.doc.text), range, session.client.encoding);
  }

  /**
   * Normalises an answer whose positions may be in several documents: a first pass records
   * the documents, their texts are loaded (the server's open copy, else the file through fs),
   * and a second pass converts every position.
   * @param client the server that answered
   * @param normalize a pure normaliser run with the given context
   * @returns its result with UTF-16 positions
   */
  async normalizeAcross<T>(client: LanguageClient, normalize: (ctx: NormalizeContext) => T): Promise<T> {
    const tsserver = offersTsserverRequest(client.registry);
    if (client.encoding === 'utf-16') {
      // tsserver's end-of-text quirk is only in the documents it has open: their texts are at hand
      const mapper = createPositionMapper('utf-16', (p) => this.store.serverText(client, p), { tsserver });
      return normalize({ serverId: client.serverId, mapper });
    }
    const recorder = new RecordingMapper();
    normalize({ serverId: client.serverId, mapper: recorder });
    const texts = new Map<string, string | undefined>();
    const toRead: string[] = [];
    for (const path of recorder.paths) {
      const synced = this.store.serverText(client, path);
      if (synced === undefined) toRead.push(path);
      else texts.set(path, synced);
    }
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < toRead.length) {
        const path = toRead[next++] as string;
        texts.set(path, await this.readQuietly(path));
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, toRead.length) }, worker));
    return normalize({ serverId: client.serverId, mapper: createPositionMapper(client.encoding, (p) => texts.get(p), { tsserver }) });
  }

  /**
   * @param session the session
   * @param normalize a pure normaliser whose positions are all in the session's document
   * @returns its result with UTF-16 positions
   */
  normalizeLocal<T>(session: Session, normalize: (ctx: NormalizeContext) => T): T {
    const { client, doc } = session;
    const mapper = createPositionMapper(client.encoding, (p) => (p === doc.path ? doc.text : undefined), { tsserver: offersTsserverRequest(client.registry) });
    return normalize({ serverId: client.serverId, mapper });
  }

  /**
   * @param path absolute path
   * @returns the text a server has open for it (the synced copy), else the file read through fs
   *   (cached by fs version); `undefined` when unreadable
   */
  async fileText(path: string): Promise<string | undefined> {
    await this.beforeRequest();
    return this.store.documentText(path)?.text ?? this.readQuietly(path);
  }

  /**
   * A file's text for converting positions, through a small cache keyed by the fs version
   * (`stat`), so a file unchanged since the last conversion is not read again.
   * @param path absolute path
   * @returns its text; `undefined` when unreadable (deleted, binary, denied, too large)
   */
  private async readQuietly(path: string): Promise<string | undefined> {
    try {
      const target = await this.fs.resolve(path);
      const info = await this.fs.stat(target);
      if (info === undefined || info.type !== 'file' || (info.size ?? 0) > this.maxBytes) {
        this.texts.delete(path);
        return undefined;
      }
      const cached = this.texts.get(path);
      if (cached !== undefined && cached.version === info.version) {
        this.texts.delete(path);
        this.texts.set(path, cached);
        return cached.text;
      }
      const text = await this.fs.readText(target);
      this.remember(path, info.version, text);
      return text;
    } catch {
      // unreadable (deleted, binary, denied): its positions pass through unconverted
      this.texts.delete(path);
      return undefined;
    }
  }

  private remember(path: string, version: string, text: string): void {
    const old = this.texts.get(path);
    if (old !== undefined) {
      this.texts.delete(path);
      this.textBytes -= old.text.length;
    }
    if (text.length > TEXT_CACHE_CHARS) return;
    this.texts.set(path, { version, text });
    this.textBytes += text.length;
    for (const [key, entry] of this.texts) {
      if (this.texts.size <= TEXT_CACHE_ENTRIES && this.textBytes <= TEXT_CACHE_CHARS) break;
      this.texts.delete(key);
      this.textBytes -= entry.text.length;
    }
  }

  /** Forgets the cached file texts (engine dispose). */
  clearTexts(): void {
    this.texts.clear();
    this.textBytes = 0;
  }

  /** @returns the current state of a path without syncing anything (for filesChanged) */
  readState(path: string, signal?: AbortSignal): Promise<DocumentState> {
    const limit = Math.max(...Object.values(this.config.servers).map((s) => s.maxDocumentBytes), 1024);
    return this.store.read(path, undefined, limit, signal);
  }
}

function unsupported(method: string, routes: RouteMatch[]): ActionError {
  const ids = routes.map((r) => r.serverId).join(', ');
  return new ActionError('LSP_ACTION_UNSUPPORTED', `no language server for this file (${ids}) supports ${method}`, { method });
}
