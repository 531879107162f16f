/**
 * How places in files read in model-facing text and UI cards: paths relative to the workspace
 * (with `/`), positions one-based `path:line:col`. Structured results keep the zero-based
 * UTF-16 wire positions; only rendering converts. Pure.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { Position, Range } from '../lsp/engine-types.ts';

/**
 * @param root absolute workspace root
 * @param path absolute (or already relative) path
 * @returns the path relative to the workspace with `/` separators, or the absolute path when outside it
 */
export function displayPath(root: string, path: string): string {
  if (!isAbsolute(path)) return path.split(sep).join('/');
  const rel = relative(root, path);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel.split(sep).join('/');
}

/**
 * @param position zero-based wire position
 * @returns one-based `line:col`
 */
export function oneBasedPosition(position: Position): string {
  return `${position.line + 1}:${position.character + 1}`;
}

/**
 * @param root absolute workspace root
 * @param path absolute path
 * @param position zero-based wire position
 * @returns `path:line:col`, one-based, workspace-relative
 */
export function formatAt(root: string, path: string, position: Position): string {
  return `${displayPath(root, path)}:${oneBasedPosition(position)}`;
}

/**
 * @param range zero-based wire range
 * @returns one-based `line:col-line:col` (or `line:col-col` on one line)
 */
export function oneBasedRange(range: Range): string {
  const start = oneBasedPosition(range.start);
  if (range.end.line === range.start.line) return `${start}-${range.end.character + 1}`;
  return `${start}-${oneBasedPosition(range.end)}`;
}

/**
 * @param range zero-based wire range
 * @returns `lines 3-5` / `line 3` for whole lines (ending at the start of the next line), else {@link oneBasedRange}
 */
export function describeRange(range: Range): string {
  if (range.start.character === 0 && range.end.character === 0 && range.end.line > range.start.line) {
    const first = range.start.line + 1;
    const last = range.end.line;
    return first === last ? `line ${first}` : `lines ${first}-${last}`;
  }
  return oneBasedRange(range);
}

/** LSP `SymbolKind` names (1-based, as the protocol numbers them). */
const SYMBOL_KINDS = [
  'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum',
  'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key',
  'null', 'enum member', 'struct', 'event', 'operator', 'type parameter',
];

/** LSP `CompletionItemKind` names (1-based). */
const COMPLETION_KINDS = [
  'text', 'method', 'function', 'constructor', 'field', 'variable', 'class', 'interface', 'module', 'property',
  'unit', 'value', 'enum', 'keyword', 'snippet', 'color', 'file', 'reference', 'folder', 'enum member',
  'constant', 'struct', 'event', 'operator', 'type parameter',
];

/**
 * @param kind LSP `SymbolKind` number
 * @returns its name, or `symbol`
 */
export function symbolKindName(kind: number | undefined): string {
  return (kind === undefined ? undefined : SYMBOL_KINDS[kind - 1]) ?? 'symbol';
}

/**
 * @param kind LSP `CompletionItemKind` number
 * @returns its name, or undefined
 */
export function completionKindName(kind: number | undefined): string | undefined {
  return kind === undefined ? undefined : COMPLETION_KINDS[kind - 1];
}

/**
 * @param count how many
 * @param one singular noun
 * @param many plural noun (default: singular + `s`)
 * @returns `1 error`, `3 errors`
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
