/**
 * What a project's `.gitignore` files exclude, asked from git itself (`git ls-files --others
 * --ignored --exclude-standard --directory`), so every rule — nested `.gitignore` files,
 * negations, `.git/info/exclude`, the user's global excludes — means what it means to git.
 * Tracked files are never reported ignored (git does not ignore what it tracks). Outside a git
 * work tree, or without git, nothing is known to be ignored.
 */
import { execFile } from 'node:child_process';
import { join, sep } from 'node:path';

/** Ignored paths under one directory. */
export interface IgnoredPaths {
  /** Absolute paths of ignored files, and of ignored directories (without a trailing separator). */
  readonly paths: ReadonlySet<string>;
  /** Whether git answered (a git work tree). */
  readonly known: boolean;
}

const NONE: IgnoredPaths = { paths: new Set(), known: false };

/**
 * @param dir an absolute directory
 * @returns the ignored paths at or below it (asked asynchronously: the caller's other work goes on)
 */
export function gitIgnoredPaths(dir: string): Promise<IgnoredPaths> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', dir, 'ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z'],
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => {
        if (error !== null) {
          resolve(NONE);
          return;
        }
        const paths = new Set<string>();
        for (const entry of stdout.split('\0')) {
          if (entry === '') continue;
          const rel = entry.endsWith('/') ? entry.slice(0, -1) : entry;
          paths.add(join(dir, rel.split('/').join(sep)));
        }
        resolve({ paths, known: true });
      },
    );
  });
}

/**
 * @param ignored ignored paths (files and directories)
 * @param path an absolute path
 * @returns whether the path or one of its ancestor directories is ignored
 */
export function isIgnored(ignored: ReadonlySet<string>, path: string): boolean {
  if (ignored.size === 0) return false;
  let current = path;
  for (;;) {
    if (ignored.has(current)) return true;
    const cut = current.lastIndexOf(sep);
    if (cut <= 0) return false;
    current = current.slice(0, cut);
  }
}
