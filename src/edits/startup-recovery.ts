/**
 * Interrupted edits when a process starts in a workspace. `serve` replays them eagerly
 * ({@link recoverAtStart}: the same replay the writer runs before its first action in a root,
 * `journal-recovery.ts`, with a node:fs way to delete the seam's staging leftovers). `check`
 * never writes, and never judges a half-written tree: {@link findInterruptedEdit} only reads, and
 * says which files still hold an interrupted edit's bytes (decision 0043).
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { confinedJournalTarget, describeRecovery, type RecoveryFs, type RecoveryReport, recoverWrites } from './journal-recovery.ts';
import { JournalStore } from './journal-store.ts';
import { journalOwnerRestorer, localOwnerOps } from './keep-owner.ts';
import { localFileMetadata } from './local-file-metadata.ts';
import { livenessOf } from './process-identity.ts';
import { readSnapshot } from './read-snapshot.ts';
import { runExclusiveWrite } from './write-drain.ts';
import { sameFolder, sha256Hex } from './write-journal.ts';

/**
 * @param fs the fs seam of the booted composition
 * @param roots the workspace roots to check
 * @param options the journal store; `removeStaging` deletes a staging folder; `report` receives one line per recovery, note or failure
 * @returns the reports of the roots where an interrupted edit was found
 */
export async function recoverAtStart(
  fs: FileSystem,
  roots: readonly string[],
  options: { store?: JournalStore; removeStaging?: (path: string) => Promise<void>; report: (line: string) => void },
): Promise<RecoveryReport[]> {
  const found: RecoveryReport[] = [];
  for (const root of roots) {
    try {
      const report = await runExclusiveWrite(root, () =>
        recoverWrites(fs, root, {
          ...(options.store ? { store: options.store } : {}),
          ...(options.removeStaging ? { removeStaging: options.removeStaging } : {}),
          restoreOwner: journalOwnerRestorer(fs, localOwnerOps(localFileMetadata)),
        }),
      );
      for (const line of describeRecovery(report)) options.report(line);
      if (report.found) found.push(report);
    } catch (error) {
      options.report(`could not check ${root} for an interrupted edit: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return found;
}

/** An interrupted (or running) edit that leaves a folder half-written now. */
export interface InterruptedEdit {
  root: string;
  journal: string;
  pid: number;
  startedAt: string;
  /** Whether its writer is still running (the edit is in progress). */
  running: boolean;
  /** Files holding the edit's new bytes. */
  written: string[];
  /** Files the edit writes. */
  total: number;
}

/**
 * Reads (never writes) whether an edit of ours left `root` half-written.
 * @param fs the fs seam
 * @param root the workspace folder
 * @param store the journal store
 * @returns the edit when some of its files hold its bytes (or its writer runs); a note when a
 *   journal there is not ours to judge by; nothing when the tree is whole
 */
export async function findInterruptedEdit(fs: RecoveryFs, root: string, store: JournalStore = new JournalStore()): Promise<{ edit?: InterruptedEdit; note?: string }> {
  const folder = await store.identify(root);
  if (folder === undefined) return {};
  const journal = store.pathOf(folder);
  const stored = await store.read(folder);
  if (stored.kind === 'none') return {};
  if (stored.kind === 'unusable') return { note: `the write journal ${journal} is not used (${stored.reason})` };
  const entry = stored.entry;
  if (!sameFolder(entry.folder, folder)) return { note: `the write journal ${journal} names another folder (${entry.folder.realPath}); it is not used` };
  const running = entry.state === 'writing' && livenessOf(entry.writer) === 'running';
  const written: string[] = [];
  for (const file of entry.files) {
    try {
      const { path, target } = await confinedJournalTarget(fs, root, file);
      const snapshot = await readSnapshot(fs, target);
      if (snapshot.exists && sha256Hex((snapshot.bom ? '\uFEFF' : '') + snapshot.text) === file.afterSha256) written.push(path);
    } catch {
      // outside, unreadable: not something the replay would restore either
    }
  }
  if (written.length === 0 && !running) return {};
  return { edit: { root, journal, pid: entry.writer.pid, startedAt: entry.startedAt, running, written, total: entry.files.length } };
}
