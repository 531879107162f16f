/**
 * Undoes the writes of a multi-file edit that failed part-way, through the same guarded seam:
 * each file is restored to its pre-edit bytes with `replaceIfVersion` of the version OUR write
 * produced, so a file someone changed after our write keeps their change (it is reported as not
 * restored, never clobbered).
 *
 * Restores run without the call's signal: once files were written, leaving them half-applied
 * because the caller gave up would be the worse outcome.
 */
import type { FileSystem, FsVersion } from '@deepseek-ai/dsh-fs';
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import { fsErrorCode } from './fs-error-map.ts';
import type { PreparedFile } from './preflight.ts';

/** One file our edit wrote. */
export interface WrittenFile {
  file: PreparedFile;
  /** The version our write produced. */
  version: FsVersion;
}

/** A file that was restored to its pre-edit content. */
export interface RestoredFile {
  path: string;
  file: PreparedFile;
  /** The version the restore produced. */
  version: FsVersion;
}

/** A file that could not be restored, and why. */
export interface UnrestoredFile {
  path: string;
  reason: string;
}

/** What a rollback did. */
export interface RollbackReport {
  restored: RestoredFile[];
  unrestored: UnrestoredFile[];
}

/**
 * @param fs the harness file system
 * @param written the files already written, in write order
 * @param policy the sandbox policy the writes ran under
 * @returns which files were restored and which could not be (with the reason)
 */
export async function restoreWritten(
  fs: Pick<FileSystem, 'writeText'>,
  written: readonly WrittenFile[],
  policy: SandboxExecutionPolicy | undefined,
): Promise<RollbackReport> {
  const report: RollbackReport = { restored: [], unrestored: [] };
  for (const { file, version } of written.toReversed()) {
    const path = file.path;
    if (file.before === null) {
      report.unrestored.push({
        path,
        reason: 'the edit created it, and the harness file system cannot delete files; it is still there',
      });
      continue;
    }
    try {
      const content = (file.bom ? '\uFEFF' : '') + file.before;
      const outcome = await fs.writeText(file.target, content, { kind: 'replaceIfVersion', version }, undefined, policy);
      report.restored.push({ path, file, version: outcome.version });
    } catch (error) {
      const code = fsErrorCode(error);
      const detail = error instanceof Error ? error.message : String(error);
      report.unrestored.push({
        path,
        reason:
          code === 'FS_STALE_VERSION'
            ? 'it was changed by someone else after our write; their change was kept'
            : `restoring it failed: ${detail}`,
      });
    }
  }
  return report;
}
