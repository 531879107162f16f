/**
 * The files a workspace-wide `lsp_diagnostics` looks at: a breadth-first walk of the session
 * workspace through the harness fs (`ctx.fs.listDir`, never `node:fs`), keeping the files some
 * configured language server handles (the engine's own routing), shallow files first, bounded.
 * Dependency and VCS directories, hidden directories, and the directory names the root
 * `.gitignore` excludes (`gitignore-names.ts`) are not descended into — not `lib` or `dist` by
 * name: a library may keep its sources in `lib/`.
 */
import { join } from 'node:path';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { ServerConfig } from '../config.ts';
import { abortError } from '../errors.ts';
import { ServerRouter } from '../lsp/server-routing.ts';
import { SKIPPED_DIRECTORIES } from '../skipped-directories.ts';
import { type IgnoredNames, readIgnoredNames } from './gitignore-names.ts';

/** Directories listed per file wanted, at most (bounds the walk of trees with few source files). */
const DIRECTORIES_PER_FILE = 4;

/** The outcome of a walk. */
export interface WorkspaceFiles {
  /** Absolute paths, shallow first, then by name. */
  files: string[];
  /** Whether the walk stopped at a bound with more of the workspace unvisited. */
  more: boolean;
}

/** Lists the workspace files language servers handle. */
export type WorkspaceFileLister = (root: string, max: number, signal: AbortSignal) => Promise<WorkspaceFiles>;

/**
 * @param fs the harness file system
 * @param servers the configured servers (routing decides which files count)
 * @returns a lister over that fs
 */
export function workspaceFileLister(fs: Pick<FileSystem, 'resolve' | 'listDir' | 'readText'>, servers: Record<string, ServerConfig>): WorkspaceFileLister {
  const router = new ServerRouter(servers);
  return async (root, max, signal) =>
    listWorkspaceFiles(fs, root, (path) => router.route(path, root).length > 0, max, signal, await readIgnoredNames(fs, root, signal));
}

/**
 * @param fs the harness file system
 * @param root absolute workspace root
 * @param accept whether a file counts
 * @param max most files to return
 * @param signal cancels the walk
 * @param ignored directory names not descended into (the root `.gitignore`'s plain names)
 * @returns the files found, and whether the walk was cut short
 */
export async function listWorkspaceFiles(
  fs: Pick<FileSystem, 'resolve' | 'listDir'>,
  root: string,
  accept: (path: string) => boolean,
  max: number,
  signal: AbortSignal,
  ignored?: IgnoredNames,
): Promise<WorkspaceFiles> {
  const files: string[] = [];
  const queue: string[] = [root];
  let listed = 0;
  const maxDirectories = Math.max(1, max * DIRECTORIES_PER_FILE);
  while (queue.length > 0) {
    if (signal.aborted) throw abortError(signal);
    if (files.length >= max || listed >= maxDirectories) return { files, more: true };
    const dir = queue.shift() as string;
    listed++;
    let entries;
    try {
      entries = await fs.listDir(await fs.resolve(dir, { signal }), signal);
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      // An unreadable directory (permissions, removed meanwhile) is skipped, like `find` does.
      void error;
      continue;
    }
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of sorted) {
      const path = join(dir, entry.name);
      if (entry.type === 'directory') {
        const skipped =
          entry.name.startsWith('.') ||
          SKIPPED_DIRECTORIES.has(entry.name) ||
          ignored?.anywhere.has(entry.name) === true ||
          (dir === root && ignored?.atRoot.has(entry.name) === true);
        if (!skipped) queue.push(path);
      } else if (entry.type === 'file' && accept(path)) {
        if (files.length >= max) return { files, more: true };
        files.push(path);
      }
    }
  }
  return { files, more: false };
}
