/**
 * A hand-written in-memory {@link LspEngineApi} for pure action-logic tests: every answer is a
 * field the test sets, every call is recorded. Real-server tests use the real engine instead.
 */
import { ActionError } from '../../../src/errors.ts';
import type {
  ApplyEditHandler,
  CallHierarchyResult,
  CodeActionItem,
  CompletionItemInfo,
  CompletionResult,
  DocumentTarget,
  EditBasis,
  FileDiagnostics,
  FileLocation,
  HoverResult,
  InlayHintInfo,
  LspCommand,
  LspEngineApi,
  NormalizedWorkspaceEdit,
  Position,
  Range,
  SignatureHelpResult,
  SymbolNode,
  TextEdit,
} from '../../../src/lsp/engine-types.ts';

/** One recorded engine call. */
export interface EngineCall {
  method: string;
  args: unknown[];
}

/** Stub engine; set the answer fields, read `calls`. */
export class StubEngine implements LspEngineApi {
  calls: EngineCall[] = [];
  /** Texts the engine "has open" (documentText). */
  docs = new Map<string, string>();
  diagnosticsFor: (target: DocumentTarget) => FileDiagnostics = (target) => ({
    path: target.path,
    version: 1,
    state: 'fresh',
    diagnostics: [],
    servers: [],
  });
  completionResult: CompletionResult = { serverId: 'ts', isIncomplete: false, items: [] };
  resolveCompletionImpl: (item: CompletionItemInfo) => CompletionItemInfo = (item) => item;
  codeActionItems: CodeActionItem[] = [];
  resolveCodeActionImpl: (item: CodeActionItem) => CodeActionItem = (item) => ({ ...item, needsResolve: false });
  executeCommandImpl: (command: LspCommand, applyEdit: ApplyEditHandler) => Promise<unknown> = async () => null;
  formatEdits: TextEdit[] = [];
  /** The text the (stub) server computed format/rename against, when a test sets one. */
  basis: EditBasis | undefined;
  prepareRenameResult: { serverId: string; range?: Range; placeholder?: string } | null = { serverId: 'ts' };
  renameEdit: NormalizedWorkspaceEdit = { steps: [] };
  symbols: SymbolNode[] = [];
  workspaceSymbolResult: SymbolNode[] = [];
  signature: SignatureHelpResult | null = null;
  hints: InlayHintInfo[] = [];
  hoverResult: HoverResult | null = null;
  definitionResult: FileLocation[] = [];
  referencesResult: FileLocation[] = [];
  implementationResult: FileLocation[] = [];
  callHierarchyResult: CallHierarchyResult = { serverId: 'ts', direction: 'incoming', items: [], edges: [] };
  /** File texts on "disk" (fileText); open docs (`docs`) win. */
  files = new Map<string, string>();
  open: string[] = [];
  /** Throw this from the named method. */
  failures = new Map<string, ActionError>();

