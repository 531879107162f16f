/**
 * Turning a wire `filePath` into an engine {@link DocumentTarget}, and absolute paths back into
 * wire paths.
 *
 * Decision: a `filePath` that resolves outside the workspace root is `LSP_ACTION_OUTSIDE_WORKSPACE`
 * (an additive code), not `LSP_ACTION_INVALID_ARGS`: the params are well-formed, the target is
 * out of bounds, and a caller may want to route on that (retry with the right root). The check is
 * lexical; the write path re-checks every edit target with symlinks resolved.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ActionError } from '../errors.ts';
import type { DocumentTarget } from '../lsp/engine-types.ts';

/** A resolved file target of one call. */
export interface FileTarget {
  /** What the engine gets. */
  target: DocumentTarget;
  /** Absolute path (same as `target.path`). */
  path: string;
  /** The request's `filePath`, verbatim, for echoing. */
  filePath: string;
}

/**
 * @param root absolute workspace root (the invocation's)
 * @param filePath the wire `filePath`, absolute or relative to `root`
 * @param text optional unsaved-buffer overlay (read actions only)
 * @returns the target
 * @throws ActionError `LSP_ACTION_OUTSIDE_WORKSPACE` when the path leaves the root
 */
export function resolveFileTarget(root: string, filePath: string, text?: string): FileTarget {
  const path = resolveInsideRoot(root, filePath, 'params.filePath');
  const target: DocumentTarget = text === undefined ? { root, path } : { root, path, text };
  return { target, path, filePath };
}

/**
 * @param root absolute workspace root
 * @param filePath absolute or root-relative path
 * @param field the params field, for the message
 * @returns the absolute path
 * @throws ActionError `LSP_ACTION_OUTSIDE_WORKSPACE` when it leaves the root
 */
export function resolveInsideRoot(root: string, filePath: string, field: string): string {
  const path = resolve(root, filePath);
  if (!isInsideRoot(root, path) || path === resolve(root)) {
    throw new ActionError(
      'LSP_ACTION_OUTSIDE_WORKSPACE',
      `${field} ${filePath} is not a file inside the workspace root ${root}; pass a path inside it (relative paths are resolved against workspaceRoot)`,
      { paths: [path, root] },
    );
  }
  return path;
}

/**
 * @param root directory
 * @param path absolute path
 * @returns whether `path` is `root` or lies below it (lexically)
 */
export function isInsideRoot(root: string, path: string): boolean {
  const rel = relative(resolve(root), path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The wire form of a path in a result (other than the echoed `filePath`):
 * workspace-relative and `/`-separated inside the root, absolute outside it.
 * @param root absolute workspace root
 * @param path absolute path
 * @returns the wire path
 */
export function wirePath(root: string, path: string): string {
  if (!isInsideRoot(root, path)) return path;
  const rel = relative(resolve(root), path);
  return rel === '' ? '.' : rel.split(sep).join('/');
}
