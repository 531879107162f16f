/**
 * Completion answers: `CompletionList` (`isIncomplete`, `itemDefaults.editRange`) or a bare
 * `CompletionItem[]` → {@link CompletionResult}. An `InsertReplaceEdit` uses its `insert`
 * range (the LSP default insert mode).
 */
import type { CompletionItemInfo, CompletionResult, TextEdit } from './engine-types.ts';
import { isObject, malformed, optNumber, optString, readArray, readRange, type NormalizeContext } from './normalize-common.ts';
import { flattenMarkup } from './normalize-markup.ts';

function textEdit(ctx: NormalizeContext, raw: unknown, newText: string, path: string, what: string): TextEdit | undefined {
  if (!isObject(raw)) return undefined;
  if ('insert' in raw) return { range: readRange(ctx, raw.insert, path, `${what}.insert`), newText };
  if ('range' in raw) return { range: readRange(ctx, raw.range, path, `${what}.range`), newText };
  if ('start' in raw) return { range: readRange(ctx, raw, path, what), newText };
  return undefined;
}

/**
 * @param ctx normaliser context
 * @param raw one CompletionItem
 * @param path the document
 * @param defaults the list's `itemDefaults`, if any
 * @param what where it was
 * @returns the normalised item
 */
export function normalizeCompletionItem(
  ctx: NormalizeContext,
  raw: unknown,
  path: string,
  defaults: Record<string, unknown> = {},
  what = 'completionItem',
): CompletionItemInfo {
  if (!isObject(raw) || typeof raw.label !== 'string') throw malformed(ctx, `${what} has no label`);
  const item: CompletionItemInfo = { serverId: ctx.serverId, label: raw.label, raw };
  const kind = optNumber(raw.kind);
  if (kind !== undefined) item.kind = kind;
  const detail = optString(raw.detail);
  if (detail !== undefined) item.detail = detail;
  const doc = flattenMarkup(raw.documentation);
  if (doc !== '') item.documentation = doc;
  for (const key of ['sortText', 'filterText', 'insertText'] as const) {
    const value = optString(raw[key]);
    if (value !== undefined) item[key] = value;
  }
  if (isObject(raw.textEdit) && typeof raw.textEdit.newText === 'string') {
    item.textEdit = textEdit(ctx, raw.textEdit, raw.textEdit.newText, path, `${what}.textEdit`);
  } else if (defaults.editRange !== undefined) {
    const newText = optString(raw.textEditText) ?? item.insertText ?? item.label;
    item.textEdit = textEdit(ctx, defaults.editRange, newText, path, 'itemDefaults.editRange');
  }
  if (item.textEdit === undefined) delete item.textEdit;
  return item;
}

/**
 * @param ctx normaliser context
 * @param raw the `textDocument/completion` answer
 * @param path the document
 * @returns items plus `isIncomplete`
 */
export function normalizeCompletion(ctx: NormalizeContext, raw: unknown, path: string): CompletionResult {
  if (raw === null || raw === undefined) return { serverId: ctx.serverId, isIncomplete: false, items: [] };
  if (Array.isArray(raw)) {
    return { serverId: ctx.serverId, isIncomplete: false, items: raw.map((it, i) => normalizeCompletionItem(ctx, it, path, {}, `completion[${i}]`)) };
  }
  if (!isObject(raw)) throw malformed(ctx, 'completion is neither a CompletionList nor an array');
  const defaults = isObject(raw.itemDefaults) ? raw.itemDefaults : {};
  return {
    serverId: ctx.serverId,
    isIncomplete: raw.isIncomplete === true,
    items: readArray(ctx, raw.items, 'completion.items').map((it, i) => normalizeCompletionItem(ctx, it, path, defaults, `completion.items[${i}]`)),
  };
}
