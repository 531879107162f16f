/**
 * Expands the paths given to `check` into files: files as they are, directories recursively
 * (sorted, symlinked directories not followed), skipping dependency and VCS directories
 * ({@link SKIPPED_DIRECTORIES}) and what the project's `.gitignore` excludes (when an ignore set
 * is given), and recording what was skipped. Whether a language server handles a file, and
 * whether a TypeScript file belongs to a program, is decided later.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SKIPPED_DIRECTORIES } from '../skipped-directories.ts';

/** Files found, and the given paths that do not exist. */
export interface CollectedFiles {
  /** Absolute paths, sorted, without duplicates. */
  files: string[];
  /** Absolute paths of files given explicitly (not found by walking a directory). */
  explicit: Set<string>;
  /** Paths as given that do not exist. */
  missing: string[];
  /** Ignored files and directories met by the walk (absolute, sorted); not descended into. */
  ignored: string[];
}

/** Options of {@link collectFiles}. */
export interface CollectOptions {
  /** Absolute paths (files and directories) the walk skips, e.g. from `.gitignore`. */
  ignored?: ReadonlySet<string>;
}

/**
 * @param paths files or directories, relative to `cwd` or absolute
 * @param cwd the directory relative paths are resolved against
 * @returns the files under them
 */
export function collectFiles(paths: readonly string[], cwd: string, options: CollectOptions = {}): CollectedFiles {
  const found = new Set<string>();
  const walker: Walker = { out: found, ignored: options.ignored ?? new Set(), skipped: [] };
  const explicit = new Set<string>();
  const missing: string[] = [];
  for (const given of paths) {
    const abs = resolve(cwd, given);
    const kind = kindOf(abs);
    if (kind === 'file') {
      found.add(abs);
      explicit.add(abs);
    } else if (kind === 'directory') {
      walk(abs, walker);
    } else {
      missing.push(given);
    }
  }
  return { files: [...found].sort(), explicit, missing, ignored: walker.skipped.sort() };
}

function kindOf(path: string): 'file' | 'directory' | undefined {
  try {
    const info = statSync(path);
    if (info.isFile()) return 'file';
    if (info.isDirectory()) return 'directory';
    return undefined;
  } catch {
    // Does not exist or cannot be read: reported as missing.
    return undefined;
  }
}

interface Walker {
  out: Set<string>;
  ignored: ReadonlySet<string>;
  skipped: string[];
}

function walk(dir: string, walker: Walker): void {
  const { out } = walker;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    // An unreadable directory below a given one is skipped, like `tsc` and linters do.
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory() && SKIPPED_DIRECTORIES.has(entry.name)) continue;
    if (walker.ignored.has(full)) {
      walker.skipped.push(full);
      continue;
    }
    if (entry.isDirectory()) {
      walk(full, walker);
    } else if (entry.isFile()) {
      out.add(full);
    } else if (entry.isSymbolicLink() && kindOf(full) === 'file') {
      out.add(full);
    }
  }
}
