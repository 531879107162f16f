/**
 * The smallest single-range change that turns one text into another, for incremental
 * `didChange` (`TextDocumentSyncKind.Incremental`). Boundaries never split a surrogate pair
 * or a `\r\n` of the old text, so the range is a valid LSP range in every encoding.
 */
import type { Range } from '../lsp/engine-types.ts';
import { TextLines } from './position-encoding.ts';

/** One incremental content change in UTF-16 positions of the OLD text. */
export interface ContentChange {
  range: Range;
  text: string;
}

/**
 * @param text a string
 * @param index a boundary (between `index - 1` and `index`)
 * @returns whether cutting there would split a surrogate pair or a CRLF
 */
function splits(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  const pair = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
  const crlf = before === 13 && after === 10;
  return pair || crlf;
}

/**
 * @param oldText what the server has
 * @param newText what it should have
 * @returns the replacement (range in `oldText`, UTF-16), or `undefined` when the texts are equal
 */
export function computeContentChange(oldText: string, newText: string): ContentChange | undefined {
  if (oldText === newText) return undefined;
  const max = Math.min(oldText.length, newText.length);
  let start = 0;
  while (start < max && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  let endOld = oldText.length;
  let endNew = newText.length;
  while (endOld > start && endNew > start && oldText.charCodeAt(endOld - 1) === newText.charCodeAt(endNew - 1)) {
    endOld--;
    endNew--;
  }
  while (start > 0 && (splits(oldText, start) || splits(newText, start))) start--;
  while (endOld < oldText.length && (splits(oldText, endOld) || splits(newText, endNew))) {
    endOld++;
    endNew++;
  }
  const lines = new TextLines(oldText);
  return {
    range: { start: lines.positionAt(start), end: lines.positionAt(endOld) },
    text: newText.slice(start, endNew),
  };
}

/**
 * Applies a change computed by {@link computeContentChange} (used by tests and by the
 * store's self-check).
 * @param text the old text
 * @param change the change
 * @returns the new text
 */
export function applyContentChange(text: string, change: ContentChange): string {
  const lines = new TextLines(text);
  return text.slice(0, lines.offsetAt(change.range.start)) + change.text + text.slice(lines.offsetAt(change.range.end));
}
