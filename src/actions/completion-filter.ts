/**
 * Completion filtering and ordering, done before the cap so the cap keeps the best items:
 * keep the items whose filter text (`filterText`, else `label`) starts with the typed prefix
 * (case-insensitive), then order by the server's `sortText` (falling back to `label`), then
 * `label`, keeping the server's order on ties.
 *
 * The typed prefix is what the item would replace: the text from its `textEdit` range start to
 * the cursor when that lies on the cursor's line, else the identifier characters (letters,
 * digits, `_`, `$`) right before the cursor.
 */
import type { CompletionItemInfo, Position } from '../lsp/engine-types.ts';

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * @param text the document text
 * @param position zero-based UTF-16 cursor
 * @returns the cursor's line up to the cursor (clamped)
 */
export function lineBeforeCursor(text: string, position: Position): string {
  let start = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return '';
    start = next + 1;
  }
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  const lineText = text.slice(start, end).replace(/\r$/, '');
  return lineText.slice(0, Math.min(position.character, lineText.length));
}

/**
 * @param text the document text
 * @param position zero-based UTF-16 cursor
 * @returns the identifier characters right before the cursor
 */
export function typedPrefix(text: string, position: Position): string {
  const before = lineBeforeCursor(text, position);
  let i = before.length;
  while (i > 0) {
    // Step back over a surrogate pair as one character.
    const low = before.charCodeAt(i - 1);
    const width = low >= 0xdc00 && low <= 0xdfff && i >= 2 ? 2 : 1;
    if (!IDENTIFIER_CHAR.test(before.slice(i - width, i))) break;
    i -= width;
  }
  return before.slice(i);
}

/**
 * @param item a completion item
 * @param lineBefore the cursor's line up to the cursor
 * @param position the cursor
 * @param fallback the identifier prefix
 * @returns the prefix this item is filtered against
 */
export function prefixForItem(item: CompletionItemInfo, lineBefore: string, position: Position, fallback: string): string {
  const range = item.textEdit?.range;
  if (range && range.start.line === position.line && range.start.character <= position.character) {
    return lineBefore.slice(Math.min(range.start.character, lineBefore.length));
  }
  return fallback;
}

/**
 * @param items the server's items
 * @param text the document text the server completed
 * @param position the cursor
 * @returns matching items, best first, and the identifier prefix used
 */
export function filterAndSortCompletions(
  items: readonly CompletionItemInfo[],
  text: string,
  position: Position,
): { items: CompletionItemInfo[]; prefix: string } {
  const lineBefore = lineBeforeCursor(text, position);
  const prefix = typedPrefix(text, position);
  const kept = items
    .map((item, order) => ({ item, order }))
    .filter(({ item }) => {
      const want = prefixForItem(item, lineBefore, position, prefix).toLowerCase();
      return want === '' || (item.filterText ?? item.label).toLowerCase().startsWith(want);
    });
  kept.sort((a, b) => {
    const byKey = compare(a.item.sortText ?? a.item.label, b.item.sortText ?? b.item.label);
    if (byKey !== 0) return byKey;
    const byLabel = compare(a.item.label, b.item.label);
    return byLabel !== 0 ? byLabel : a.order - b.order;
  });
  return { items: kept.map(({ item }) => item), prefix };
}

/** Plain code-unit order, as LSP `sortText` comparison is specified (not locale order). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
