/**
 * The engine's public vocabulary. Everything here is normalised: positions are zero-based
 * UTF-16 (whatever the server negotiated), paths are absolute host paths (never URIs), and
 * every result names the server that produced it.
 */
import type { ActionErrorCode } from '../errors.ts';

/** Zero-based line and UTF-16 code-unit column. */
export interface Position {
  line: number;
  character: number;
}

/** Half-open range of {@link Position}s. */
export interface Range {
  start: Position;
  end: Position;
}

/** Replace `range` with `newText` (UTF-16 positions). */
export interface TextEdit {
  range: Range;
  newText: string;
}

/** A place in a file. */
export interface FileLocation {
  path: string;
  range: Range;
}

/** What a request is about: a file in a workspace, optionally with unsaved editor text. */
export interface DocumentTarget {
  /** Absolute workspace root; bounds root-marker search and every edit. */
  root: string;
  /** Absolute path of the file. */
  path: string;
  /** Overlay text (an editor's unsaved buffer) used instead of the file's content. */
  text?: string;
}

/** Options every engine call accepts. */
export interface CallOptions {
  /** Cancels the call; sent to the server as `$/cancelRequest`. */
  signal?: AbortSignal;
}

export type DiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint';

/** One diagnostic, tagged with the server that reported it. */
export interface EngineDiagnostic {
  serverId: string;
  range: Range;
  severity: DiagnosticSeverity;
  message: string;
  source?: string;
  code?: string | number;
  /** LSP `DiagnosticTag`s: 1 unnecessary, 2 deprecated. */
  tags?: number[];
  relatedInformation?: Array<{ location: FileLocation; message: string }>;
}

/**
 * Whether a diagnostics result describes the document version that was asked about.
 * - `fresh`: the server answered for exactly this version.
 * - `pending`: no answer yet for this version (server starting or indexing) and the wait budget ran out.
 * - `stale`: only a result for an older version exists; it is returned, marked as such.
 */
export type Freshness = 'fresh' | 'pending' | 'stale';

/**
 * How one server's diagnostics were obtained (docs/decisions/0001-diagnostics-freshness.md):
 * `pull` (`textDocument/diagnostic`), `tsserver` (request passthrough to tsserver's
 * synchronous diagnostics), `versioned-push` (pushes carrying `version`), `push` (unversioned
 * pushes, settled).
 */
export type DiagnosticsStrategy = 'pull' | 'tsserver' | 'versioned-push' | 'push';

/** One server's diagnostics for one document. */
export interface ServerDiagnostics {
  serverId: string;
  /** How the server delivers diagnostics (`pull` also for the request-based `tsserver` strategy). */
  mode: 'pull' | 'push';
  /** Which strategy produced this answer (additive; see {@link DiagnosticsStrategy}). */
  strategy?: DiagnosticsStrategy;
  state: Freshness;
  /** Version of the document the engine asked about. */
  version: number;
  /** Version the returned diagnostics were computed for, when known. */
  analysedVersion?: number;
  diagnostics: EngineDiagnostic[];
  /** Set when this server failed; other servers' results are still returned. */
  error?: { code: ActionErrorCode; message: string };
}

/** Merged diagnostics of every server routed to one file. */
export interface FileDiagnostics {
  path: string;
  /** The engine's version of the document content that was analysed. */
  version: number;
  /** Worst state across servers: `pending` > `stale` > `fresh`. */
  state: Freshness;
  /** All servers' diagnostics, sorted by position then severity. */
  diagnostics: EngineDiagnostic[];
  servers: ServerDiagnostics[];
}

/** A resource operation of a workspace edit. */
export type ResourceOperation =
  | { kind: 'create'; path: string; overwrite?: boolean; ignoreIfExists?: boolean }
  | { kind: 'rename'; oldPath: string; newPath: string; overwrite?: boolean; ignoreIfExists?: boolean }
  | { kind: 'delete'; path: string; recursive?: boolean; ignoreIfNotExists?: boolean };

/** Text edits to one file, in UTF-16 positions. */
export interface FileTextEdits {
  kind: 'edit';
  path: string;
  /** Document version the server based the edits on, when it said (`null` = unversioned). */
  version?: number | null;
  edits: TextEdit[];
}

/** One ordered step of a {@link NormalizedWorkspaceEdit}. */
export type WorkspaceEditStep = FileTextEdits | ResourceOperation;

