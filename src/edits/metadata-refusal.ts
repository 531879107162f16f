/**
 * The pre-flight's last check: files whose local metadata says the seam's rename-based replace
 * would do something an editor would not.
 *
 * - **Read-only file** (no write bit for anyone, e.g. mode 0444): an editor refuses to save it.
 *   The seam would replace it anyway (the rename needs only the directory to be writable, and
 *   root ignores permission bits), so it is refused here.
 * - **Hard link** (`nlink > 1`): the replace gives this name a new inode, so the other names keep
 *   the old text and the link is split for good. The seam has no in-place write, so it is refused.
 *
 * Both are `LSP_ACTION_CONFLICT` with `details.reason` `"read-only-file"` / `"hard-link"` and
 * every such path in `details.paths`; the whole edit is refused before anything is written.
 * Files without metadata (a non-local backend, or a file the edit creates) are not checked.
 * See docs/decisions/0041-write-metadata.md.
 */
import { ActionError } from '../errors.ts';
import type { LocalFileMetadata } from './local-file-metadata.ts';

/** What the check looks at in one pre-flighted file. */
export interface MetadataCandidate {
  path: string;
  /** Whether the edit writes the file. */
  changed: boolean;
  /** Its local metadata at plan time; undefined when unknown. */
  metadata?: LocalFileMetadata;
}

/** Any of the owner, group and other write bits. */
const WRITE_BITS = 0o222;

/**
 * @param files every file of the edit
 * @throws ActionError `LSP_ACTION_CONFLICT` (`read-only-file` first, else `hard-link`) naming
 *   every file refused for that reason
 */
export function refuseUnsafeMetadata(files: readonly MetadataCandidate[]): void {
  const written = files.filter((file) => file.changed && file.metadata !== undefined);
  const readOnly = written.filter((file) => ((file.metadata?.mode ?? WRITE_BITS) & WRITE_BITS) === 0);
  if (readOnly.length > 0) {
    const paths = readOnly.map((file) => file.path);
    throw new ActionError(
      'LSP_ACTION_CONFLICT',
      `${paths.join(', ')} ${paths.length === 1 ? 'is' : 'are'} read-only (no write permission bit, mode ` +
        `${readOnly.map((file) => octal(file.metadata)).join(', ')}); the whole edit was refused and nothing was written. ` +
        'Make the file writable (chmod u+w) and re-run the action.',
      { paths, reason: 'read-only-file' },
    );
  }
  const linked = written.filter((file) => (file.metadata?.nlink ?? 1) > 1);
  if (linked.length > 0) {
    const paths = linked.map((file) => file.path);
    throw new ActionError(
      'LSP_ACTION_CONFLICT',
      `${paths.join(', ')} ${paths.length === 1 ? 'has' : 'have'} other hard links (${linked.map((file) => `${file.metadata?.nlink ?? '?'} names`).join(', ')}); ` +
        'writing would replace this name with a new file and leave the other names with the old text, so the whole edit ' +
        'was refused and nothing was written. Break the link yourself (copy the file over its name) or edit it in place.',
      { paths, reason: 'hard-link' },
    );
  }
}

function octal(metadata: LocalFileMetadata | undefined): string {
  return metadata === undefined ? '?' : `0${(metadata.mode & 0o7777).toString(8).padStart(3, '0')}`;
}
