/**
 * tsserver's positions at the end of a text that ends in a line break.
 *
 * For a file it has open, tsserver converts offsets to `{line, offset}` through its own line
 * index (`ScriptVersionCache`), which has no entry for the empty line after a final line break:
 * the end of `"foo(\n"` comes back as line 1, offset 6 — the last line's length *including* its
 * break, plus one — where the compiler (`tsc`, and tsserver itself for a file it has not opened)
 * says line 2, offset 1. typescript-language-server passes that through unchanged, so a syntax
 * error at the end of such a file (`')' expected` after an unclosed call), or a quick fix that
 * appends to it, arrives one line early and past the line's end, where LSP's rule (a column
 * past the line end means the line end) would put it *before* the final line break.
 *
 * Measured with TypeScript 5.9.3's tsserver: `syntacticDiagnosticsSync` on an open
 * `"export const a = 1;\nfoo(\n"` answers `{line: 2, offset: 6}`; `getCodeFixes` for
 * "Add missing function declaration" answers its end-of-file insertion the same way.
 *
 * The fix reads such a column as what tsserver meant — an offset from the line's start that runs
 * through the line break — and only when it reaches past the break (a column the compiler can
 * never mean on that line), so every other position is untouched.
 */
import type { Position } from '../lsp/engine-types.ts';
import type { PositionMapper } from '../lsp/normalize-common.ts';
import { cachedLines, type TextLines } from './position-encoding.ts';

/**
 * @param lines the text tsserver has for the document
 * @param position a zero-based UTF-16 position as tsserver gave it (through the LSP server)
 * @returns the position tsserver meant: a column reaching past its line's break counts on into
 *   the following line(s); any other position unchanged
 */
export function tsserverEndOfText(lines: TextLines, position: Position): Position {
  if (position.line + 1 >= lines.lineCount) return position;
  const start = lines.offsetAt({ line: position.line, character: 0 });
  const next = lines.offsetAt({ line: position.line + 1, character: 0 });
  if (start + position.character < next) return position;
  return lines.positionAt(start + position.character);
}

/**
 * @param inner the mapper for the server's encoding (applied after)
 * @param textOf the server's text of a document, when we know it (the documents we opened on
 *   it: the only ones tsserver converts through its line index)
 * @returns a mapper that applies {@link tsserverEndOfText} first
 */
export function tsserverEndOfTextMapper(inner: PositionMapper, textOf: (path: string) => string | undefined): PositionMapper {
  const linesOf = cachedLines(textOf);
  return {
    toUtf16(path: string, position: Position): Position {
      const lines = linesOf(path);
      return inner.toUtf16(path, lines === undefined ? position : tsserverEndOfText(lines, position));
    },
  };
}
