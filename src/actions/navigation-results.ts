/**
 * Wire shapes of the read-only navigation actions (`symbols.get`, `signature.get`,
 * `inlayHints.get`, `hover.get`, `definition.get`, `references.get`) and of
 * `diagnostics.workspace`. Re-exported by `action-results.ts`.
 */
import type { Freshness, Position, Range } from '../lsp/engine-types.ts';
import type { Capped, ReadFileParams, SeverityName, WireDiagnostic } from './action-results.ts';

// ── navigation reads ─────────────────────────────────────────────────────────

/** Read params at a cursor. */
export interface PositionParams extends ReadFileParams {
  position: Position;
}

/** A place in a file. */
export interface WireLocation {
  filePath: string;
  range: Range;
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

/** `hover.get` result; `found: false` with empty contents when there is nothing there. */
export interface HoverGetResult {
  kind: 'hover';
  filePath: string;
  position: Position;
  found: boolean;
  contents: string;
  range?: Range;
  serverId?: string;
}

/** `definition.get` params. */
export interface LocationsParams extends PositionParams {
  maxItems?: number;
}

/** `references.get` params; `includeDeclaration` defaults to true. */
export interface ReferencesGetParams extends LocationsParams {
  includeDeclaration?: boolean;
}

/** `definition.get` / `references.get` result. */
export interface LocationsResult extends Capped {
  kind: 'definition' | 'references';
  filePath: string;
  position: Position;
  locations: WireLocation[];
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