/**
 * A workspace edit after normalisation: `documentChanges` preferred over `changes`,
 * URIs turned into paths, positions converted to UTF-16, order kept.
 */
export interface NormalizedWorkspaceEdit {
  steps: WorkspaceEditStep[];
}

/** An LSP command, kept as the server sent it. */
export interface LspCommand {
  title: string;
  command: string;
  arguments?: unknown[];
}

/**
 * The text a server computed an answer against: its synced copy of the request's document as it
 * was when the request was sent. Edits from that answer apply to this text and no other; the
 * write path refuses them when the file (or our copy) has moved on since.
 */
export interface EditBasis {
  path: string;
  /** Our document version the server had (`textDocument.version` of the last didOpen/didChange). */
  version: number;
  text: string;
  /**
   * The other documents open on the same server when the request was sent, by path: the text
   * the server had of each, so an edit of another file (a rename across files) is checked
   * against what the server computed it from, not against a later sync of ours.
   */
  others?: ReadonlyMap<string, { version: number; text: string }>;
}

/** A code action or a bare command, normalised. */
export interface CodeActionItem {
  serverId: string;
  title: string;
  kind?: string;
  isPreferred?: boolean;
  /** Reason the server gave for disabling it. */
  disabled?: string;
  diagnostics?: EngineDiagnostic[];
  /** The edit, when the server sent (or resolve produced) one. Kept even when a command is present. */
  edit?: NormalizedWorkspaceEdit;
  /** A command to run after the edit (or instead of one, for a bare Command). */
  command?: LspCommand;
  /** True when the server supports `codeAction/resolve` and the item has no edit yet. */
  needsResolve: boolean;
  /** Opaque server payload used for resolve; do not inspect. */
  raw: unknown;
  /** The text `edit` was computed against (the request's document when codeAction/resolve was sent). */
  basis?: EditBasis;
}

/** A completion item, normalised. */
export interface CompletionItemInfo {
  serverId: string;
  label: string;
  /** LSP `CompletionItemKind` number. */
  kind?: number;
  detail?: string;
  documentation?: string;
  sortText?: string;
  filterText?: string;
  insertText?: string;
  textEdit?: TextEdit;
  /** Opaque server payload used for `completionItem/resolve`. */
  raw: unknown;
}

export interface CompletionResult {
  serverId: string;
  isIncomplete: boolean;
  items: CompletionItemInfo[];
}

/** A document symbol (hierarchical) or a flat symbol information turned into one. */
export interface SymbolNode {
  name: string;
  /** LSP `SymbolKind` number. */
  kind: number;
  detail?: string;
  /** Container name (flat symbols). */
  containerName?: string;
  location: FileLocation;
  /** Range of the name itself. */
  selectionRange: Range;
  children: SymbolNode[];
}

export interface SignatureInfo {
  label: string;
  documentation?: string;
  parameters: Array<{ label: string; documentation?: string }>;
  activeParameter?: number;
}

export interface SignatureHelpResult {
  serverId: string;
  signatures: SignatureInfo[];
  activeSignature: number;
  activeParameter: number;
}

export interface InlayHintInfo {
  position: Position;
  label: string;
  /** 1 type, 2 parameter. */
  kind?: number;
  paddingLeft?: boolean;
  paddingRight?: boolean;
}

export interface HoverResult {
  serverId: string;
  /** Markdown or plain text, MarkupContent and MarkedString flattened. */
  contents: string;
  range?: Range;
}

/** One node of a call hierarchy (a function, method, constructor…), positions UTF-16. */
export interface CallHierarchyNode {
  name: string;
  /** LSP `SymbolKind` number. */
  kind: number;
  detail?: string;
  path: string;
  /** The whole declaration. */
  range: Range;
  /** The name. */
  selectionRange: Range;
}

/** One edge of a call hierarchy: the other end, and the call sites. */
export interface CallHierarchyEdge {
  /** The caller (incoming) or the callee (outgoing). */
  node: CallHierarchyNode;
  /** File the call sites are in: the caller's file (incoming) or the prepared item's (outgoing). */
  sitesPath: string;
  /** The call expressions' ranges in `sitesPath`. */
  sites: Range[];
}

