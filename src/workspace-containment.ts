/**
 * The one containment rule of every face, for reads and writes alike: a path counts as inside a
 * workspace folder only when its real location — symbolic links followed, through the harness
 * fs seam's `resolve` (a missing file resolves through its nearest existing ancestor) — lies
 * inside the folder's real location (`fs.contains`). A lexical check alone is not enough: a
 * link inside the workspace may point anywhere.
 *
 * Used by the action runner (the request's `workspaceRoot` against the folders `serve` was
 * started with or the bound session's cwd, then every file the request names against that
 * root) and by the write pre-flight (every edit target against the root).
 *
 * Failures say what happened: a target outside is `LSP_ACTION_OUTSIDE_WORKSPACE`; a path too
 * long for the file system is `LSP_ACTION_INVALID_ARGS` (never an uncoded `ENAMETOOLONG`).
 */
import type { FileSystem, FsTarget } from '@deepseek-ai/dsh-fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { abortError, ActionError } from './errors.ts';

/** The fs primitives containment needs. */
export type ContainmentFs = Pick<FileSystem, 'resolve' | 'contains'>;

/** Longest path accepted, in UTF-8 bytes (Linux `PATH_MAX`); longer ones are refused before any fs call. */
export const MAX_PATH_BYTES = 4096;

/**
 * @param parent directory
 * @param child absolute path
 * @returns whether `child` is `parent` or lies below it, comparing the paths as written
 */
export function isLexicallyInside(parent: string, child: string): boolean {
  const rel = relative(resolve(parent), resolve(child));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Resolves a path to its real location.
 * @param fs the harness fs seam
 * @param path absolute path (or relative to `cwd`)
 * @param options `field` names the param in messages; `cwd` for relative paths; `signal`
 * @returns the resolved target
 * @throws ActionError `LSP_ACTION_INVALID_ARGS` for a path too long or unresolvable, the abort code when aborted
 */
export async function resolveReal(
  fs: ContainmentFs,
  path: string,
  options: { field: string; cwd?: string; signal?: AbortSignal | undefined },
): Promise<FsTarget> {
  const { field, signal } = options;
  const bytes = Buffer.byteLength(path, 'utf8');
  if (bytes > MAX_PATH_BYTES) {
    throw new ActionError(
      'LSP_ACTION_INVALID_ARGS',
      `${field} is ${bytes} bytes long; paths longer than ${MAX_PATH_BYTES} bytes are refused`,
      { field, reason: 'path-too-long' },
    );
  }
  try {
    return await fs.resolve(path, { ...(options.cwd === undefined ? {} : { cwd: options.cwd }), ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    const code = (error as { code?: unknown } | null)?.code;
    const detail = error instanceof Error ? error.message : String(error);
    if (code === 'ENAMETOOLONG') {
      throw new ActionError('LSP_ACTION_INVALID_ARGS', `${field} ${path.slice(0, 120)}… has a name too long for the file system`, { field, reason: 'path-too-long' }, { cause: error });
    }
    throw new ActionError('LSP_ACTION_INVALID_ARGS', `${field} ${path} cannot be resolved: ${detail}`, { field, paths: [path] }, { cause: error });
  }
}

/**
 * @param fs the harness fs seam
 * @param root resolved root
 * @param target resolved target
 * @returns whether the target's real location lies inside the root's
 */
export function containsTarget(fs: ContainmentFs, root: FsTarget, target: FsTarget): boolean {
  return fs.contains(root, target);
}

/**
 * Checks that a request's workspace root lies inside one of the allowed folders.
 * @param fs the harness fs seam
 * @param allowed absolute workspace folders (the served folders, or the session's cwd)
 * @param root absolute root the request names
 * @param signal the call's signal
 * @throws ActionError `LSP_ACTION_OUTSIDE_WORKSPACE` when it lies outside every folder
 */
export async function confineRoot(fs: ContainmentFs, allowed: readonly string[], root: string, signal?: AbortSignal): Promise<void> {
  const real = await resolveReal(fs, root, { field: 'params.workspaceRoot', signal });
  for (const folder of allowed) {
    // real locations only: a folder given through a link still serves roots named by their real path
    const folderReal = await resolveReal(fs, folder, { field: 'workspace folder', signal });
    if (containsTarget(fs, folderReal, real)) return;
  }
  throw new ActionError(
    'LSP_ACTION_OUTSIDE_WORKSPACE',
    `workspaceRoot ${root} is not inside the workspace folder${allowed.length === 1 ? '' : 's'} this backend serves ` +
      `(${allowed.join(', ')}; symbolic links followed); pass a root inside ${allowed.length === 1 ? 'it' : 'one of them'}`,
    { paths: [root, ...allowed], reason: 'root-outside' },
  );
}

/**
 * Checks that a file a request names lies inside the request's root, as written and with
 * symbolic links followed.
 * @param fs the harness fs seam
 * @param root absolute workspace root (already confined)
 * @param filePath absolute or root-relative path
 * @param options `field` for messages, `signal`
 * @returns the absolute path (as written, resolved against the root)
 * @throws ActionError `LSP_ACTION_OUTSIDE_WORKSPACE` when it leaves the root
 */
export async function confinePath(
  fs: ContainmentFs,
  root: string,
  filePath: string,
  options: { field: string; signal?: AbortSignal | undefined },
): Promise<string> {
  const path = resolve(root, filePath);
  const outside = (how: string): ActionError =>
    new ActionError(
      'LSP_ACTION_OUTSIDE_WORKSPACE',
      `${options.field} ${filePath} ${how} the workspace root ${root}; only files inside it can be used`,
      { paths: [path, root], field: options.field },
    );
  if (!isLexicallyInside(root, path)) throw outside('is outside');
  const rootReal = await resolveReal(fs, root, { field: 'params.workspaceRoot', signal: options.signal });
  const real = await resolveReal(fs, path, { field: options.field, signal: options.signal });
  if (!containsTarget(fs, rootReal, real)) throw outside('resolves (through a symbolic link) outside');
  return path;
}
