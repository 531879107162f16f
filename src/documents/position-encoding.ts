/**
 * Position encodings (LSP 3.17 `PositionEncodingKind`): the engine speaks zero-based UTF-16
 * positions; a server may negotiate `utf-8` or `utf-32` columns instead. Conversion is per line
 * and needs the line's text, so it goes through a {@link TextLines} view of the document
 * (`vscode-languageserver-textdocument` does the UTF-16 offset math, including CRLF).
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, Range } from '../lsp/engine-types.ts';

/** The three encodings LSP 3.17 defines. */
export type PositionEncodingKind = 'utf-8' | 'utf-16' | 'utf-32';

/** Every encoding we can convert, in the order we offer them in `initialize`. */
export const SUPPORTED_POSITION_ENCODINGS: readonly PositionEncodingKind[] = ['utf-8', 'utf-16', 'utf-32'];

/**
 * @param value what a server put in `capabilities.positionEncoding`
 * @returns the encoding to use with that server (`utf-16` when absent or unknown, as LSP says)
 */
export function negotiatedEncoding(value: unknown): PositionEncodingKind {
  return value === 'utf-8' || value === 'utf-32' ? value : 'utf-16';
}

/**
 * @param codePoint a Unicode code point (a lone surrogate counts as its 3-byte replacement)
 * @returns its length in UTF-8 bytes
 */
function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * Converts a UTF-16 column of one line to `to` units. A column past the line end is clamped
 * to the line length; a column inside a surrogate pair rounds down to the pair's start.
 * @param line the line's text, without its line break
 * @param character UTF-16 code-unit column
 * @param to target encoding
 * @returns the column in `to` units
 */
export function columnFromUtf16(line: string, character: number, to: PositionEncodingKind): number {
  if (to === 'utf-16') return Math.max(0, Math.min(character, line.length));
  let units = 0;
  let column = 0;
  for (const char of line) {
    if (units + char.length > character) break;
    units += char.length;
    column += to === 'utf-32' ? 1 : utf8Length(char.codePointAt(0) ?? 0);
  }
  return column;
}

/**
 * Converts a column in `from` units of one line to UTF-16 code units. Past the line end it
 * clamps; a column inside a multi-byte character rounds down to that character's start.
 * @param line the line's text, without its line break
 * @param column column in `from` units
 * @param from source encoding
 * @returns the UTF-16 column
 */
export function columnToUtf16(line: string, column: number, from: PositionEncodingKind): number {
  if (from === 'utf-16') return Math.max(0, Math.min(column, line.length));
  let units = 0;
  let seen = 0;
  for (const char of line) {
    const width = from === 'utf-32' ? 1 : utf8Length(char.codePointAt(0) ?? 0);
    if (seen + width > column) break;
    seen += width;
    units += char.length;
  }
  return units;
}

/** Line access over one text, for column conversion. */
export class TextLines {
  private readonly doc: TextDocument;

  /** @param text the whole document text (any mix of `\n`, `\r\n`, `\r`) */
  constructor(text: string) {
    this.doc = TextDocument.create('untitled:lines', 'plaintext', 0, text);
  }

  /** @returns how many lines the text has (at least 1) */
  get lineCount(): number {
    return this.doc.lineCount;
  }

  /**
   * @param line zero-based line (clamped to the text)
   * @returns that line's text without its line break; `''` past the end
   */
  lineText(line: number): string {
    if (line < 0 || line >= this.doc.lineCount) return '';
    const start = this.doc.offsetAt({ line, character: 0 });
    const end = this.doc.offsetAt({ line, character: Number.MAX_SAFE_INTEGER });
    return this.doc.getText().slice(start, end);
  }

  /**
   * @param offset UTF-16 offset into the text
   * @returns its position (UTF-16)
   */
  positionAt(offset: number): Position {
    return this.doc.positionAt(offset);
  }

  /**
   * @param position UTF-16 position (clamped to the text)
   * @returns its UTF-16 offset
   */
  offsetAt(position: Position): number {
    return this.doc.offsetAt(position);
  }
}

/**
 * @param lines the document the position is in
 * @param position engine (UTF-16) position
 * @param to the server's encoding
 * @returns the position in the server's encoding
 */
export function positionFromUtf16(lines: TextLines, position: Position, to: PositionEncodingKind): Position {
  if (to === 'utf-16') return { line: position.line, character: position.character };
  return { line: position.line, character: columnFromUtf16(lines.lineText(position.line), position.character, to) };
}

/**
 * @param lines the document the position is in
 * @param position position in the server's encoding
 * @param from the server's encoding
 * @returns the engine (UTF-16) position
 */
export function positionToUtf16(lines: TextLines, position: Position, from: PositionEncodingKind): Position {
  if (from === 'utf-16') return { line: position.line, character: position.character };
  return { line: position.line, character: columnToUtf16(lines.lineText(position.line), position.character, from) };
}

/**
 * @param lines the document the range is in
 * @param range engine (UTF-16) range
 * @param to the server's encoding
 * @returns the range in the server's encoding
 */
export function rangeFromUtf16(lines: TextLines, range: Range, to: PositionEncodingKind): Range {
  return { start: positionFromUtf16(lines, range.start, to), end: positionFromUtf16(lines, range.end, to) };
}

/**
 * @param textOf a document's text, when known
 * @returns the documents' {@link TextLines}, each built once (undefined when the text is not known)
 */
export function cachedLines(textOf: (path: string) => string | undefined): (path: string) => TextLines | undefined {
  const cache = new Map<string, TextLines | null>();
  return (path) => {
    let lines = cache.get(path);
    if (lines === undefined) {
      const text = textOf(path);
      lines = text === undefined ? null : new TextLines(text);
      cache.set(path, lines);
    }
    return lines ?? undefined;
  };
}