/** Calls into or out of the item(s) at a position. */
export interface CallHierarchyResult {
  serverId: string;
  direction: 'incoming' | 'outgoing';
  /** What `textDocument/prepareCallHierarchy` found at the position (empty: nothing callable there). */
  items: CallHierarchyNode[];
  edges: CallHierarchyEdge[];
}

/**
 * Applies a workspace edit the server asked for (`workspace/applyEdit`) on behalf of a call.
 * The edit layer supplies it; the engine never writes files itself.
 */
export type ApplyEditHandler = (
  edit: NormalizedWorkspaceEdit,
  info: { serverId: string; label?: string; basis?: EditBasis },
) => Promise<{ applied: boolean; failureReason?: string }>;

/** Unsolicited diagnostics: a server published new diagnostics for an open document. */
export interface DiagnosticsEvent {
  root: string;
  path: string;
  serverId: string;
  diagnostics: FileDiagnostics;
}

/**
 * One file of {@link LspEngineApi.diagnosticsMany}: its diagnostics, or why it could not be
 * checked (missing, too large, no server…). `version` 0 means the server read the file from
 * disk itself (it was not opened); the state is still `fresh` only if no file of the batch
 * changed while it ran.
 */
export type BatchDiagnosticsEntry = FileDiagnostics | { path: string; error: { code: ActionErrorCode; message: string } };

/**
 * File versions a host took at one moment, with the means to take them again the same way (the
 * CLI stats the local disk). Versions only compare with versions of the same snapshot's `now`.
 */
export interface FileSnapshot {
  /** Versions when the snapshot was taken (`undefined`: unreadable then). */
  versions: ReadonlyMap<string, string | undefined>;
  /** @returns the versions of `paths` now, taken as {@link versions} were */
  now(paths: readonly string[]): Promise<ReadonlyMap<string, string | undefined>>;
}

/**
 * What a server process may have read, proven from before it existed
 * ({@link LspEngineApi.warmStart}; docs/decisions/0110-warm-project-load.md): a
 * {@link FileSnapshot} taken before any process of (serverId, root) was spawned. A group of
 * unopened pulls given it asks a file only if its version now still equals the snapshot's.
 */
export interface ServerEpoch {
  serverId: string;
  /** The server's root (with `serverId`, the process key). */
  root: string;
  snapshot: FileSnapshot;
}

/**
 * Files changed (whoever changed them) and every server that sees them was told: the listed
 * open documents' diagnostics may differ now although their own text did not change. A
 * diagnostics call for them answers for the new state (or non-fresh while it cannot know).
 */
export interface DependencyChangeEvent {
  /** What changed, as learned (watcher, sweep of open documents, `filesChanged`). */
  changes: Array<{ path: string; kind: 'created' | 'changed' | 'deleted' }>;
  /** Open documents (per server) whose diagnostics may have changed. */
  affected: Array<{ root: string; path: string; serverId: string }>;
}

/**
 * What a watcher tells the engine besides changes.
 */
export interface WatchHooks {
  /**
   * Watching `root` is incomplete from now on (a directory could not be watched: ENOSPC, EMFILE;
   * a watcher reported an error). Called once per root. With `sweep`, the engine runs it before
   * every answer: it reports (through `onChange`, before it resolves) everything that changed
   * under the root since the last look. Without one, answers about files under the root cannot
   * be known fresh and come back `stale`.
   */
  onDegraded(reason: string, sweep?: () => Promise<void>): void;
}

/**
 * A workspace file watcher the host may inject (the CLI's `serve`; plugin code has none in the
 * harness fs seam): calls `onChange` with changes under `root`, returns a stop function.
 * A watcher that cannot watch everything says so through `hooks.onDegraded` — never silently.
 */
export type WorkspaceWatch = (
  root: string,
  onChange: (changes: Array<{ path: string; kind: 'created' | 'changed' | 'deleted' }>) => void,
  hooks?: WatchHooks,
) => () => void;

/** A root whose watching is degraded (see {@link WatchHooks.onDegraded}). */
export interface WatchDegradedEvent {
  root: string;
  reason: string;
  /** How changes under it are learned now: a stat sweep before every answer, or not at all (answers `stale`). */
  fallback: 'sweep' | 'none';
}

/** What a server says it is in `initialize` (`serverInfo`). */
export interface ServerInfo {
  name: string;
  version?: string;
}

