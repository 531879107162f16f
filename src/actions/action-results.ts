/**
 * Wire shapes of every action's params and result (editor protocol v1 plus the additive
 * actions). Positions are zero-based UTF-16, ranges half-open. The four v1 shapes are fixed by
 * `editor-protocol-v1.md`; fields marked "additive" extend them as the spec allows.
 *
 * Paths: a request's `filePath` may be absolute or relative to `workspaceRoot`; a result's own
 * `filePath` echoes it verbatim. Every other path in a result (diffs, locations, symbols,
 * workspace files) is workspace-relative and `/`-separated when it lies inside the root, absolute
 * otherwise (docs/research/editor-protocol-wire-facts.md §1).
 */
import type { DiagnosticSeverity, Freshness, Position, Range, TextEdit } from '../lsp/engine-types.ts';
import type {
  CodeActionApplyParams,
  CodeActionApplyResult,
  CodeActionSelectParams,
  CodeActionsListParams,
  CodeActionsListResult,
  OrganizeImportsParams,
  OrganizeImportsResult,
  RenameParams,
  RenameResult,
} from './code-action-results.ts';
import type {
  DiagnosticsWorkspaceParams,
  DiagnosticsWorkspaceResult,
  CallHierarchyGetParams,
  CallHierarchyGetResult,
  HoverGetParams,
  HoverGetResult,
  InlayHintsGetParams,
  InlayHintsGetResult,
  LocationsParams,
  LocationsResult,
  PositionParams,
  ReferencesGetParams,
  SignatureGetResult,
  SymbolsGetParams,
  SymbolsGetResult,
} from './navigation-results.ts';

export type { Position, Range, TextEdit } from '../lsp/engine-types.ts';
export type * from './code-action-results.ts';
export type * from './navigation-results.ts';

/** Diagnostic severity on the wire: the LSP number (1 error, 2 warning, 3 information, 4 hint). */
export type WireSeverity = 1 | 2 | 3 | 4;

/** Severity names, as the engine reports them (counts and filters use these). */
export type SeverityName = DiagnosticSeverity;

/** Params every file action takes. `workspaceRoot` is absolute; `filePath` absolute or root-relative. */
export interface FileParams {
  filePath: string;
  workspaceRoot: string;
}

/** Read actions accept the editor's unsaved buffer; results are for that text. */
export interface ReadFileParams extends FileParams {
  text?: string;
}

/**
 * The fields every write action takes: the official escalation pair (the runner's caller resolves
 * it) and the editor's pin of what it saw.
 */
export interface EscalationParams {
  sandbox_permissions?: string;
  justification?: string;
  /**
   * Lowercase hex SHA-256 of the UTF-8 text (BOM excluded) of the `filePath` document as the
   * editor last saw it; when the text the edit is computed against differs, the action fails with
   * `LSP_ACTION_CONFLICT` (reason `pin-mismatch`) and writes nothing.
   */
  expectedSha256?: string;
}

/** Count-capped lists say whether they were cut and how many there were. */
export interface Capped {
  truncated: boolean;
  total: number;
}

/** `{ kind: 'unchanged' }`: a write action that changed nothing. `reason` is additive and never set by the v1 actions. */
export interface UnchangedResult {
  kind: 'unchanged';
  filePath: string;
  reason?: string;
}

/** Full before/after text of one written file (`filePath` workspace-relative). */
export interface FileDiff {
  filePath: string;
  before: string;
  after: string;
}

// ── diagnostics.get ───────────────────────────────────────────────────────────

/** `diagnostics.get` params. `maxItems`, `text`, `waitMs` are additive. */
export interface DiagnosticsGetParams extends ReadFileParams {
  includeSource?: boolean;
  maxItems?: number;
  waitMs?: number;
}

/** One diagnostic; `serverId`, `tags` and `relatedInformation` are additive. */
export interface WireDiagnostic {
  severity: WireSeverity;
  range: Range;
  message: string;
  source?: string;
  code?: string | number;
  serverId: string;
  tags?: number[];
  /** The server's related locations; `filePath` is absolute. */
  relatedInformation?: { filePath: string; range: Range; message: string }[];
}

/** Per-server status (additive). */
export interface WireServerStatus {
  serverId: string;
  mode: 'pull' | 'push';
  state: Freshness;
  error?: { code: string; message: string };
}

