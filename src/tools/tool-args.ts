/**
 * The model-facing argument vocabulary shared by every `lsp_*` tool, and its conversion to the
 * action wire shape: one-based `line`/`character` become zero-based UTF-16 positions, a
 * `file_path` relative to the workspace becomes absolute. Pure; errors are `LSP_ACTION_INVALID_ARGS`
 * with a message that tells the model what to send instead.
 */
import { isAbsolute, resolve } from 'node:path';
import { ActionError } from '../errors.ts';
import type { Position, Range } from '../lsp/engine-types.ts';

/** `file_path`: the one file a tool works on. */
export const FILE_PATH_PARAM = {
  type: 'string',
  required: true,
  description: 'The file, relative to the workspace or absolute.',
} as const;

/** `line` + `character`: a one-based cursor. */
export const POSITION_PARAMS = {
  line: { type: 'integer', required: true, description: 'One-based line number of the cursor.' },
  character: {
    type: 'integer',
    required: true,
    description: 'One-based column of the cursor (1 = first character of the line; UTF-16 units, as editors count).',
  },
} as const;

/** `start_line` … `end_character`: an optional one-based range of whole lines or exact columns. */
export const RANGE_PARAMS = {
  start_line: { type: 'integer', description: 'One-based first line of the range.' },
  start_character: { type: 'integer', description: 'One-based column where the range starts; default 1.' },
  end_line: { type: 'integer', description: 'One-based last line of the range (inclusive); default start_line.' },
  end_character: {
    type: 'integer',
    description: 'One-based column just after the range ends (exclusive); default: through the end of end_line.',
  },
} as const;

/** Range arguments as the schema gives them. */
export interface RangeArgs {
  start_line?: number;
  start_character?: number;
  end_line?: number;
  end_character?: number;
}

/**
 * @param value a one-based coordinate from the model
 * @param name the argument name, for the error
 * @returns the zero-based coordinate
 * @throws ActionError `LSP_ACTION_INVALID_ARGS` unless a positive integer
 */
export function zeroBased(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ActionError('LSP_ACTION_INVALID_ARGS', `${name} must be a whole number of at least 1 (one-based); got ${value}`);
  }
  return value - 1;
}

/**
 * @param line one-based line
 * @param character one-based column
 * @returns the zero-based UTF-16 wire position
 */
export function toWirePosition(line: number, character: number): Position {
  return { line: zeroBased(line, 'line'), character: zeroBased(character, 'character') };
}

/**
 * @param args the optional range arguments
 * @returns the zero-based wire range, or undefined when no range argument was given
 * @throws ActionError `LSP_ACTION_INVALID_ARGS` for a partial or inverted range
 */
export function toWireRange(args: RangeArgs): Range | undefined {
  const { start_line, start_character, end_line, end_character } = args;
  if (start_line === undefined) {
    if (start_character !== undefined || end_line !== undefined || end_character !== undefined) {
      throw new ActionError('LSP_ACTION_INVALID_ARGS', 'a range needs start_line; give start_line (and optionally end_line), or no range at all');
    }
    return undefined;
  }
  const start: Position = {
    line: zeroBased(start_line, 'start_line'),
    character: start_character === undefined ? 0 : zeroBased(start_character, 'start_character'),
  };
  const endLine = end_line === undefined ? start.line : zeroBased(end_line, 'end_line');
  const endCharacter = end_character === undefined ? undefined : zeroBased(end_character, 'end_character');
  if (endLine < start.line || (endLine === start.line && endCharacter !== undefined && endCharacter < start.character)) {
    throw new ActionError(
      'LSP_ACTION_INVALID_ARGS',
      `the range ends before it starts (start ${start_line}:${start.character + 1}, end ${endLine + 1}:${end_character ?? 'end of line'})`,
    );
  }
  // Through the end of a line is the start of the next one: exact in every server, where a
  // column past the line end is not (some servers count it into the following lines).
  const end: Position = endCharacter === undefined ? { line: endLine + 1, character: 0 } : { line: endLine, character: endCharacter };
  return { start, end };
}

/**
 * @param root absolute workspace root
 * @param filePath the model's `file_path`
 * @returns the absolute path (relative paths are taken from the workspace root)
 * @throws ActionError `LSP_ACTION_INVALID_ARGS` for an empty path
 */
export function toWirePath(root: string, filePath: string): string {
  const trimmed = filePath.trim();
  if (trimmed === '') throw new ActionError('LSP_ACTION_INVALID_ARGS', 'file_path is empty; give a path relative to the workspace or absolute');
  return isAbsolute(trimmed) ? resolve(trimmed) : resolve(root, trimmed);
}

/**
 * One-based `line:character` text for a presenter title.
 * @param args arguments that may carry a cursor
 * @returns `:line:character`, `:line`, or empty text
 */
export function cursorSuffix(args: { line?: number; character?: number }): string {
  if (typeof args.line !== 'number') return '';
  return typeof args.character === 'number' ? `:${args.line}:${args.character}` : `:${args.line}`;
}

/**
 * One-based range text for a presenter title (`:3-7`), from the raw range arguments.
 * @param args the range arguments
 * @returns the suffix, or empty text without a range
 */
export function rangeSuffix(args: RangeArgs): string {
  if (typeof args.start_line !== 'number') return '';
  const end = typeof args.end_line === 'number' && args.end_line !== args.start_line ? `-${args.end_line}` : '';
  return `:${args.start_line}${end}`;
}