/** What a server routed to a file offers for code actions ({@link LspEngineApi.codeActionKinds}). */
export interface CodeActionServer {
  serverId: string;
  /** Its `codeActionProvider.codeActionKinds`, when it lists them. */
  kinds?: readonly string[];
  /** Its own `serverInfo`, when it sent one. */
  serverInfo?: ServerInfo;
}

/** A live server process, for status listings. */
export interface LiveServerInfo {
  serverId: string;
  root: string;
  state: 'starting' | 'ready' | 'stopping';
  pid?: number;
  openDocuments: number;
  restarts: number;
}

/**
 * What the action layer needs from the engine. `LspEngine` implements it; upper layers
 * (actions, tools, editor, CLI) depend on this interface only.
 *
 * Every method: routes the file to its servers (globs, then extension), starts the server for
 * (server id, root) once, brings the server's copy of the document up to date (disk content
 * through the fs seam, or `target.text`), then asks. Errors are {@link ActionError}s.
 */
/** A file's declaration signature (see {@link LspEngineApi.declarationSignatures}). */
export interface DeclarationSignature {
  /** Hash of the file's emitted declarations and the declaration emit's diagnostics. */
  signature: string;
  /** The file reaches other files without an import (a script, `declare global`, `declare module`). */
  global: boolean;
  /** Hash of the file names of the file's program (a file joining or leaving it can reach every file). */
  program: string;
}

export interface LspEngineApi {
  /** Server ids routed to the file, in order; empty when none handles it. */
  serversFor(path: string, root: string): string[];

  /**
   * Diagnostics of every server routed to the file, merged, with freshness.
   * Waits up to `waitMs` (default: config `diagnosticsWaitMs`) for fresh results.
   */
  diagnostics(target: DocumentTarget, opts?: CallOptions & { waitMs?: number }): Promise<FileDiagnostics>;

  /**
   * Diagnostics of many files of one workspace in one go (the CLI's `check`), one entry per
   * path, in order. Files of a tsserver-backed server are asked without being opened (one file
   * per project is opened to load it), so a whole project costs about one `tsc --noEmit`;
   * other files go through {@link diagnostics}. A failure of one file is its entry's `error`;
   * an abort rejects the whole call. `minSeverity` (1 error … 4 hint, default 4) is the lowest
   * severity the caller keeps: items below it may be absent (a strategy skips asking for a kind
   * that only yields lower severities), so filter by it too. `onAnswered` is called once per
   * file as its answer arrives (for progress; the entries returned are the result).
   */
  diagnosticsMany(
    root: string,
    paths: readonly string[],
    opts?: CallOptions & { waitMs?: number; minSeverity?: 1 | 2 | 3 | 4; onAnswered?: (path: string) => void; epoch?: ServerEpoch },
  ): Promise<BatchDiagnosticsEntry[]>;

  /**
   * Starts server `serverId` for the root it would use for `path` (root markers looked for from
   * `path`'s directory up; the file need not exist) and leaves it warm, opening nothing — so a
   * caller that will soon ask can overlap the server's start with its own work. Resolves when
   * the server is ready; a failure rejects (the next real request reports it again).
   */
  prestart(serverId: string, path: string, root: string, opts?: CallOptions): Promise<void>;

  /**
   * A prestart that also loads the project, for a server that answers pulls for unopened files
   * (`pullsUnopenedFiles`): watches the server's root, then — if no process of that (server,
   * root) was ever started, so none existed when `snapshot` was taken, before this call — binds
   * the snapshot to the process about to be spawned (the {@link ServerEpoch}); starts it and
   * pulls `path` unopened, the answer dropped (later unopened groups on that process wait for
   * this load instead of loading it themselves). Resolves when the server is ready, with the
   * epoch (undefined: no proof) and the load under way.
   */
  warmStart?(serverId: string, path: string, root: string, snapshot: FileSnapshot, opts?: CallOptions): Promise<{ epoch: ServerEpoch | undefined; loaded: Promise<void> }>;

  /**
   * The root directory server `serverId` uses for `path` (its root markers looked for from
   * `path`'s directory up, the workspace `root` when none) — the process a request about `path`
   * goes to is the one for (serverId, that root). Lets a caller group its work by server process
   * (the CLI's `check` does, to stop each program's server when its files are done).
   */
  serverRootOf?(serverId: string, path: string, root: string, opts?: CallOptions): Promise<string>;

