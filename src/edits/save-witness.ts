/**
 * A witness for the one lost save the fs seam cannot show us: a save written in place into the
 * file while the seam replaces it (after the seam read the file, before its rename). The seam
 * publishes by renaming a staged copy over the path, so the file that was there — the inode an
 * editor's in-place save wrote into — leaves the directory. Holding it open from just before the
 * write lets us read it afterwards: if it no longer holds the text we planned against, a save
 * landed in it and our replace hid it; the caller puts that text back and reports a conflict.
 *
 * Local files only (the seam's target is this file on this disk: `local-file-metadata.ts`), read
 * only, opened on the same inode preflight saw. When the seam wrote in place instead of renaming
 * (the path still names the witnessed inode) the witness has nothing to say, and the read-back
 * covers that case. Not covered, documented in docs/reliability.md: a save that replaces the file
 * by rename inside the seam's write, and one written into the old inode after we read it.
 */
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { LocalFileMetadata } from './local-file-metadata.ts';

/** Reads of a changed witnessed file before its text is taken as it is. */
export const SETTLE_READS = 20;
/** Pause between those reads. */
export const SETTLE_MS = 5;

/** An open witness of one file. */
export interface SaveWitness {
  /**
   * Call after the replace.
   * @param planned the exact text (BOM included) the file held when the edit was planned
   * @returns the text the replaced file holds, when the path names another file than the one
   *   witnessed (the seam renamed over it); `undefined` when the path still names it (written in
   *   place) or it cannot be read. When that text is not `planned`, a save is (or was) being
   *   written into it — and an in-place save truncates before it writes — so it is read again
   *   until two reads agree ({@link SETTLE_READS} at most, {@link SETTLE_MS} apart): what comes
   *   back is the finished save, not a torn one.
   */
  replacedText(planned: string): Promise<string | undefined>;
  /** Releases the file. */
  close(): Promise<void>;
}

/**
 * Opens a witness on a local file, on the inode preflight saw.
 * @param path the file's absolute local path (the seam's target key)
 * @param seen its metadata at preflight
 * @returns the witness, or `undefined` when the path no longer names that inode (the seam's
 *   version check will then refuse the write) or cannot be opened
 */
export type SaveWitnessOpener = (path: string, seen: LocalFileMetadata) => Promise<SaveWitness | undefined>;

/** The witness over `node:fs`. */
export const openSaveWitness: SaveWitnessOpener = async (path, seen) => {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (info.ino !== seen.ino || info.dev !== seen.dev) {
      await handle.close();
      return undefined;
    }
  } catch {
    await handle.close().catch(() => undefined);
    return undefined;
  }
  const readAll = async (): Promise<string> => {
    const size = (await handle.stat()).size;
    const bytes = Buffer.alloc(size);
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return bytes.subarray(0, offset).toString('utf8');
  };
  return {
    async replacedText(planned) {
      try {
        const [now, held] = await Promise.all([stat(path), handle.stat()]);
        if (now.ino === held.ino && now.dev === held.dev) return undefined;
        let text = await readAll();
        for (let read = 1; text !== planned && read < SETTLE_READS; read++) {
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          const again = await readAll();
          // An empty file is a save between its truncate and its write, unless it stays empty.
          if (again === text && (again !== '' || read >= SETTLE_READS / 2)) break;
          text = again;
        }
        return text;
      } catch {
        return undefined;
      }
    },
    close: () => handle.close().catch(() => undefined),
  };
};
