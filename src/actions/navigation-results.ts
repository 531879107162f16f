/**
 * Wire shapes of the read-only navigation actions (`symbols.get`, `signature.get`,
 * `inlayHints.get`, `hover.get`, `definition.get`, `references.get`) and of
 * `diagnostics.workspace`. Re-exported by `action-results.ts`.
 */
import type { Freshness, Position, Range } from '../lsp/engine-types.ts';
import type { Capped, ReadFileParams, SeverityName, WireDiagnostic } from './action-results.ts';
import type { NavigationTargetParams } from './navigation-target.ts';

export type { NavigationTargetParams } from './navigation-target.ts';

// ── navigation reads ─────────────────────────────────────────────────────────

/** Read params at a cursor. */
export interface PositionParams extends ReadFileParams {
  position: Position;
}

/** A place in a file; `lineText` and `declaration` are additive (navigation with `withSource` / `markDeclarations`). */
export interface WireLocation {
  filePath: string;
  range: Range;
  /** The text of the range's first line (cut at 240 characters), when asked with `withSource`. */
  lineText?: string;
  /** Set on a reference that is the symbol's declaration (with `markDeclarations`). */
  declaration?: boolean;
}

/** Where a navigation request was asked, when it was not simply the given position (additive). */
export interface NavigationResolution {
  /** The name at the position asked (position snapped with `nearest`, or a `symbol`). */
  name?: string;
  /** What was done to get there, e.g. `3:1 is not on a name; used \`total\` at 3:10, …` (one-based). */
  note?: string;
}

/** `symbols.get` params: the file outline, or a workspace query when `query` is given. */
export interface SymbolsGetParams {
  workspaceRoot: string;
  filePath?: string;
  query?: string;
  text?: string;
  maxItems?: number;
}

/** One symbol; `children` only in outlines. */
export interface WireSymbol {
  name: string;
  kind: number;
  detail?: string;
  containerName?: string;
  filePath: string;
  range: Range;
  selectionRange: Range;
  children?: WireSymbol[];
}

/** `symbols.get` result; `total` counts every symbol (outline nodes included). */
export interface SymbolsGetResult extends Capped {
  kind: 'symbols';
  scope: 'document' | 'workspace';
  filePath?: string;
  query?: string;
  symbols: WireSymbol[];
}

/** `signature.get` result; empty `signatures` when there is no call at the cursor. */
export interface SignatureGetResult {
  kind: 'signature';
  filePath: string;
  position: Position;
  serverId?: string;
  signatures: Array<{ label: string; documentation?: string; parameters: Array<{ label: string; documentation?: string }>; activeParameter?: number }>;
  activeSignature: number;
  activeParameter: number;
}

/** `inlayHints.get` params; no `range` → the whole document. */
export interface InlayHintsGetParams extends ReadFileParams {
  range?: Range;
  maxItems?: number;
}

/** `inlayHints.get` result. */
export interface InlayHintsGetResult extends Capped {
  kind: 'inlayHints';
  filePath: string;
  range?: Range;
  serverId: string;
  hints: Array<{ position: Position; label: string; kind?: number; paddingLeft?: boolean; paddingRight?: boolean }>;
}

/** `hover.get` params: a position, or a `symbol` (additive). */
export type HoverGetParams = NavigationTargetParams;

/** `hover.get` result; `found: false` with empty contents when there is nothing there. */
export interface HoverGetResult extends NavigationResolution {
  kind: 'hover';
  filePath: string;
  position: Position;
  found: boolean;
  contents: string;
  range?: Range;
  serverId?: string;
}

/**
 * `definition.get` / `implementation.get` params: `filePath` + `position`, or `symbol`
 * (additive, with optional `filePath`); `nearest`, `anchorPaths`, `withSource` additive.
 */
export interface LocationsParams extends NavigationTargetParams {
  maxItems?: number;
  /** Give every listed location its `lineText`. */
  withSource?: boolean;
}

/** `references.get` params; `includeDeclaration` defaults to true; `markDeclarations` additive. */
export interface ReferencesGetParams extends LocationsParams {
  includeDeclaration?: boolean;
  /** Also ask for the definition and mark the references that are declarations. */
  markDeclarations?: boolean;
}

/** `definition.get` / `references.get` / `implementation.get` result; `filePath` and `position` are where it was asked. */
export interface LocationsResult extends Capped, NavigationResolution {
  kind: 'definition' | 'references' | 'implementation';
  filePath: string;
  position: Position;
  locations: WireLocation[];
}

/** `callHierarchy.get` params (additive action). */
export interface CallHierarchyGetParams extends NavigationTargetParams {
  direction: 'incoming' | 'outgoing';
  maxItems?: number;
  withSource?: boolean;
}

/** One function, method or constructor of a call hierarchy. */
export interface WireCallItem {
  name: string;
  /** LSP `SymbolKind`. */
  kind: number;
  detail?: string;
  filePath: string;
  range: Range;
  selectionRange: Range;
}

/** One call site: the call expression, and the caller (incoming) or callee (outgoing). */
export interface WireCallSite extends WireLocation {
  /** The caller (incoming) or the called item (outgoing). */
  other: WireCallItem;
}

/** `callHierarchy.get` result; `total` counts call sites; `items` is what the position prepared (empty: nothing callable). */
export interface CallHierarchyGetResult extends Capped, NavigationResolution {
  kind: 'callHierarchy';
  direction: 'incoming' | 'outgoing';
  filePath: string;
  position: Position;
  serverId?: string;
  items: WireCallItem[];
  /** Call sites ordered by file then position. */
  calls: WireCallSite[];
}

// ── diagnostics.workspace ────────────────────────────────────────────────────

/** `diagnostics.workspace` params: open documents under the root, plus `filePaths` (up to `workspaceMaxFiles`). */
export interface DiagnosticsWorkspaceParams {
  workspaceRoot: string;
  filePaths?: string[];
  maxItems?: number;
  waitMs?: number;
}

/** One file of a workspace diagnostics result. */
export interface WorkspaceFileDiagnostics extends Capped {
  filePath: string;
  state: Freshness;
  version: number;
  diagnostics: WireDiagnostic[];
  error?: { code: string; message: string };
}

/** `diagnostics.workspace` result: files with problems, not-fresh or failed files; `total` counts diagnostics. */
export interface DiagnosticsWorkspaceResult extends Capped {
  kind: 'workspaceDiagnostics';
  files: WorkspaceFileDiagnostics[];
  filesChecked: number;
  filesSkipped: number;
  counts: Record<SeverityName, number>;
}
