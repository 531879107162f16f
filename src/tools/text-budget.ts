/**
 * Character budgets for model-facing text. Every bound is applied to the complete result,
 * omission notices included, and never splits a UTF-16 surrogate pair. Lengths are counted in
 * UTF-16 code units (JavaScript string length), the unit `maxResultChars` is documented in.
 */

/** Marks text cut inside a line or block. */
export const ELLIPSIS = '…';

/**
 * @param text any text
 * @param max largest length allowed
 * @returns the longest prefix of at most `max` code units that does not end inside a surrogate pair
 */
export function safePrefix(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const code = text.charCodeAt(max - 1);
  const cut = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return text.slice(0, cut);
}

/**
 * Cuts text to `max` code units, ending with `notice` (or an ellipsis) when anything was cut.
 * @param text the complete text
 * @param max largest length of the result
 * @param notice what to append when cut; receives the number of code units left out
 * @returns text of at most `max` code units
 */
export function cutText(text: string, max: number, notice?: (omitted: number) => string): string {
  if (text.length <= max) return text;
  let tail = ELLIPSIS;
  let keep = safePrefix(text, Math.max(0, max - tail.length));
  if (notice) {
    // The notice's own length changes the count it reports; settle in two passes.
    for (let pass = 0; pass < 2; pass++) {
      tail = notice(text.length - keep.length);
      keep = safePrefix(text, Math.max(0, max - tail.length));
    }
  }
  if (tail.length > max) return safePrefix(tail, max);
  return keep + tail;
}

/**
 * Flattens one item's text to a single line, so a list stays one item per line.
 * @param text possibly multi-line text
 * @param max largest length of the result
 * @returns the text with line breaks shown as ` ⏎ `, cut with an ellipsis beyond `max`
 */
export function oneLine(text: string, max: number): string {
  return cutText(text.replace(/\r\n|\r|\n/g, ' ⏎ ').trimEnd(), max);
}

/** A list rendered within a budget. */
export interface BoundedList {
  /** Lines always shown first (a summary). */
  head: readonly string[];
  /** One line per item, in order of importance; as many as fit are shown. */
  items: readonly string[];
  /** How many `noun`s each item stands for (default 1 each; 0 for a heading line). */
  counts?: readonly number[];
  /** Items a count cap already left out before rendering (added to the notice). */
  alreadyOmitted: number;
  /** Plural noun for the notice, e.g. `diagnostics`. */
  noun: string;
  /** Lines always shown last (hints). */
  tail?: readonly string[];
}

/**
 * @param omitted items not shown
 * @param noun plural noun
 * @returns the notice line, e.g. `… 37 more diagnostics not shown`
 */
export function omissionNotice(omitted: number, noun: string): string {
  return `${ELLIPSIS} ${omitted} more ${noun} not shown`;
}

/**
 * Renders head, as many items as fit, the omission notice and the tail within `maxChars`.
 * Items are kept whole; when even the head does not fit, the whole text is cut.
 * @param list what to render
 * @param maxChars largest length of the result
 * @returns the text and how many items were shown
 */
export function renderBoundedList(list: BoundedList, maxChars: number): { text: string; shown: number } {
  const head = list.head.join('\n');
  const tail = (list.tail ?? []).join('\n');
  const weight = (i: number): number => list.counts?.[i] ?? 1;
  const compose = (shown: number): string => {
    let omitted = list.alreadyOmitted;
    for (let i = shown; i < list.items.length; i++) omitted += weight(i);
    const parts = head === '' ? [] : [head];
    parts.push(...list.items.slice(0, shown));
    if (omitted > 0) parts.push(omissionNotice(omitted, list.noun));
    else if (shown < list.items.length) parts.push(omissionNotice(list.items.length - shown, 'lines'));
    if (tail !== '') parts.push(tail);
    return parts.join('\n');
  };
  const full = compose(list.items.length);
  if (full.length <= maxChars) return { text: full, shown: list.items.length };
  // Largest prefix of items that fits: lengths only grow with `shown`, so search linearly from
  // the running total rather than recomposing each candidate.
  const fixed = compose(0).length;
  let used = fixed;
  let shown = 0;
  for (const item of list.items) {
    // +1 for the line break before the item; the notice usually only shrinks (checked below).
    if (used + item.length + 1 > maxChars) break;
    used += item.length + 1;
    shown++;
  }
  while (shown > 0 && compose(shown).length > maxChars) shown--;
  // A shorter notice (fewer digits, or lines instead of the noun) may leave room for more.
  while (shown < list.items.length && compose(shown + 1).length <= maxChars) shown++;
  const text = compose(shown);
  return { text: cutText(text, maxChars), shown };
}
