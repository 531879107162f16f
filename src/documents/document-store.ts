/**
 * Persistent, versioned documents. A document is opened once per server and kept open; before
 * every request its server copy is brought up to date with the file's current content (read
 * through the harness fs, or an editor's overlay text): `didChange` with one incremental range
 * when the server syncs incrementally, the full text otherwise; a deleted file is closed.
 * Open documents are capped across all servers (least recently used closed first).
 *
 * Versions are per path and engine-wide: every server is told the same number for the same
 * content, and numbers only grow (also across close and reopen). A path's last number is kept
 * only while the engine holds the document; when it drops it (closed on every server, its servers
 * gone, the file deleted) the number is folded into one engine-wide floor that every new
 * document starts above, so the table stays as small as the set of open documents.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { URI } from 'vscode-uri';
import type { EngineLog } from '../lsp/json-rpc-connection.ts';
import type { LanguageClient } from '../lsp/language-client.ts';
import { computeContentChange } from './content-change.ts';
import { abortError } from '../errors.ts';
import { readDocumentText, tooLarge } from './document-reader.ts';
import { TextLines, rangeFromUtf16 } from './position-encoding.ts';

/** The engine's current content of one path. */
export interface DocumentState {
  path: string;
  text: string;
  version: number;
}

/** One document open on one server. */
export interface OpenDocument {
  client: LanguageClient;
  path: string;
  uri: string;
  languageId: string;
  /** Version and text the server has. */
  version: number;
  text: string;
  /** Workspace root of the call that last used it. */
  root: string;
  /** In-flight requests using it (never closed while > 0). */
  pins: number;
}

/** Hooks telling the diagnostics side what the server was sent. */
export interface DocumentSyncListener {
  onSent(client: LanguageClient, path: string, uri: string, version: number): void;
  onClosed(client: LanguageClient, path: string): void;
}

/** One disk (or overlay) read shared by the callers that joined it before it started. */
interface SharedRead {
  maxBytes: number;
  /** Aborts the read once every caller cancelled (never when one joined without a signal). */
  controller: AbortController;
  callers: number;
  cancelled: number;
  unbounded: boolean;
  promise: Promise<DocumentState>;
}

const keyOf = (client: LanguageClient, path: string): string => `${client.serverId}\u0000${client.root}\u0000${path}`;

/** All open documents of the engine. */
export class DocumentStore {
  private readonly fs: Pick<FileSystem, 'resolve' | 'readText' | 'stat'>;
  private readonly maxOpen: number;
  private readonly log: EngineLog;
  private readonly listener: DocumentSyncListener;
  private readonly states = new Map<string, DocumentState>();
  /** Last version of each path the engine holds a document for (pruned with {@link states}). */
  private readonly lastVersions = new Map<string, number>();
  /** The highest version of any path pruned from {@link lastVersions}: new documents start above it. */
  private versionFloor = 0;
  /** fs version (`stat`) of the disk text each path was last read at; absent for editor overlays. */
  private readonly diskVersions = new Map<string, string>();
  /** Insertion order is recency (oldest first). */
  private readonly open = new Map<string, OpenDocument>();
  private readonly reads = new Map<string, Promise<unknown>>();
  /** Disk reads queued behind another read of the path, not started yet (joinable). */
  private readonly queued = new Map<string, SharedRead>();

  /**
   * @param deps fs seam, open-document cap, log, sync listener
   * @param deps.fs reads go through `resolve` + `stat` + `readText`
   * @param deps.maxOpenDocuments LRU cap across all servers
   * @param deps.log log sink
   * @param deps.listener told about every open/change/close sent
   */
  constructor(deps: {
    fs: Pick<FileSystem, 'resolve' | 'readText' | 'stat'>;
    maxOpenDocuments: number;
    log: EngineLog;
    listener: DocumentSyncListener;
  }) {
    this.fs = deps.fs;
    this.maxOpen = deps.maxOpenDocuments;
    this.log = deps.log;
    this.listener = deps.listener;
  }

