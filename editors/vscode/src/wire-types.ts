/**
 * The parts of `lsp-actions/v1` (plus the backend's documented additive fields) this extension
 * reads, as they appear on the wire. Clients ignore what they do not know, so every type is
 * open-ended: fields the extension does not use are simply not listed.
 */

/** Zero-based LSP position (UTF-16 code units). */
export interface WirePosition {
  line: number;
  character: number;
}

/** Zero-based, half-open LSP range. */
export interface WireRange {
  start: WirePosition;
  end: WirePosition;
}

/** A related-information entry, when the backend forwards one. */
export interface WireRelated {
  filePath?: string;
  location?: { uri?: string; filePath?: string; range: WireRange };
  range?: WireRange;
  message: string;
}

/** One diagnostic item (§5 of docs/editor-protocol.md). */
export interface WireDiagnostic {
  severity?: number;
  range: WireRange;
  message: string;
  source?: string;
  code?: string | number;
  serverId?: string;
  tags?: number[];
  relatedInformation?: WireRelated[];
}

/** Freshness of a diagnostics snapshot. */
export type Freshness = 'fresh' | 'pending' | 'stale';

/** `diagnostics.get` result, and the flat `diagnostics.updated` event payload. */
export interface WireDiagnostics {
  filePath: string;
  workspaceRoot?: string;
  diagnostics: WireDiagnostic[];
  truncated?: boolean;
  total?: number;
  state?: Freshness;
  version?: number;
  origin?: 'run' | 'push';
  requestId?: string;
}

/** One entry of `codeActions.list`. */
export interface WireCodeAction {
  index: number;
  title: string;
  kind?: string;
  isPreferred?: boolean;
  disabled?: { reason: string } | string;
  diagnostics?: string[];
}

/** `codeActions.list` result. */
export interface WireCodeActions {
  kind: 'codeActions';
  filePath: string;
  range: WireRange;
  actions: WireCodeAction[];
}

/** A live DSH session (`lsp.actions.list`, `sessions.changed`). */
export interface WireSession {
  sessionId: string;
  cwd: string;
  live?: boolean;
}

/** `lsp.actions.list` result. */
export interface WireCatalog {
  protocol: string;
  version: number;
  actions: { action: string; writes: boolean; description?: string }[];
  sessions: WireSession[];
}

/** The structured error of a failed envelope. */
export interface WireError {
  code: string;
  message: string;
  reason?: string;
  /** Structured detail; `details.reason` refines a conflict (e.g. `read-only-file`). */
  details?: { reason?: unknown } & Record<string, unknown>;
}

/** The `lsp.actions.run` envelope. */
export interface WireEnvelope<T = Record<string, unknown>> {
  requestId: string;
  action: string;
  status: 'succeeded' | 'failed';
  result?: T;
  error?: WireError;
  /** Not on the wire: the extension notes which backend process (epoch) answered. */
  epoch?: number;
}

/** A write action's result: the files it changed (relative to the workspace root or absolute). */
export interface WireWriteResult {
  kind: string;
  filePath: string;
  diffs?: { filePath: string }[];
  files?: { filePath: string }[];
  reason?: string;
}

/** `lsp.event` params: the kind plus its flat payload. */
export type WireEvent = { kind: string } & Record<string, unknown>;
