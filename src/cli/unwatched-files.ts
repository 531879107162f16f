/**
 * `check --watch`: the files a program reads that the workspace watcher cannot see — outside the
 * workspace, or under a directory it skips (`node_modules`, hidden ones): a library's `.d.ts`,
 * a sibling package's source, TypeScript's own `lib.*.d.ts`. A change there reaches any file, and
 * no event says so; a re-check may keep earlier reports only when every one of them is provably
 * as it was (watch-affected.ts). Proof: the file's stat signature (size, mtime, ctime, inode)
 * taken at the start of every run, before anything is judged, and equal at the next run's
 * start. A file first met in a run's listing (after that run judged) is proven only when its
 * ctime is older than the run's start by more than any file system's timestamp granularity.
 */
import { statSync, type Stats } from 'node:fs';
import { relative, sep } from 'node:path';
import { SKIPPED_DIRECTORIES } from '../skipped-directories.ts';

/** Coarsest file-system timestamp granularity allowed for (FAT: 2 s). */
const GRANULARITY_MS = 2_000;

/**
 * @param info a file's stat
 * @returns what identifies its content version: size, mtime, ctime, inode
 */
export const signatureOf = (info: Stats): string => `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;

const statOrUndefined = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

/**
 * @param path an absolute file
 * @param workspace the watched root
 * @returns whether the workspace watcher cannot see a change to it
 */
export function isUnwatched(path: string, workspace: string): boolean {
  const rel = relative(workspace, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return true;
  const dirs = rel.split(sep).slice(0, -1);
  return dirs.some((name) => SKIPPED_DIRECTORIES.has(name) || name.startsWith('.'));
}

/** The unwatched files of a watch's programs, each with its proven signature (undefined: not proven). */
export class UnwatchedFiles {
  private readonly seen = new Map<string, string | undefined>();
  private readonly workspace: string;

  /** @param workspace the watched root */
  constructor(workspace: string) {
    this.workspace = workspace;
  }

  /**
   * At a run's start, before anything is judged: looks at every known unwatched file again and
   * takes that look as the proof for the next run.
   * @returns a file that changed since the previous look, or is not proven unchanged (undefined: none)
   */
  moved(): string | undefined {
    let moved: string | undefined;
    for (const [path, before] of this.seen) {
      const info = statOrUndefined(path);
      const now = info === undefined ? undefined : signatureOf(info);
      if (moved === undefined && (before === undefined || now !== before)) moved = path;
      this.seen.set(path, now);
    }
    return moved;
  }

  /**
   * After a run listed its programs' files: the unwatched ones are tracked from now on (those no
   * longer listed are dropped).
   * @param files every file of the programs, as listed
   * @param runStartedAt when the run that listed them started (ms since the epoch)
   */
  listed(files: ReadonlySet<string>, runStartedAt: number): void {
    for (const path of this.seen.keys()) if (!files.has(path)) this.seen.delete(path);
    for (const path of files) {
      if (this.seen.has(path) || !isUnwatched(path, this.workspace)) continue;
      const info = statOrUndefined(path);
      this.seen.set(path, info !== undefined && info.ctimeMs < runStartedAt - GRANULARITY_MS ? signatureOf(info) : undefined);
    }
  }
}

/**
 * @param path a file
 * @returns its stat signature now, undefined when it cannot be read (the watch's epoch of a text)
 */
export function currentSignature(path: string): string | undefined {
  try {
    return signatureOf(statSync(path));
  } catch {
    return undefined;
  }
}