  /**
   * Stops the process of server `serverId` for `serverRoot` (a root {@link serverRootOf} gave)
   * once the requests using it are done — shutdown, exit, then process-tree kill, as
   * {@link dispose} does for all — and closes the documents it had open. A later request for
   * that root starts a new process. Resolves `false` when no process was live there; `opts.signal`
   * abandons the wait (the server is then left running).
   */
  stopServer?(serverId: string, serverRoot: string, opts?: CallOptions): Promise<boolean>;

  /**
   * Files of the compiler project the file belongs to, as its server knows them — for a
   * tsserver-backed server, the program's root files, what they import, and the default
   * libraries. Undefined when no server routed to the file can say (another strategy, no
   * loaded project). Ask after the project is loaded (e.g. after diagnostics of one of its files).
   */
  projectFiles(path: string, root: string, opts?: CallOptions): Promise<string[] | undefined>;

  /**
   * The files that import `path` directly (`import`, `export … from`, `require`, `import()`,
   * `/// <reference path>`), as the compiler project's module resolution has them — for a
   * tsserver-backed server, its `fileReferences`. Undefined when no server routed to the file
   * can say (another strategy, no loaded project). Tell the engine of a change first
   * ({@link filesChanged}): the answer describes the program the server has now.
   */
  fileImporters(path: string, root: string, opts?: CallOptions): Promise<string[] | undefined>;

  /**
   * The declaration signatures of files (`tsc --watch`'s builder rule: the hash of the file's
   * emitted `.d.ts`), from a tsserver that loaded this package's signature plugin (`check
   * --watch`'s). A file no server could vouch for is absent (no plugin, another strategy, no
   * project, a `.d.ts` or JavaScript file). Ask after the server has the files' current text
   * (after their diagnostics): the answer describes the program the server has now. Only servers
   * up now are asked: none is started or restarted for it (one started anew has no project).
   */
  declarationSignatures?(paths: readonly string[], root: string, opts?: CallOptions): Promise<Map<string, DeclarationSignature>>;

  /** Completion from the first server that advertises it. */
  completion(target: DocumentTarget, position: Position, opts?: CallOptions): Promise<CompletionResult>;

  /** `completionItem/resolve`, when the server supports it; otherwise returns the item unchanged. */
  resolveCompletion(target: DocumentTarget, item: CompletionItemInfo, opts?: CallOptions): Promise<CompletionItemInfo>;

  /**
   * Code actions of every server routed to the file, merged. The servers' own current
   * diagnostics overlapping `range` are sent as context.
   */
  codeActions(
    target: DocumentTarget,
    range: Range,
    opts?: CallOptions & { only?: string[] },
  ): Promise<CodeActionItem[]>;

  /**
   * What each server routed to the file that offers code actions advertises as
   * `codeActionProvider.codeActionKinds` (`kinds` undefined when it does not list them), so a
   * caller can tell "nothing to do" from "cannot do it"; and what the server said it is
   * (`serverInfo`), so a caller can say why a server known to lack fixes offered none.
   */
  codeActionKinds(target: DocumentTarget, opts?: CallOptions): Promise<CodeActionServer[]>;

  /** `codeAction/resolve` for an item with `needsResolve`. */
  resolveCodeAction(target: DocumentTarget, item: CodeActionItem, opts?: CallOptions): Promise<CodeActionItem>;

  /**
   * `workspace/executeCommand` on the server that offered the command. Any
   * `workspace/applyEdit` the server sends while the command runs goes to `applyEdit`.
   */
  executeCommand(
    target: DocumentTarget,
    serverId: string,
    command: LspCommand,
    opts: CallOptions & { applyEdit: ApplyEditHandler },
  ): Promise<unknown>;

  /** Formatting (whole document, or `range`) from the first server that advertises it. */
  format(target: DocumentTarget, range: Range | undefined, opts?: CallOptions): Promise<{ serverId: string; edits: TextEdit[]; basis?: EditBasis }>;

  /** `textDocument/prepareRename` (when supported); `null` when there is nothing to rename there. */
  prepareRename(
    target: DocumentTarget,
    position: Position,
    opts?: CallOptions,
  ): Promise<{ serverId: string; range?: Range; placeholder?: string } | null>;

