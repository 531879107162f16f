/**
 * A snapshot of file versions on the local disk, for `check`'s warm-started TypeScript 7 server
 * (decision 0110): taken right after the walk, while the composition boots — before any
 * language server exists — and compared later with versions taken the same way. A version is
 * what `stat` says of the file's identity and last change (device, inode, size, mtime and ctime in
 * nanoseconds): any write changes the ctime, and a file replaced by another changes the inode.
 */
import { statSync } from 'node:fs';
import type { FileSnapshot } from '../lsp/engine-types.ts';

/**
 * Files the TypeScript server may answer for (its extensions, `.d.ts` included) and its configs
 * (the listing's config errors are proven by them too: compiler-reports.ts); the others are not taken.
 */
const SCRIPT = /(?:\.(?:[cm]?[jt]s|[jt]sx)|[/\\](?:tsconfig|jsconfig)\.json)$/;

/**
 * @param path absolute file path
 * @returns its version now, undefined when it cannot be read as a file
 */
export function diskVersion(path: string): string | undefined {
  const info = statSync(path, { bigint: true, throwIfNoEntry: false });
  if (info === undefined || !info.isFile()) return undefined;
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * @param files absolute paths (only script files are taken)
 * @returns their versions now, and the way to take them again
 */
export function takeFileSnapshot(files: readonly string[]): FileSnapshot {
  const versions = new Map<string, string | undefined>();
  for (const file of files) if (SCRIPT.test(file)) versions.set(file, diskVersion(file));
  return {
    versions,
    now: async (paths) => new Map(paths.map((path) => [path, diskVersion(path)])),
  };
}
