/**
 * Recovery of interrupted edits when a process starts in a workspace (`serve`, `check`): the
 * same replay the writer runs before its first action in a root (`journal-recovery.ts`), run
 * eagerly, with a caller-supplied way to delete the fs seam's staging leftovers (the seam has no
 * delete; the CLI may use node:fs). Says what it did on `report`.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { describeRecovery, type RecoveryReport, recoverWrites } from './journal-recovery.ts';
import { journalOwnerRestorer, localOwnerOps } from './keep-owner.ts';
import { localFileMetadata } from './local-file-metadata.ts';
import { runExclusiveWrite } from './write-drain.ts';

/**
 * @param fs the fs seam of the booted composition
 * @param roots the workspace roots to check
 * @param options `removeStaging` deletes a staging folder; `report` receives one line per recovery or failure
 * @returns the reports of the roots where an interrupted edit was found
 */
export async function recoverAtStart(
  fs: FileSystem,
  roots: readonly string[],
  options: { removeStaging?: (path: string) => Promise<void>; report: (line: string) => void },
): Promise<RecoveryReport[]> {
  const found: RecoveryReport[] = [];
  for (const root of roots) {
    try {
      const report = await runExclusiveWrite(root, () =>
        recoverWrites(fs, root, {
          ...(options.removeStaging ? { removeStaging: options.removeStaging } : {}),
          restoreOwner: journalOwnerRestorer(fs, localOwnerOps(localFileMetadata)),
        }),
      );
      if (!report.found) continue;
      found.push(report);
      options.report(describeRecovery(report));
    } catch (error) {
      options.report(`could not check ${root} for an interrupted edit: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return found;
}
