/**
 * Undoes the writes of a multi-file edit that failed part-way, through the same guarded seam:
 * each file is restored to its pre-edit bytes with `replaceIfVersion` of the version OUR write
 * produced, and only while it still holds the text we wrote (a same-size save within one kernel
 * timestamp tick keeps the version), so a file someone changed after our write keeps their
 * change (it is reported as not restored, never clobbered).
 *
 * Restores run without the call's signal: once files were written, leaving them half-applied
 * because the caller gave up would be the worse outcome.
 */
import type { FileSystem, FsVersion } from '@deepseek-ai/dsh-fs';
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import { fsErrorCode } from './fs-error-map.ts';
import { overwrittenText } from './overwritten-text.ts';
import type { PreparedFile } from './preflight.ts';
import { readSnapshot } from './read-snapshot.ts';

/** One file our edit wrote. */
export interface WrittenFile {
  file: PreparedFile;
  /** The version our write produced. */
  version: FsVersion;
  /**
   * What to put back instead of `file.before`: the text of a save our write replaced (detected
   * after the fact), so rolling back returns the user's save, not the older original.
   */
  restoreText?: string;
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
 * @param afterWrite runs after each restore (puts the owner back) and returns the version then
 * @returns which files were restored and which could not be (with the reason)
 */
export async function restoreWritten(
  fs: Pick<FileSystem, 'writeText' | 'stat' | 'readText' | 'readBytes'>,
  written: readonly WrittenFile[],
  policy: SandboxExecutionPolicy | undefined,
  afterWrite?: (file: PreparedFile, written: FsVersion) => Promise<FsVersion>,
): Promise<RollbackReport> {
  const report: RollbackReport = { restored: [], unrestored: [] };
  for (const { file, version, restoreText } of written.toReversed()) {
    const path = file.path;
    if (file.before === null) {
      report.unrestored.push({
        path,
        reason: 'the edit created it, and the harness file system cannot delete files; it is still there',
      });
      continue;
    }
    try {
      // The version alone is not proof the file still holds our write: a save of the same size
      // within one kernel timestamp tick keeps every field of it. Look at the text too.
      const now = await readSnapshot(fs, file.target);
      if (!now.exists || now.text !== file.after || now.bom !== file.bom) {
        report.unrestored.push({ path, reason: 'it was changed by someone else after our write; their change was kept' });
        continue;
      }
      const content = restoreText ?? (file.bom ? '\uFEFF' : '') + file.before;
      const outcome = await writeWithRetry(fs, file, content, version, policy);
      const theirs = overwrittenText(outcome.before, file.after, file.bom);
      if (theirs !== undefined) {
        // A save landed between that look and the restore: it goes back, and it wins.
        await fs.writeText(file.target, theirs, { kind: 'replaceIfVersion', version: outcome.version }, undefined, policy);
        report.unrestored.push({ path, reason: 'it was changed by someone else after our write; their change was kept' });
        continue;
      }
      report.restored.push({ path, file, version: afterWrite ? await afterWrite(file, outcome.version) : outcome.version });
    } catch (error) {
      const code = fsErrorCode(error);
      const detail = error instanceof Error ? error.message : String(error);
      report.unrestored.push({
        path,
        reason:
          code === 'FS_STALE_VERSION'
            ? 'it was changed by someone else after our write; their change was kept'
            : `restoring it failed: ${detail}; its original is kept in the write journal and is put back on the next start or write in this workspace`,
      });
    }
  }
  return report;
}

/** Restore attempts per file: a full disk or a busy directory may have recovered a moment later. */
const ATTEMPTS = 3;

async function writeWithRetry(
  fs: Pick<FileSystem, 'writeText'>,
  file: PreparedFile,
  content: string,
  version: FsVersion,
  policy: SandboxExecutionPolicy | undefined,
): Promise<{ version: FsVersion; before: string | null }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fs.writeText(file.target, content, { kind: 'replaceIfVersion', version }, undefined, policy);
    } catch (error) {
      if (attempt >= ATTEMPTS || fsErrorCode(error) === 'FS_STALE_VERSION' || fsErrorCode(error) === 'FS_SANDBOX_DENIED') throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
