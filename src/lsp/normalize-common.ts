/**
 * Shared pieces of the (pure) normalisers: shape checks that fail with
 * `LSP_ACTION_MALFORMED_RESPONSE`, URI → path, and position mapping from the server's
 * encoding to UTF-16 through a {@link PositionMapper}.
 */
import { URI } from 'vscode-uri';
import { ActionError } from '../errors.ts';
import type { FileLocation, Position, Range } from './engine-types.ts';

/** Maps a position of the server's encoding in `path` to UTF-16. */
export interface PositionMapper {
  /**
   * @param path absolute path of the document the position is in
   * @param position position in the server's encoding
   * @returns the UTF-16 position
   */
  toUtf16(path: string, position: Position): Position;
}

/** For UTF-16 servers: positions pass through. */
export const identityMapper: PositionMapper = { toUtf16: (_path, position) => position };

/** Passes positions through and remembers which documents they were in (first pass). */
export class RecordingMapper implements PositionMapper {
  /** Paths seen. */
  readonly paths = new Set<string>();
  toUtf16(path: string, position: Position): Position {
    this.paths.add(path);
    return position;
  }
}

/** What every normaliser is told. */
export interface NormalizeContext {
  serverId: string;
  mapper: PositionMapper;
}

/**
 * @param ctx the normaliser context
 * @param what which part of which answer was wrong
 * @returns the error to throw
 */
export function malformed(ctx: Pick<NormalizeContext, 'serverId'>, what: string): ActionError {
  return new ActionError('LSP_ACTION_MALFORMED_RESPONSE', `${ctx.serverId} sent a malformed answer: ${what}`, { serverId: ctx.serverId });
}

/**
 * @param value anything
 * @returns whether it is a non-null, non-array object
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @param value anything
 * @returns the string, or `undefined` when it is not one
 */
export function optString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * @param value anything
 * @returns the number, or `undefined` when it is not a finite one
 */
export function optNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * @param uri a `file:` URI (other schemes have no path)
 * @returns the absolute path, or `undefined` for non-file or unparsable URIs
 */
export function uriToPath(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  try {
    const parsed = URI.parse(uri, true);
    return parsed.scheme === 'file' ? parsed.fsPath : undefined;
  } catch {
    // URIError from vscode-uri: not a URI at all
    return undefined;
  }
}

/**
 * @param ctx normaliser context
 * @param uri a URI the answer must carry
 * @param what where it was
 * @returns its path
 * @throws ActionError MALFORMED_RESPONSE when it is not a `file:` URI
 */
export function requirePath(ctx: NormalizeContext, uri: unknown, what: string): string {
  const path = uriToPath(uri);
  if (path === undefined) throw malformed(ctx, `${what} is not a file URI (${JSON.stringify(uri)?.slice(0, 120)})`);
  return path;
}

/**
 * @param ctx normaliser context
 * @param raw a Position as sent
 * @param path the document it is in
 * @param what where it was
 * @returns the UTF-16 position
 */
export function readPosition(ctx: NormalizeContext, raw: unknown, path: string, what: string): Position {
  if (!isObject(raw) || !isIndex(raw.line) || !isIndex(raw.character)) {
    throw malformed(ctx, `${what} is not a Position (${JSON.stringify(raw)?.slice(0, 120)})`);
  }
  return ctx.mapper.toUtf16(path, { line: raw.line, character: raw.character });
}

/**
 * @param ctx normaliser context
 * @param raw a Range as sent
 * @param path the document it is in
 * @param what where it was
 * @returns the UTF-16 range
 */
export function readRange(ctx: NormalizeContext, raw: unknown, path: string, what: string): Range {
  if (!isObject(raw)) throw malformed(ctx, `${what} is not a Range`);
  return { start: readPosition(ctx, raw.start, path, `${what}.start`), end: readPosition(ctx, raw.end, path, `${what}.end`) };
}

/**
 * @param ctx normaliser context
 * @param raw an LSP Location
 * @param what where it was
 * @returns the location, or `undefined` when it is not in a file (e.g. a virtual document)
 */
export function readLocation(ctx: NormalizeContext, raw: unknown, what: string): FileLocation | undefined {
  if (!isObject(raw)) throw malformed(ctx, `${what} is not a Location`);
  const path = uriToPath(raw.uri);
  if (path === undefined) {
    if (typeof raw.uri !== 'string') throw malformed(ctx, `${what}.uri is missing`);
    return undefined;
  }
  return { path, range: readRange(ctx, raw.range, path, `${what}.range`) };
}

/**
 * @param value anything
 * @returns whether it is a non-negative integer (a valid line or column)
 */
function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * @param ctx normaliser context
 * @param raw an answer that must be an array (or null)
 * @param what which answer
 * @returns the array (`[]` for null/undefined)
 */
export function readArray(ctx: NormalizeContext, raw: unknown, what: string): unknown[] {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw malformed(ctx, `${what} is not an array`);
  return raw;
}
