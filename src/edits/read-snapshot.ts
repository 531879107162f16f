/**
 * Reads one file through the fs seam as a consistent (text, version) pair: the version is taken
 * with `stat` before and after `readText`, and the read is retried while they differ. The version
 * is what the guarded write later names (`replaceIfVersion`), so a change between our read and
 * our write can never be clobbered.
 *
 * A UTF-8 byte order mark is remembered: `readText` decodes it away (the text the language
 * servers see has none), and the write path puts it back so the file keeps its bytes.
 */
import { Buffer } from 'node:buffer';
import type { FileSystem, FsTarget, FsVersion } from '@deepseek-ai/dsh-fs';
import { ActionError } from '../errors.ts';
import { fsErrorCode, toWriteActionError } from './fs-error-map.ts';

/** A file as read at plan time. */
export type FileSnapshot =
  | { exists: false }
  | {
      exists: true;
      /** Decoded text, byte for byte apart from a leading BOM. */
      text: string;
      /** The version `text` belongs to. */
      version: FsVersion;
      /** Whether the file starts with a UTF-8 byte order mark. */
      bom: boolean;
      /** Byte size at `version`, when the seam reports one. */
      size?: number;
    };

/** The fs primitives a snapshot needs. */
export type SnapshotFs = Pick<FileSystem, 'stat' | 'readText' | 'readBytes'>;

const ATTEMPTS = 3;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * @param fs the harness file system
 * @param target the resolved file
 * @param signal cancels the reads
 * @returns the file's text and the version it belongs to, or `{exists: false}`
 * @throws ActionError `LSP_ACTION_CONFLICT` when the file keeps changing while being read or is
 *   not a regular file; the mapped fs error otherwise (see `fs-error-map.ts`)
 */
export async function readSnapshot(fs: SnapshotFs, target: FsTarget, signal?: AbortSignal): Promise<FileSnapshot> {
  const path = target.displayPath;
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const first = await fs.stat(target, signal);
      if (first === undefined) return { exists: false };
      if (first.type !== 'file') {
        throw new ActionError('LSP_ACTION_CONFLICT', `${path} is not a regular file; nothing was written`, {
          paths: [path],
          reason: 'not-a-file',
        });
      }
      let text: string;
      try {
        text = await fs.readText(target, signal);
      } catch (error) {
        // Deleted between stat and read: the next attempt sees the absence.
        if (fsErrorCode(error) === 'FS_NOT_FOUND') continue;
        throw error;
      }
      const second = await fs.stat(target, signal);
      if (second === undefined || second.version !== first.version) continue;
      const bom = await hasByteOrderMark(fs, target, text, second.size, signal);
      if (bom === undefined) continue;
      return { exists: true, text, version: second.version, bom, ...(second.size !== undefined ? { size: second.size } : {}) };
    }
  } catch (error) {
    throw toWriteActionError(error, { path, stage: 'read', ...(signal ? { signal } : {}) });
  }
  throw new ActionError(
    'LSP_ACTION_CONFLICT',
    `${path} kept changing while it was being read; nothing was written. Re-run the action once it settles.`,
    { paths: [path], reason: 'changing' },
  );
}

/**
 * A strict UTF-8 decode re-encodes to exactly the bytes it came from, except for a leading BOM,
 * which the decoder drops. So the file has a BOM exactly when it is three bytes longer than its
 * text's UTF-8 encoding. Without a size from `stat`, the first bytes are read instead.
 * @returns whether there is a BOM, or `undefined` when the file changed meanwhile (retry)
 */
async function hasByteOrderMark(
  fs: SnapshotFs,
  target: FsTarget,
  text: string,
  size: number | undefined,
  signal: AbortSignal | undefined,
): Promise<boolean | undefined> {
  const encoded = Buffer.byteLength(text, 'utf8');
  if (size !== undefined) return size === encoded + UTF8_BOM.length;
  try {
    const bytes = await fs.readBytes(target, signal, encoded + UTF8_BOM.length);
    if (bytes.length === encoded) return false;
    if (bytes.length !== encoded + UTF8_BOM.length) return undefined;
    return UTF8_BOM.every((byte, index) => bytes[index] === byte);
  } catch (error) {
    if (fsErrorCode(error) === 'FS_TOO_LARGE') return undefined;
    throw error;
  }
}
