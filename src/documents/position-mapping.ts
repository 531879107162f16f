/**
 * Position mappers for normalisers: server encoding → UTF-16, per document, with each
 * document's line index built once per mapper.
 */
import type { Position } from '../lsp/engine-types.ts';
import { identityMapper, type PositionMapper } from '../lsp/normalize-common.ts';
import { cachedLines, positionToUtf16, type PositionEncodingKind } from './position-encoding.ts';
import { tsserverEndOfTextMapper } from './tsserver-end-of-text.ts';

/** What else a mapper corrects besides the encoding. */
export interface PositionMapperOptions {
  /**
   * The server forwards tsserver's positions (it offers `typescript.tsserverRequest`): read a
   * column past a line's break as tsserver means it (tsserver-end-of-text.ts).
   */
  tsserver?: boolean;
}

/**
 * @param encoding the server's negotiated encoding
 * @param textOf the text the server's positions refer to, per path (`undefined` when unknown:
 *   positions then pass through, which is exact for ASCII lines)
 * @param options corrections for a server's known position quirks
 * @returns a mapper for normalisers
 */
export function createPositionMapper(
  encoding: PositionEncodingKind,
  textOf: (path: string) => string | undefined,
  options: PositionMapperOptions = {},
): PositionMapper {
  const mapper = encoding === 'utf-16' ? identityMapper : encodingMapper(encoding, textOf);
  return options.tsserver === true ? tsserverEndOfTextMapper(mapper, textOf) : mapper;
}

function encodingMapper(encoding: PositionEncodingKind, textOf: (path: string) => string | undefined): PositionMapper {
  const linesOf = cachedLines(textOf);
  return {
    toUtf16(path: string, position: Position): Position {
      const lines = linesOf(path);
      return lines === undefined ? position : positionToUtf16(lines, position, encoding);
    },
  };
}
