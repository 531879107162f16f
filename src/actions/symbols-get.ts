/**
 * `symbols.get` (additive, read-only): a file's outline (a tree; the cap keeps the first
 * `maxItems` symbols in pre-order), or, when `query` is given, a workspace symbol search (flat;
 * `filePath`, if given, picks which servers to ask and is opened first — some servers index only
 * once a file is open).
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams, invalid } from './action-params.ts';
import type { SymbolsGetParams, SymbolsGetResult } from './action-results.ts';
import { resolveFileTarget } from './file-target.ts';
import { capItems, capSymbolTree, itemLimit, toWireSymbol } from './wire-format.ts';

/**
 * @param raw wire params
 * @returns validated `symbols.get` params
 */
export function parseSymbolsGetParams(raw: unknown): SymbolsGetParams {
  const p = new ActionParams(raw);
  const params: SymbolsGetParams = { workspaceRoot: p.workspaceRoot() };
  const query = p.string('query');
  const filePath = p.string('filePath');
  if (query === undefined && filePath === undefined) {
    throw invalid('params.filePath is required for a file outline (or give params.query for a workspace symbol search)');
  }
  if (filePath !== undefined) params.filePath = p.filePath();
  const text = p.text();
  const maxItems = p.positiveInt('maxItems');
  if (query !== undefined) params.query = query;
  if (text !== undefined) params.text = text;
  if (maxItems !== undefined) params.maxItems = maxItems;
  return params;
}

/** `symbols.get`: `{ workspaceRoot, filePath?, query?, text?, maxItems? }`. */
export const symbolsGetAction: ActionDefinition<SymbolsGetParams, SymbolsGetResult> = {
  id: 'symbols.get',
  writes: false,
  description: "A file's symbol outline, or a workspace symbol search when a query is given (read-only).",
  parse: parseSymbolsGetParams,
  async run(params, services, invocation) {
    const { engine } = services;
    const { root, signal } = invocation;
    const limit = itemLimit(params.maxItems, services.config);
    const file = params.filePath === undefined ? undefined : resolveFileTarget(root, params.filePath, params.text);
    if (params.query !== undefined) {
      const found = await engine.workspaceSymbols(root, params.query, { signal, ...(file ? { anchorPath: file.path } : {}) });
      const capped = capItems(found.map((symbol) => toWireSymbol(root, symbol, false)), limit);
      const result: SymbolsGetResult = {
        kind: 'symbols',
        scope: 'workspace',
        query: params.query,
        symbols: capped.items,
        truncated: capped.truncated,
        total: capped.total,
      };
      if (file) result.filePath = file.filePath;
      return result;
    }
    if (!file) throw invalid('params.filePath is required for a file outline');
    const { symbols } = await engine.documentSymbols(file.target, { signal });
    const capped = capSymbolTree(symbols.map((symbol) => toWireSymbol(root, symbol, true)), limit);
    return {
      kind: 'symbols',
      scope: 'document',
      filePath: file.filePath,
      symbols: capped.items,
      truncated: capped.truncated,
      total: capped.total,
    };
  },
};
