/**
 * Reading a document's current text through the harness fs seam only (`resolve`, `stat`,
 * `readText`), bounded by `maxDocumentBytes`, with fs failures mapped to engine errors.
 */
import { FsError, type FileSystem } from '@deepseek-ai/dsh-fs';
import { ActionError, abortError } from '../errors.ts';

/**
 * @param path the file
 * @param size its size, when known
 * @param maxBytes the bound
 * @returns `LSP_ACTION_FILE_TOO_LARGE` naming `maxDocumentBytes`
 */
export function tooLarge(path: string, size: number | undefined, maxBytes: number): ActionError {
  const what = size === undefined ? 'is larger than' : `has ${size} bytes, more than`;
  return new ActionError('LSP_ACTION_FILE_TOO_LARGE', `${path} ${what} the ${maxBytes}-byte limit (maxDocumentBytes)`, { paths: [path] });
}

/**
 * @param fs the harness file system
 * @param path absolute path
 * @param maxBytes `maxDocumentBytes`
 * @param signal cancels the read
 * @param onGone called before FILE_NOT_FOUND is thrown (the store closes the document)
 * @param onVersion told the fs version (`stat`) taken before the text was read
 * @returns the file's text, byte-for-byte decoded
 * @throws ActionError FILE_NOT_FOUND, FILE_TOO_LARGE, UNSUPPORTED (not UTF-8 text), CANCELLED/TIMEOUT;
 *   other fs failures (permission, sandbox, I/O) are rethrown as the harness `FsError`
 */
export async function readDocumentText(
  fs: Pick<FileSystem, 'resolve' | 'readText' | 'stat'>,
  path: string,
  maxBytes: number,
  signal: AbortSignal | undefined,
  onGone: () => void,
  onVersion?: (version: string) => void,
): Promise<string> {
  try {
    const target = await fs.resolve(path, signal === undefined ? {} : { signal });
    const info = await fs.stat(target, signal);
    if (info === undefined) throw new FsError(`${path}: not found`, 'FS_NOT_FOUND');
    if (info.type !== 'file') throw new FsError(`${path}: not a regular file`, 'FS_NOT_REGULAR_FILE');
    if (info.size !== undefined && info.size > maxBytes) throw tooLarge(path, info.size, maxBytes);
    onVersion?.(info.version);
    const text = await fs.readText(target, signal);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > maxBytes) throw tooLarge(path, bytes, maxBytes);
    return text;
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    if (!(error instanceof FsError)) throw error;
    if (error.code === 'FS_NOT_FOUND' || error.code === 'FS_NOT_REGULAR_FILE' || error.code === 'FS_NOT_DIRECTORY') {
      onGone();
      throw new ActionError('LSP_ACTION_FILE_NOT_FOUND', `${path} does not exist (or is not a regular file)`, { paths: [path] }, { cause: error });
    }
    if (error.code === 'FS_TOO_LARGE') throw tooLarge(path, undefined, maxBytes);
    if (error.code === 'FS_NOT_TEXT') {
      throw new ActionError('LSP_ACTION_UNSUPPORTED', `${path} is not a UTF-8 text file`, { paths: [path] }, { cause: error });
    }
    throw error;
  }
}
