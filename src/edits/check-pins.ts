/**
 * The editor's pin (`expectedSha256`): the text an edit was computed against must be the text the
 * editor last saw. Checked after pre-flight, before any guard or write: against the basis the
 * server computed from (so a save between the editor's request and the server's read refuses the
 * edit instead of renaming whatever now sits at that position), else against the file as read.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { ActionError } from '../errors.ts';
import type { PreparedFile } from './preflight.ts';
import { readSnapshot } from './read-snapshot.ts';
import { sha256Hex } from './write-journal.ts';

/**
 * @param fs the fs seam (for a pinned file the edit does not touch)
 * @param root the workspace root
 * @param pins absolute path → expected SHA-256
 * @param basis absolute path → text the edit was computed against
 * @param prepared the pre-flighted files
 * @param signal cancels reads
 * @throws ActionError `LSP_ACTION_CONFLICT` (reason `pin-mismatch`) on the first mismatch
 */
export async function checkPins(
  fs: Pick<FileSystem, 'resolve' | 'stat' | 'readText' | 'readBytes'>,
  root: string,
  pins: ReadonlyMap<string, string>,
  basis: ReadonlyMap<string, string> | undefined,
  prepared: readonly PreparedFile[],
  signal?: AbortSignal,
): Promise<void> {
  for (const [path, expected] of pins) {
    let text = basis?.get(path);
    if (text === undefined) {
      const file = prepared.find((candidate) => candidate.path === path);
      if (file?.snapshot.exists) text = file.snapshot.text;
    }
    if (text === undefined) {
      const snapshot = await readSnapshot(fs, await fs.resolve(path, { cwd: root, ...(signal ? { signal } : {}) }), signal);
      text = snapshot.exists ? snapshot.text : '';
    }
    if (sha256Hex(text) !== expected.toLowerCase()) {
      throw new ActionError(
        'LSP_ACTION_CONFLICT',
        `${path} is not the text the editor saw (expectedSha256 does not match the text the edit was computed against); ` +
          'nothing was written. Save or reload the file and re-run the action.',
        { paths: [path], reason: 'pin-mismatch' },
      );
    }
  }
}
