/**
 * What the fs seam does not report about a file — its owner, permission bits and link count —
 * read straight from the local disk with `node:fs`, for the one case where the seam's target IS a
 * local file: `dsh-fs-local` (and the sandbox around it) resolve a target's `targetKey` to its
 * absolute real path.
 *
 * The plugin may run over any backend (a remote or virtual one whose keys mean nothing here), so
 * a probe answers only when it is sure it looks at the same file the seam does: the key is an
 * absolute path, it exists, it is a regular file, and its size is the size the seam reported.
 * Anything else is `undefined` ("unknown"), and the write path then behaves as it did without
 * the probe. Read only: content is never read or written here.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { FsTarget } from '@deepseek-ai/dsh-fs';

/** A local file's metadata, as `stat(2)` reports it. */
export interface LocalFileMetadata {
  /** `st_mode`: file type and permission bits. */
  mode: number;
  uid: number;
  gid: number;
  /** Hard links to the inode (1 for a file with one name). */
  nlink: number;
  ino: number;
  dev: number;
}

/**
 * Reads a target's local metadata.
 * @param target the target as the seam resolved it
 * @param seamSize the byte size the seam's `stat` reported (undefined: the seam did not say)
 * @returns the metadata, or `undefined` when the target is not known to be this local file
 */
export type LocalFileMetadataProbe = (target: FsTarget, seamSize: number | undefined) => Promise<LocalFileMetadata | undefined>;

/** The probe over the local disk (`node:fs` `stat`, following links like the seam's resolve). */
export const localFileMetadata: LocalFileMetadataProbe = async (target, seamSize) => {
  const key = String(target.targetKey);
  if (seamSize === undefined || !isAbsolute(key)) return undefined;
  try {
    const info = await stat(key);
    if (!info.isFile() || info.size !== seamSize) return undefined;
    return { mode: info.mode, uid: info.uid, gid: info.gid, nlink: info.nlink, ino: info.ino, dev: info.dev };
  } catch {
    return undefined;
  }
};

/** A probe that never knows: the write path behaves as without one. */
export const unknownFileMetadata: LocalFileMetadataProbe = () => Promise.resolve(undefined);
