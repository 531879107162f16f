/**
 * Symbols: hierarchical `DocumentSymbol[]`, flat `SymbolInformation[]` and 3.17
 * `WorkspaceSymbol[]` (whose location may lack a range) → {@link SymbolNode} trees.
 */
import type { SymbolNode } from './engine-types.ts';
import { isObject, malformed, optString, readArray, readRange, uriToPath, type NormalizeContext } from './normalize-common.ts';

const ZERO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function documentSymbol(ctx: NormalizeContext, raw: Record<string, unknown>, path: string, what: string): SymbolNode {
  if (typeof raw.name !== 'string' || typeof raw.kind !== 'number') throw malformed(ctx, `${what} has no name/kind`);
  const range = readRange(ctx, raw.range, path, `${what}.range`);
  const node: SymbolNode = {
    name: raw.name,
    kind: raw.kind,
    location: { path, range },
    selectionRange: raw.selectionRange === undefined ? range : readRange(ctx, raw.selectionRange, path, `${what}.selectionRange`),
    children: (Array.isArray(raw.children) ? raw.children : []).map((child, i) => {
      if (!isObject(child)) throw malformed(ctx, `${what}.children[${i}] is not a DocumentSymbol`);
      return documentSymbol(ctx, child, path, `${what}.children[${i}]`);
    }),
  };
  const detail = optString(raw.detail);
  if (detail !== undefined && detail !== '') node.detail = detail;
  return node;
}

function symbolInformation(ctx: NormalizeContext, raw: Record<string, unknown>, what: string): SymbolNode | undefined {
  if (typeof raw.name !== 'string' || typeof raw.kind !== 'number') throw malformed(ctx, `${what} has no name/kind`);
  if (!isObject(raw.location)) throw malformed(ctx, `${what}.location is missing`);
  const path = uriToPath(raw.location.uri);
  if (path === undefined) return undefined;
  const range = raw.location.range === undefined ? ZERO_RANGE : readRange(ctx, raw.location.range, path, `${what}.location.range`);
  const node: SymbolNode = { name: raw.name, kind: raw.kind, location: { path, range }, selectionRange: range, children: [] };
  const container = optString(raw.containerName);
  if (container !== undefined && container !== '') node.containerName = container;
  return node;
}

/**
 * @param ctx normaliser context
 * @param raw the `textDocument/documentSymbol` answer
 * @param path the document
 * @returns symbol trees (flat answers become leaf nodes)
 */
export function normalizeDocumentSymbols(ctx: NormalizeContext, raw: unknown, path: string): SymbolNode[] {
  return normalizeSymbolList(ctx, raw, path, 'documentSymbol');
}

/**
 * @param ctx normaliser context
 * @param raw the `workspace/symbol` answer
 * @returns symbols (non-file locations skipped)
 */
export function normalizeWorkspaceSymbols(ctx: NormalizeContext, raw: unknown): SymbolNode[] {
  return normalizeSymbolList(ctx, raw, undefined, 'workspaceSymbol');
}

function normalizeSymbolList(ctx: NormalizeContext, raw: unknown, path: string | undefined, what: string): SymbolNode[] {
  const out: SymbolNode[] = [];
  readArray(ctx, raw, `${what} result`).forEach((item, i) => {
    if (!isObject(item)) throw malformed(ctx, `${what}[${i}] is not a symbol`);
    if ('location' in item) {
      const node = symbolInformation(ctx, item, `${what}[${i}]`);
      if (node !== undefined) out.push(node);
    } else {
      if (path === undefined) throw malformed(ctx, `${what}[${i}] has no location`);
      out.push(documentSymbol(ctx, item, path, `${what}[${i}]`));
    }
  });
  return out;
}
