/**
 * `completion.get` (v1, read-only): completion at a zero-based cursor, filtered by the typed
 * prefix and ordered by the server's `sortText` before the cap; the top items are resolved
 * (`completionItem/resolve`) for detail and documentation. Reference-only: the editor inserts.
 */
import { abortError } from '../errors.ts';
import type { CompletionItemInfo } from '../lsp/engine-types.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { CompletionGetParams, CompletionGetResult, WireCompletionItem } from './action-results.ts';
import { filterAndSortCompletions } from './completion-filter.ts';
import { resolveFileTarget } from './file-target.ts';
import { capItems, itemLimit } from './wire-format.ts';

/** How many of the top items are resolved for detail/documentation. */
export const COMPLETION_RESOLVE_TOP = 5;

/**
 * @param raw wire params
 * @returns validated `completion.get` params
 */
export function parseCompletionGetParams(raw: unknown): CompletionGetParams {
  const p = new ActionParams(raw);
  const params: CompletionGetParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath(), position: p.position() };
  const text = p.text();
  const maxItems = p.positiveInt('maxItems');
  if (text !== undefined) params.text = text;
  if (maxItems !== undefined) params.maxItems = maxItems;
  return params;
}

/**
 * @param item a normalised completion item
 * @returns its wire form (absent fields omitted)
 */
export function toWireCompletionItem(item: CompletionItemInfo): WireCompletionItem {
  const out: WireCompletionItem = { label: item.label, serverId: item.serverId };
  if (item.kind !== undefined) out.kind = item.kind;
  if (item.detail !== undefined && item.detail !== '') out.detail = item.detail;
  if (item.insertText !== undefined) out.insertText = item.insertText;
  if (item.sortText !== undefined) out.sortText = item.sortText;
  if (item.textEdit !== undefined) out.textEdit = item.textEdit;
  if (item.documentation !== undefined && item.documentation !== '') out.documentation = item.documentation;
  if (item.filterText !== undefined) out.filterText = item.filterText;
  return out;
}

/** `completion.get`: `{ filePath, workspaceRoot, position, text?, maxItems? }`. */
export const completionGetAction: ActionDefinition<CompletionGetParams, CompletionGetResult> = {
  id: 'completion.get',
  writes: false,
  description: 'Request completion suggestions at a zero-based cursor position, filtered and ranked (read-only).',
  parse: parseCompletionGetParams,
  async run(params, services, invocation) {
    const { engine } = services;
    const { signal } = invocation;
    const { target, path, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const result = await engine.completion(target, params.position, { signal });
    const text = params.text ?? engine.documentText(path)?.text ?? '';
    const ranked = filterAndSortCompletions(result.items, text, params.position);
    const capped = capItems(ranked.items, itemLimit(params.maxItems, services.config));
    const items = await Promise.all(
      capped.items.map(async (item, i) => {
        if (i >= COMPLETION_RESOLVE_TOP || (item.detail && item.documentation)) return item;
        try {
          return await engine.resolveCompletion(target, item, { signal });
        } catch {
          // A failed resolve only loses detail; the item stays (unless the whole call was aborted).
          if (signal.aborted) throw abortError(signal);
          return item;
        }
      }),
    );
    return {
      kind: 'completion',
      filePath,
      position: params.position,
      items: items.map(toWireCompletionItem),
      truncated: capped.truncated,
      total: capped.total,
      isIncomplete: result.isIncomplete,
      prefix: ranked.prefix,
    };
  },
};
