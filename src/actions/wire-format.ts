/**
 * Engine results in wire form, and count caps. Diagnostics carry the LSP severity number
 * (1 error … 4 hint), `source`/`code` only when the server sent them, plus the additive
 * `serverId`. Every capped list reports `truncated` and `total`; the cap is the request's
 * `maxItems` when given, else config `maxItems`.
 */
import type { Config } from '../config.ts';
import type { DiagnosticSeverity, EngineDiagnostic, FileLocation, ServerDiagnostics, SymbolNode } from '../lsp/engine-types.ts';
import type { WireDiagnostic, WireLocation, WireServerStatus, WireSeverity, WireSymbol } from './action-results.ts';
import { wirePath } from './file-target.ts';

/** A capped list. */
export interface CappedList<T> {
  items: T[];
  truncated: boolean;
  total: number;
}

/**
 * @param items the full list, already in result order
 * @param max the cap (≥ 1)
 * @returns the first `max` items, with `truncated` and `total`
 */
export function capItems<T>(items: readonly T[], max: number): CappedList<T> {
  const total = items.length;
  return { items: items.slice(0, Math.max(0, max)), truncated: total > max, total };
}

/**
 * @param maxItems the request's `maxItems`, if any
 * @param config plugin config
 * @returns the cap to apply
 */
export function itemLimit(maxItems: number | undefined, config: Pick<Config, 'maxItems'>): number {
  return maxItems ?? config.maxItems;
}

const SEVERITY_NUMBER: Record<DiagnosticSeverity, WireSeverity> = { error: 1, warning: 2, information: 3, hint: 4 };

/**
 * @param severity the engine's severity name
 * @returns the LSP number
 */
export function severityNumber(severity: DiagnosticSeverity): WireSeverity {
  return SEVERITY_NUMBER[severity] ?? 1;
}

/**
 * @param diagnostic an engine diagnostic
 * @returns the wire item
 */
export function toWireDiagnostic(diagnostic: EngineDiagnostic): WireDiagnostic {
  const item: WireDiagnostic = {
    severity: severityNumber(diagnostic.severity),
    range: diagnostic.range,
    message: diagnostic.message,
    serverId: diagnostic.serverId,
  };
  if (diagnostic.source !== undefined) item.source = diagnostic.source;
  if (diagnostic.code !== undefined) item.code = diagnostic.code;
  if (diagnostic.tags !== undefined && diagnostic.tags.length > 0) item.tags = diagnostic.tags;
  if (diagnostic.relatedInformation !== undefined && diagnostic.relatedInformation.length > 0) {
    item.relatedInformation = diagnostic.relatedInformation.map((info) => ({
      filePath: info.location.path,
      range: info.location.range,
      message: info.message,
    }));
  }
  return item;
}

/**
 * @param server one server's diagnostics report
 * @returns its wire status (no diagnostics)
 */
export function toWireServerStatus(server: ServerDiagnostics): WireServerStatus {
  const status: WireServerStatus = { serverId: server.serverId, mode: server.mode, state: server.state };
  if (server.error) status.error = { code: server.error.code, message: server.error.message };
  return status;
}

/**
 * @param root absolute workspace root
 * @param location an engine location
 * @returns the wire location (workspace-relative path inside the root)
 */
export function toWireLocation(root: string, location: FileLocation): WireLocation {
  return { filePath: wirePath(root, location.path), range: location.range };
}

/**
 * @param root absolute workspace root
 * @param symbol an engine symbol
 * @param withChildren keep the outline's children (document symbols)
 * @returns the wire symbol
 */
export function toWireSymbol(root: string, symbol: SymbolNode, withChildren: boolean): WireSymbol {
  const out: WireSymbol = {
    name: symbol.name,
    kind: symbol.kind,
    filePath: wirePath(root, symbol.location.path),
    range: symbol.location.range,
    selectionRange: symbol.selectionRange,
  };
  if (symbol.detail !== undefined && symbol.detail !== '') out.detail = symbol.detail;
  if (symbol.containerName !== undefined && symbol.containerName !== '') out.containerName = symbol.containerName;
  if (withChildren) out.children = symbol.children.map((child) => toWireSymbol(root, child, true));
  return out;
}

/**
 * Caps an outline in pre-order: the first `max` symbols (parents before children) are kept.
 * @param symbols the outline
 * @param max the cap
 * @returns the capped tree; `total` counts every node
 */
export function capSymbolTree(symbols: readonly WireSymbol[], max: number): CappedList<WireSymbol> {
  let total = 0;
  const count = (nodes: readonly WireSymbol[]): void => {
    for (const node of nodes) {
      total++;
      count(node.children ?? []);
    }
  };
  count(symbols);
  let budget = max;
  const take = (nodes: readonly WireSymbol[]): WireSymbol[] => {
    const kept: WireSymbol[] = [];
    for (const node of nodes) {
      if (budget <= 0) break;
      budget--;
      kept.push({ ...node, children: take(node.children ?? []) });
    }
    return kept;
  };
  return { items: take(symbols), truncated: total > max, total };
}