  /**
   * Reads the file's current content (or takes the overlay) and bumps its version when it
   * changed. Reads of one path are serialised so an older read never overtakes a newer one.
   * Disk reads coalesce: a caller joins a queued read of the same path (same `maxBytes`) that
   * has not started yet, since it will see the disk as it is after the caller began; a read
   * already in flight is never joined (it may predate the caller's change), a new one is
   * queued behind it instead.
   * @param path absolute path
   * @param overlay editor text used instead of the disk content
   * @param maxBytes `maxDocumentBytes`
   * @param signal cancels the read (a shared read stops only when all its callers cancelled)
   * @returns the current state
   * @throws ActionError FILE_NOT_FOUND (the document is closed everywhere), FILE_TOO_LARGE, CANCELLED
   */
  read(path: string, overlay: string | undefined, maxBytes: number, signal?: AbortSignal): Promise<DocumentState> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (overlay === undefined) {
      const queued = this.queued.get(path);
      if (queued !== undefined && queued.maxBytes === maxBytes && !queued.controller.signal.aborted) return this.join(queued, signal);
    }
    const shared: SharedRead = {
      maxBytes,
      controller: new AbortController(),
      callers: 0,
      cancelled: 0,
      unbounded: false,
      promise: Promise.resolve(undefined as unknown as DocumentState),
    };
    const run = (): Promise<DocumentState> => {
      if (this.queued.get(path) === shared) this.queued.delete(path);
      if (shared.controller.signal.aborted) return Promise.reject(abortError(shared.controller.signal));
      return this.readNow(path, overlay, maxBytes, shared.controller.signal);
    };
    const previous = this.reads.get(path) ?? Promise.resolve();
    shared.promise = previous.then(run, run);
    const tail = shared.promise.catch(() => undefined);
    this.reads.set(path, tail);
    void tail.then(() => {
      if (this.reads.get(path) === tail) this.reads.delete(path);
    });
    // an overlay read ends sharing: a disk read joined across it would come back older than it
    if (overlay === undefined) this.queued.set(path, shared);
    else this.queued.delete(path);
    return this.join(shared, signal);
  }

  /** Attaches one caller to a shared read; its own signal rejects its own promise at once. */
  private join(shared: SharedRead, signal: AbortSignal | undefined): Promise<DocumentState> {
    shared.callers++;
    if (signal === undefined) {
      shared.unbounded = true;
      return shared.promise.then((state) => ({ ...state }));
    }
    return new Promise<DocumentState>((resolve, reject) => {
      const onAbort = (): void => {
        shared.cancelled++;
        if (!shared.unbounded && shared.cancelled === shared.callers) shared.controller.abort(signal.reason);
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (state) => {
          signal.removeEventListener('abort', onAbort);
          resolve({ ...state });
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(signal.aborted ? abortError(signal) : error);
        },
      );
    });
  }

  private async readNow(path: string, overlay: string | undefined, maxBytes: number, signal?: AbortSignal): Promise<DocumentState> {
    let diskVersion: string | undefined;
    const text =
      overlay ??
      (await readDocumentText(this.fs, path, maxBytes, signal, () => this.closeEverywhere(path), (v) => {
        diskVersion = v;
      }));
    if (diskVersion === undefined) this.diskVersions.delete(path);
    else this.diskVersions.set(path, diskVersion);
    if (overlay !== undefined && Buffer.byteLength(overlay, 'utf8') > maxBytes) throw tooLarge(path, Buffer.byteLength(overlay, 'utf8'), maxBytes);
    let state = this.states.get(path);
    if (state === undefined) {
      const synced = this.documentText(path);
      state = synced === undefined ? { path, text, version: (this.lastVersions.get(path) ?? this.versionFloor) + 1 } : { path, ...synced };
      this.states.set(path, state);
    }
    if (state.text !== text) {
      state.text = text;
      state.version++;
    }
    this.lastVersions.set(path, state.version);
    return { ...state };
  }

  /**
   * Brings `client`'s copy of the document to `state` (didOpen / didChange) and pins it.
   * @param client the server
   * @param requested content from {@link read} (a newer read of the same path wins)
   * @param languageId for didOpen
   * @param root workspace root of the call
   * @returns the open document; {@link release} it when the request is done
   */
  acquire(client: LanguageClient, requested: DocumentState, languageId: string, root: string): OpenDocument {
    const current = this.states.get(requested.path);
    const state = current !== undefined && current.version > requested.version ? current : requested;
    const key = keyOf(client, state.path);
    let doc = this.open.get(key);
    if (doc === undefined) {
      this.evict(1);
      const uri = URI.file(state.path).toString();
      doc = { client, path: state.path, uri, languageId, version: state.version, text: state.text, root, pins: 0 };
      client.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: state.version, text: state.text } });
      this.listener.onSent(client, state.path, uri, state.version);
    } else if (doc.version < state.version) {
      this.sendChange(doc, state);
    }
    this.open.delete(key);
    this.open.set(key, doc);
    doc.pins++;
    doc.root = root;
    return doc;
  }

  /** @param doc a document from {@link acquire} */
  release(doc: OpenDocument): void {
    doc.pins = Math.max(0, doc.pins - 1);
    this.evict(0);
  }

  private sendChange(doc: OpenDocument, state: DocumentState): void {
    const client = doc.client;
    const change = client.registry.syncKind === 2 ? computeContentChange(doc.text, state.text) : undefined;
    const contentChanges =
      change === undefined
        ? [{ text: state.text }]
        : [{ range: rangeFromUtf16(new TextLines(doc.text), change.range, client.encoding), text: change.text }];
    client.notify('textDocument/didChange', { textDocument: { uri: doc.uri, version: state.version }, contentChanges });
    doc.version = state.version;
    doc.text = state.text;
    this.listener.onSent(client, doc.path, doc.uri, state.version);
  }

  /**
   * Closes and reopens a document on its server with the same text and version, so a server
   * that stays silent after a change publishes again.
   * @param client the server
   * @param path the document
   * @returns whether it was open
   */
  reopen(client: LanguageClient, path: string): boolean {
    const doc = this.open.get(keyOf(client, path));
    if (doc === undefined) return false;
    client.notify('textDocument/didClose', { textDocument: { uri: doc.uri } });
    client.notify('textDocument/didOpen', { textDocument: { uri: doc.uri, languageId: doc.languageId, version: doc.version, text: doc.text } });
    this.listener.onSent(client, path, doc.uri, doc.version);
    return true;
  }

  /** Closes least recently used unpinned documents until `room` more fit under the cap. */
  private evict(room: number): void {
    for (const [, doc] of this.open) {
      if (this.open.size + room <= this.maxOpen) return;
      if (doc.pins === 0) this.close(doc);
    }
  }

  private close(doc: OpenDocument, notify = true): void {
    this.open.delete(keyOf(doc.client, doc.path));
    if (notify) doc.client.notify('textDocument/didClose', { textDocument: { uri: doc.uri } });
    this.listener.onClosed(doc.client, doc.path);
    this.dropIfUnused(doc.path);
    this.log('debug', `${doc.client.serverId}: closed ${doc.path}`);
  }

  /** @param path forget the engine's copy of `path` unless some server has it open */
  dropIfUnused(path: string): void {
    if (this.clientsWith(path).length === 0) {
      this.states.delete(path);
      this.diskVersions.delete(path);
      this.retireVersion(path);
    }
  }

  /** Folds `path`'s last version into the floor and forgets it (its document is gone). */
  private retireVersion(path: string): void {
    const last = this.lastVersions.get(path);
    if (last === undefined) return;
    this.versionFloor = Math.max(this.versionFloor, last);
    this.lastVersions.delete(path);
  }

  /**
   * @returns every open path read from disk (not an editor overlay) with the fs version its
   *   text was read at, for a sweep that finds files changed since
   */
  diskBacked(): Array<{ path: string; version: string }> {
    const out: Array<{ path: string; version: string }> = [];
    for (const path of this.openPaths()) {
      const version = this.diskVersions.get(path);
      if (version !== undefined) out.push({ path, version });
    }
    return out;
  }

  /** @param path a file that is gone: close it on every server */
  closeEverywhere(path: string): void {
    for (const doc of this.open.values()) if (doc.path === path) this.close(doc);
    this.states.delete(path);
    this.diskVersions.delete(path);
    this.retireVersion(path);
  }

  /** @param client a server process that is gone: drop its documents without notifying it */
  forgetClient(client: LanguageClient): void {
    for (const doc of this.open.values()) if (doc.client === client) this.close(doc, false);
  }

  /**
   * @param client a server
   * @param path a document
   * @returns the text that server has, when open there
   */
  serverText(client: LanguageClient, path: string): string | undefined {
    return this.open.get(keyOf(client, path))?.text;
  }

  /**
   * @param path a document
   * @returns the servers that have it open
   */
  clientsWith(path: string): LanguageClient[] {
    return [...this.open.values()].filter((d) => d.path === path).map((d) => d.client);
  }

  /**
   * @param client a server
   * @returns the documents open on it
   */
  docsOf(client: LanguageClient): OpenDocument[] {
    return [...this.open.values()].filter((d) => d.client === client);
  }

  /**
   * @param path a document
   * @returns its open copies (one per server)
   */
  docsFor(path: string): OpenDocument[] {
    return [...this.open.values()].filter((d) => d.path === path);
  }

  /**
   * @param path a document
   * @returns the text and version last synced, when open somewhere
   */
  documentText(path: string): { text: string; version: number } | undefined {
    const docs = this.docsFor(path);
    if (docs.length === 0) return undefined;
    const newest = docs.reduce((a, b) => (b.version > a.version ? b : a));
    return { text: newest.text, version: newest.version };
  }

  /**
   * @param root only documents of calls under this workspace root
   * @returns open paths, most recently used last, without duplicates
   */
  openPaths(root?: string): string[] {
    const out = new Set<string>();
    for (const doc of this.open.values()) if (root === undefined || doc.root === root) out.add(doc.path);
    return [...out];
  }

  /**
   * @param client a server
   * @returns how many documents it has open
   */
  countFor(client: LanguageClient): number {
    let n = 0;
    for (const doc of this.open.values()) if (doc.client === client) n++;
    return n;
  }

  /** Closes every document (engine dispose), notifying live servers. */
  closeAll(): void {
    for (const doc of this.open.values()) this.close(doc, doc.client.state === 'ready');
  }
}
