/**
 * Gives a file the owner it had before the seam replaced it. `ctx.fs.writeText` renames a new
 * file over the target: the mode is carried over, the owner is not (the new inode belongs to the
 * writer — root, when the harness runs as root). After a replace whose original owner is known
 * (`local-file-metadata.ts`), the owner and group are set back with `node:fs` `chown` on the
 * target: metadata only, the content always goes through the seam.
 *
 * `chown` changes the file's ctime, hence the seam's version: the version returned is the one the
 * seam reports after it, and that is what the caller's read-back, rollback and `fs/observed` use.
 * If the file is no longer the one our write produced (its seam version moved), nothing is
 * touched: the caller's read-back reports the concurrent write. When a non-root `chown` clears
 * set-user/group-ID bits, the original permission bits are put back.
 *
 * A `chown` that is not permitted (a non-root writer cannot give a file away) does not fail the
 * edit: the outcome carries a warning and the file stays owned by the writer, as without this.
 */
import { chmod, chown } from 'node:fs/promises';
import type { FileSystem, FsTarget, FsVersion } from '@deepseek-ai/dsh-fs';
import type { LocalFileMetadata, LocalFileMetadataProbe } from './local-file-metadata.ts';

/** The local metadata operations owner-keeping uses (injectable for tests). */
export interface OwnerOps {
  probe: LocalFileMetadataProbe;
  chown(path: string, uid: number, gid: number): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
}

/** What keeping the owner did. */
export interface KeptOwner {
  /** The file's seam version now (the written version when nothing was changed). */
  version: FsVersion;
  /** Set when the owner could not be restored (the edit still succeeded). */
  warning?: string;
}

/** Permission bits including set-user-ID, set-group-ID and sticky. */
const PERMISSION_BITS = 0o7777;
/** Read, write and execute bits only: what a journal replay may put back (never set-user/group-ID or sticky). */
export const PLAIN_PERMISSION_BITS = 0o777;

/**
 * @param probe reads the file's local metadata
 * @returns owner operations over `node:fs`
 */
export function localOwnerOps(probe: LocalFileMetadataProbe): OwnerOps {
  return { probe, chown: (path, uid, gid) => chown(path, uid, gid), chmod: (path, mode) => chmod(path, mode) };
}

/**
 * @param fs the seam (its `stat` gives the version and the size the probe checks against)
 * @param ops probe, chown, chmod
 * @param target the file just written
 * @param original its owner, group and mode before the write; undefined: unknown, nothing is done
 * @param written the version the seam's write produced
 * @param bits the permission bits that may be put back (a journal replay passes {@link PLAIN_PERMISSION_BITS})
 * @returns the file's version afterwards, and a warning when the owner could not be restored
 */
export async function keepOwner(
  fs: Pick<FileSystem, 'stat'>,
  ops: OwnerOps,
  target: FsTarget,
  original: Pick<LocalFileMetadata, 'uid' | 'gid' | 'mode'> | undefined,
  written: FsVersion,
  bits: number = PERMISSION_BITS,
): Promise<KeptOwner> {
  if (original === undefined) return { version: written };
  const info = await fs.stat(target);
  if (info === undefined || info.version !== written) return { version: written };
  const now = await ops.probe(target, info.size);
  if (now === undefined || (now.uid === original.uid && now.gid === original.gid)) return { version: written };
  const path = String(target.targetKey);
  try {
    await ops.chown(path, original.uid, original.gid);
    const after = await ops.probe(target, info.size);
    if (after !== undefined && (after.mode & PERMISSION_BITS) !== (original.mode & bits)) {
      await ops.chmod(path, original.mode & bits);
    }
  } catch (error) {
    const warning =
      `${target.displayPath}: the edit was written, but its owner could not be set back to ${original.uid}:${original.gid} ` +
      `(it is now ${now.uid}:${now.gid}): ${error instanceof Error ? error.message : String(error)}`;
    return { version: (await fs.stat(target))?.version ?? written, warning };
  }
  return { version: (await fs.stat(target))?.version ?? written };
}

/**
 * The journal replay's owner keeper (`RecoveryOptions.restoreOwner`) over the local disk: after a
 * crash the original owner is known only from the journal. Only plain permission bits are put
 * back: a replay never gives a file set-user-ID, set-group-ID or sticky bits, whatever the journal
 * says. A failure rejects; the replay ignores it (the content is back either way).
 * @param fs the seam the replay writes through
 * @param ops probe, chown, chmod
 * @returns the hook
 */
export function journalOwnerRestorer(
  fs: Pick<FileSystem, 'stat'>,
  ops: OwnerOps,
): (target: FsTarget, owner: Pick<LocalFileMetadata, 'uid' | 'gid' | 'mode'>, written: FsVersion) => Promise<void> {
  return async (target, owner, written) => {
    await keepOwner(fs, ops, target, owner, written, PLAIN_PERMISSION_BITS);
  };
}