/** `diagnostics.get` result; `state`, `version`, `servers` are additive; `source` is the analysed text. */
export interface DiagnosticsGetResult extends Capped {
  kind: 'diagnostics';
  filePath: string;
  diagnostics: WireDiagnostic[];
  source?: string;
  state: Freshness;
  version: number;
  servers: WireServerStatus[];
}

// ── completion.get ────────────────────────────────────────────────────────────

/** `completion.get` params; `text`, `maxItems` are additive. */
export interface CompletionGetParams extends ReadFileParams {
  position: Position;
  maxItems?: number;
}

/** One completion item; `documentation`, `filterText`, `serverId` are additive. */
export interface WireCompletionItem {
  label: string;
  kind?: number;
  detail?: string;
  insertText?: string;
  sortText?: string;
  textEdit?: TextEdit;
  documentation?: string;
  filterText?: string;
  serverId: string;
}

/**
 * `completion.get` result; `isIncomplete` and `prefix` (the typed prefix used to filter) are
 * additive. `total` counts the items matching the prefix (before the cap), best first.
 */
export interface CompletionGetResult extends Capped {
  kind: 'completion';
  filePath: string;
  position: Position;
  items: WireCompletionItem[];
  isIncomplete: boolean;
  prefix: string;
}

// ── writes: shared ────────────────────────────────────────────────────────────

/** Outcome of a write: files written and edits applied (shared by every write result). */
export interface WriteSummary {
  /** Number of files written. */
  filesChanged: number;
  /** Number of text edits applied. */
  appliedEdits: number;
  diffs: FileDiff[];
}

// ── quickfix.apply ────────────────────────────────────────────────────────────

/** `quickfix.apply` params (`only` defaults to `['quickfix']`). */
export type QuickfixApplyParams = CodeActionSelectParams;

/** `quickfix.apply` result; `files` (per-file edit counts) and `serverId` are additive. */
export type QuickfixApplyResult =
  | ({ kind: 'quickfixApplied'; filePath: string; title: string; serverId: string; files: FileEditCount[] } & WriteSummary)
  | UnchangedResult;

/** Edit count of one written file. */
export interface FileEditCount {
  filePath: string;
  editCount: number;
}

// ── format ────────────────────────────────────────────────────────────────────

/** `format` params. */
export interface FormatParams extends FileParams, EscalationParams {
  range?: Range;
}

/** `format` result; `linesChanged` counts lines that differ. */
export type FormatResult =
  | { kind: 'formatted'; filePath: string; appliedEdits: number; linesChanged: number; before: string; after: string }
  | UnchangedResult;

// ── by action id ──────────────────────────────────────────────────────────────

/** Params of each built-in action, by id (catalog order). */
export interface ActionParamsMap {
  'diagnostics.get': DiagnosticsGetParams;
  'completion.get': CompletionGetParams;
  'quickfix.apply': QuickfixApplyParams;
  format: FormatParams;
  'codeActions.list': CodeActionsListParams;
  'codeAction.apply': CodeActionApplyParams;
  rename: RenameParams;
  organizeImports: OrganizeImportsParams;
  'symbols.get': SymbolsGetParams;
  'signature.get': PositionParams;
  'inlayHints.get': InlayHintsGetParams;
  'hover.get': HoverGetParams;
  'definition.get': LocationsParams;
  'references.get': ReferencesGetParams;
  'diagnostics.workspace': DiagnosticsWorkspaceParams;
  'implementation.get': LocationsParams;
  'callHierarchy.get': CallHierarchyGetParams;
}

/** Result of each built-in action, by id. */
export interface ActionResultMap {
  'diagnostics.get': DiagnosticsGetResult;
  'completion.get': CompletionGetResult;
  'quickfix.apply': QuickfixApplyResult;
  format: FormatResult;
  'codeActions.list': CodeActionsListResult;
  'codeAction.apply': CodeActionApplyResult;
  rename: RenameResult;
  organizeImports: OrganizeImportsResult;
  'symbols.get': SymbolsGetResult;
  'signature.get': SignatureGetResult;
  'inlayHints.get': InlayHintsGetResult;
  'hover.get': HoverGetResult;
  'definition.get': LocationsResult;
  'references.get': LocationsResult;
  'diagnostics.workspace': DiagnosticsWorkspaceResult;
  'implementation.get': LocationsResult;
  'callHierarchy.get': CallHierarchyGetResult;
}

/** Id of a built-in action. */
export type BuiltinActionId = keyof ActionResultMap;
