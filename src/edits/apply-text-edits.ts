/**
 * Applies LSP `TextEdit`s (zero-based UTF-16 positions) to a string, the way the LSP spec
 * says a client must:
 *
 * - every edit's range refers to the ORIGINAL text (edits do not see each other's effects);
 * - a line past the last line means the end of the document; a character past the line's
 *   length means the end of that line, and a line ends BEFORE its terminator (`\r\n`, `\n`,
 *   or a lone `\r`, the three terminators the spec names);
 * - ranges must not overlap; several inserts at one position keep their array order, and
 *   inserts may precede one replace starting at the same position;
 * - `newText` is inserted verbatim and untouched text is kept byte for byte (CRLF stays CRLF).
 *
 * Position math (line offsets, clamping, the before-EOL rule) is
 * `vscode-languageserver-textdocument`'s `offsetAt`; ordering, overlap reporting and
 * surrogate checks are ours so that errors name the file and both ranges.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ActionError } from '../errors.ts';
import type { Position, Range, TextEdit } from '../lsp/engine-types.ts';

/** One edit resolved to offsets of the text it applies to. */
interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
  /** Index in the caller's array: the tie-breaker for edits starting at the same offset. */
  index: number;
  range: Range;
}

/**
 * @param text the document text the edits were computed against
 * @param edits edits in LSP order (positions refer to `text`)
 * @param path the file, named in errors
 * @returns the text with every edit applied
 * @throws ActionError `LSP_ACTION_CONFLICT` when two edits overlap (naming both ranges);
 *   `LSP_ACTION_MALFORMED_RESPONSE` for a non-integer position, a non-string `newText`, or a
 *   position inside a UTF-16 surrogate pair
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[], path: string): string {
  if (edits.length === 0) return text;
  const document = TextDocument.create('untitled:edit', 'plaintext', 0, text);
  const resolved = edits.map((edit, index) => resolveEdit(document, text, edit, index, path));
  // Array.prototype.sort is stable: same-start edits keep their array order.
  resolved.sort((a, b) => a.start - b.start || a.index - b.index);

  const parts: string[] = [];
  let cursor = 0;
  let previous: OffsetEdit | undefined;
  for (const edit of resolved) {
    if (previous !== undefined && edit.start < previous.end) {
      throw overlapError(path, previous.range, edit.range);
    }
    parts.push(text.slice(cursor, edit.start), edit.newText);
    cursor = edit.end;
    previous = edit;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

/**
 * @param range a zero-based range
 * @returns `line:character-line:character`, zero-based, for messages
 */
export function formatRange(range: Range): string {
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
}

function resolveEdit(document: TextDocument, text: string, edit: TextEdit, index: number, path: string): OffsetEdit {
  if (typeof edit.newText !== 'string') {
    throw new ActionError('LSP_ACTION_MALFORMED_RESPONSE', `edit #${index} for ${path} has no newText string`, {
      paths: [path],
    });
  }
  const a = offsetOf(document, text, edit.range.start, path);
  const b = offsetOf(document, text, edit.range.end, path);
  // A reversed range is read as its well-formed counterpart, as the reference library does.
  return { start: Math.min(a, b), end: Math.max(a, b), newText: edit.newText, index, range: edit.range };
}

function offsetOf(document: TextDocument, text: string, position: Position, path: string): number {
  if (!Number.isSafeInteger(position.line) || !Number.isSafeInteger(position.character)) {
    throw new ActionError(
      'LSP_ACTION_MALFORMED_RESPONSE',
      `edit position ${JSON.stringify(position)} for ${path} is not a pair of integers`,
      { paths: [path] },
    );
  }
  const offset = document.offsetAt(position);
  if (splitsSurrogatePair(text, offset)) {
    throw new ActionError(
      'LSP_ACTION_MALFORMED_RESPONSE',
      `edit position ${position.line}:${position.character} for ${path} falls inside a UTF-16 surrogate pair; ` +
        'applying it would corrupt the character there',
      { paths: [path] },
    );
  }
  return offset;
}

function splitsSurrogatePair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

function overlapError(path: string, first: Range, second: Range): ActionError {
  return new ActionError(
    'LSP_ACTION_CONFLICT',
    `the language server sent overlapping edits for ${path}: ${formatRange(first)} and ${formatRange(second)} ` +
      '(zero-based line:character); nothing was written. Re-run the action; if it repeats, the server is at fault.',
    { paths: [path], reason: 'overlapping-edits', ranges: [first, second] },
  );
}