  #record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
    const failure = this.failures.get(method);
    if (failure) throw failure;
  }

  /** @returns calls of one method */
  callsOf(method: string): EngineCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  serversFor(): string[] {
    return ['ts'];
  }
  async diagnostics(target: DocumentTarget, opts?: { signal?: AbortSignal; waitMs?: number }): Promise<FileDiagnostics> {
    this.#record('diagnostics', target, opts);
    return this.diagnosticsFor(target);
  }
  async completion(target: DocumentTarget, position: Position): Promise<CompletionResult> {
    this.#record('completion', target, position);
    return this.completionResult;
  }
  async resolveCompletion(target: DocumentTarget, item: CompletionItemInfo): Promise<CompletionItemInfo> {
    this.#record('resolveCompletion', target, item);
    return this.resolveCompletionImpl(item);
  }
  async codeActionKinds(target: DocumentTarget): Promise<Array<{ serverId: string; kinds?: readonly string[] }>> {
    this.#record('codeActionKinds', target);
    return [{ serverId: 'ts' }];
  }

  async codeActions(target: DocumentTarget, range: Range, opts?: { only?: string[] }): Promise<CodeActionItem[]> {
    this.#record('codeActions', target, range, opts?.only);
    return this.codeActionItems;
  }
  async resolveCodeAction(target: DocumentTarget, item: CodeActionItem): Promise<CodeActionItem> {
    this.#record('resolveCodeAction', target, item);
    return this.resolveCodeActionImpl(item);
  }
  async executeCommand(target: DocumentTarget, serverId: string, command: LspCommand, opts: { applyEdit: ApplyEditHandler }): Promise<unknown> {
    this.#record('executeCommand', target, serverId, command);
    return this.executeCommandImpl(command, opts.applyEdit);
  }
  async format(target: DocumentTarget, range: Range | undefined): Promise<{ serverId: string; edits: TextEdit[]; basis?: EditBasis }> {
    this.#record('format', target, range);
    return { serverId: 'ts', edits: this.formatEdits, ...(this.basis ? { basis: this.basis } : {}) };
  }
  async prepareRename(target: DocumentTarget, position: Position): Promise<{ serverId: string; range?: Range; placeholder?: string } | null> {
    this.#record('prepareRename', target, position);
    return this.prepareRenameResult;
  }
  async rename(target: DocumentTarget, position: Position, newName: string): Promise<{ serverId: string; edit: NormalizedWorkspaceEdit; basis?: EditBasis }> {
    this.#record('rename', target, position, newName);
    return { serverId: 'ts', edit: this.renameEdit, ...(this.basis ? { basis: this.basis } : {}) };
  }
  async documentSymbols(target: DocumentTarget): Promise<{ serverId: string; symbols: SymbolNode[] }> {
    this.#record('documentSymbols', target);
    return { serverId: 'ts', symbols: this.symbols };
  }
  async workspaceSymbols(root: string, query: string, opts?: { anchorPath?: string }): Promise<SymbolNode[]> {
    this.#record('workspaceSymbols', root, query, opts?.anchorPath);
    return this.workspaceSymbolResult;
  }
  async signatureHelp(target: DocumentTarget, position: Position): Promise<SignatureHelpResult | null> {
    this.#record('signatureHelp', target, position);
    return this.signature;
  }
  async inlayHints(target: DocumentTarget, range: Range | undefined): Promise<{ serverId: string; hints: InlayHintInfo[] }> {
    this.#record('inlayHints', target, range);
    return { serverId: 'ts', hints: this.hints };
  }
  async hover(target: DocumentTarget, position: Position): Promise<HoverResult | null> {
    this.#record('hover', target, position);
    return this.hoverResult;
  }
  async definition(target: DocumentTarget, position: Position): Promise<FileLocation[]> {
    this.#record('definition', target, position);
    return this.definitionResult;
  }
  async references(target: DocumentTarget, position: Position, opts?: { includeDeclaration?: boolean }): Promise<FileLocation[]> {
    this.#record('references', target, position, opts?.includeDeclaration);
    return this.referencesResult;
  }
  async implementation(target: DocumentTarget, position: Position): Promise<FileLocation[]> {
    this.#record('implementation', target, position);
    return this.implementationResult;
  }
  async callHierarchy(target: DocumentTarget, position: Position, direction: 'incoming' | 'outgoing'): Promise<CallHierarchyResult> {
    this.#record('callHierarchy', target, position, direction);
    return { ...this.callHierarchyResult, direction };
  }
  async fileText(path: string): Promise<string | undefined> {
    this.#record('fileText', path);
    return this.docs.get(path) ?? this.files.get(path);
  }
  async filesChanged(changes: Array<{ path: string; kind: 'created' | 'changed' | 'deleted' }>): Promise<void> {
    this.#record('filesChanged', changes);
  }
  documentText(path: string): { text: string; version: number } | undefined {
    const text = this.docs.get(path);
    return text === undefined ? undefined : { text, version: 1 };
  }
  openDocuments(): string[] {
    return this.open;
  }
  onDiagnostics(): () => void {
    return () => {};
  }
  fileImporters(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  projectFiles(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  prestart(): Promise<void> {
    return Promise.resolve();
  }

  diagnosticsMany(): Promise<[]> {
    return Promise.resolve([]);
  }
  onDependencyChange(): () => void {
    return () => {};
  }
  liveServers(): [] {
    return [];
  }
  async dispose(): Promise<void> {}
}
