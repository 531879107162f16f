/**
 * Position mappers for normalisers: server encoding → UTF-16, per document, with each
 * document's line index built once per mapper.
 */
import type { Position } from '../lsp/engine-types.ts';
import { identityMapper, type PositionMapper } from '../lsp/normalize-common.ts';
import { TextLines, positionToUtf16, type PositionEncodingKind } from './position-encoding.ts';

/**
 * @param encoding the server's negotiated encoding
 * @param textOf the text the server's positions refer to, per path (`undefined` when unknown:
 *   positions then pass through, which is exact for ASCII lines)
 * @returns a mapper for normalisers
 */
export function createPositionMapper(encoding: PositionEncodingKind, textOf: (path: string) => string | undefined): PositionMapper {
  if (encoding === 'utf-16') return identityMapper;
  const cache = new Map<string, TextLines | null>();
  return {
    toUtf16(path: string, position: Position): Position {
      let lines = cache.get(path);
      if (lines === undefined) {
        const text = textOf(path);
        lines = text === undefined ? null : new TextLines(text);
        cache.set(path, lines);
      }
      return lines === null ? position : positionToUtf16(lines, position, encoding);
    },
  };
}