  /** `textDocument/rename` on the first server that advertises it. */
  rename(
    target: DocumentTarget,
    position: Position,
    newName: string,
    opts?: CallOptions,
  ): Promise<{ serverId: string; edit: NormalizedWorkspaceEdit; basis?: EditBasis }>;

  /** The file's outline. */
  documentSymbols(target: DocumentTarget, opts?: CallOptions): Promise<{ serverId: string; symbols: SymbolNode[] }>;

  /**
   * `workspace/symbol` on the servers for `root`. `anchorPath` picks which server(s) to ask (and
   * is opened first, since some servers only index once a file is open); without it, every
   * live server for the root is asked.
   */
  workspaceSymbols(
    root: string,
    query: string,
    opts?: CallOptions & { anchorPath?: string },
  ): Promise<SymbolNode[]>;

  signatureHelp(target: DocumentTarget, position: Position, opts?: CallOptions): Promise<SignatureHelpResult | null>;

  /** Inlay hints for `range`, or the whole document when omitted. */
  inlayHints(target: DocumentTarget, range: Range | undefined, opts?: CallOptions): Promise<{ serverId: string; hints: InlayHintInfo[] }>;

  hover(target: DocumentTarget, position: Position, opts?: CallOptions): Promise<HoverResult | null>;
  definition(target: DocumentTarget, position: Position, opts?: CallOptions): Promise<FileLocation[]>;
  references(
    target: DocumentTarget,
    position: Position,
    opts?: CallOptions & { includeDeclaration?: boolean },
  ): Promise<FileLocation[]>;
  /** `textDocument/implementation`: implementations of an interface, abstract member or type. */
  implementation(target: DocumentTarget, position: Position, opts?: CallOptions): Promise<FileLocation[]>;
  /** `textDocument/prepareCallHierarchy`, then incoming or outgoing calls of every prepared item. */
  callHierarchy(target: DocumentTarget, position: Position, direction: 'incoming' | 'outgoing', opts?: CallOptions): Promise<CallHierarchyResult>;

  /**
   * A file's text as the servers see it now: the synced copy when a server has it open, else
   * the file read through the fs seam (cached by fs version). Undefined when unreadable, not
   * text, or larger than every server's `maxDocumentBytes`. For showing source lines of answers.
   */
  fileText(path: string, opts?: CallOptions): Promise<string | undefined>;

  /**
   * Tell the servers that files changed on disk because of our own writes (or an observed
   * change): open documents get `didChange` (or `didClose` when deleted), the rest are
   * announced with `workspace/didChangeWatchedFiles` — and, to a tsserver-backed server,
   * `didOpen`+`didClose` with the disk text (changes) or tsserver `reloadProjects` (creations,
   * deletions). Every server that sees the files drops its held diagnostics results, answers
   * in flight become `pending`, and {@link onDependencyChange} fires
   * (docs/decisions/0010-cross-file-freshness.md).
   */
  filesChanged(changes: Array<{ path: string; kind: 'created' | 'changed' | 'deleted' }>, opts?: CallOptions): Promise<void>;

  /**
   * The text (and engine version) the servers last saw for `path`, if the engine has it open.
   * The write path uses it as the basis edits were computed against.
   */
  documentText(path: string): { text: string; version: number } | undefined;

  /** Paths of the documents the engine has open under `root` (for workspace-wide views). */
  openDocuments(root?: string): string[];

  /** Unsolicited diagnostics pushes for open documents. Returns a disposer. */
  onDiagnostics(listener: (event: DiagnosticsEvent) => void): () => void;

  /**
   * Fired after a change to any file (open or not, whoever made it) was applied to the servers
   * that see it: their open documents' diagnostics may differ now. Ask `diagnostics` for the
   * `affected` documents to get fresh answers (an editor backend pushes those). Returns a disposer.
   */
  onDependencyChange(listener: (event: DependencyChangeEvent) => void): () => void;
  /**
   * @param listener told once per root whose workspace watching became degraded (roots already
   *   degraded are told at once); optional for engines without a watcher
   * @returns unsubscribe
   */
  onWatchDegraded?(listener: (event: WatchDegradedEvent) => void): () => void;

  /** Live server processes. */
  liveServers(): LiveServerInfo[];

  /** Stops every server (shutdown, exit, then process-tree kill) and closes every document. */
  dispose(): Promise<void>;
}
