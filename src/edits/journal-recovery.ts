/**
 * Replays a write journal left in state `writing` by a process that stopped mid-edit (SIGKILL,
 * power loss, or a rollback that could not finish): every file still holding exactly what the
 * edit wrote gets its original text back; a file holding its original is left alone; a file
 * someone changed since is left with their change and reported. Staging folders the fs seam
 * left next to those files are removed when the caller can delete (the seam cannot), otherwise
 * reported. The journal is reset to idle unless a restore failed (then it stays, and the next
 * start or write retries).
 */
import { basename, dirname } from 'node:path';
import type { FileSystem, FsTarget, FsVersion } from '@deepseek-ai/dsh-fs';
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import { fsErrorCode } from './fs-error-map.ts';
import { readSnapshot } from './read-snapshot.ts';
import {
  isOtherLiveProcess,
  JOURNAL_DIR,
  type JournalEntry,
  type JournalFile,
  type JournalOwner,
  type JournalState,
  readJournal,
  sha256Hex,
  writeJournal,
} from './write-journal.ts';

/** What a recovery did. */
export interface RecoveryReport {
  root: string;
  /** Whether a journal of an interrupted edit was found (false: nothing to do). */
  found: boolean;
  /** Files put back to their original text. */
  restored: string[];
  /** Files that still held their original text (the edit had not reached them). */
  untouched: string[];
  /** Files that could not be put back, and why (someone changed them, or the write failed). */
  unrestored: Array<{ path: string; reason: string }>;
  /** Staging folders of the interrupted writes that were removed. */
  stagingRemoved: string[];
  /** Staging folders found but left (no way to delete them here). */
  stagingLeft: string[];
  /** Whether the journal was reset (false when a restore failed and will be retried). */
  cleared: boolean;
}

/** What a recovery needs. */
export interface RecoveryOptions {
  policy?: SandboxExecutionPolicy;
  /** Deletes a staging folder (the CLI passes a node:fs one; the fs seam has no delete). */
  removeStaging?: (path: string) => Promise<void>;
  /**
   * Puts a restored file's owner back (the seam's replace gives it the writer's); called after
   * each restore whose journal entry recorded the owner. Omitted: owners are left as the seam
   * leaves them. A failure only costs the owner, never the restore.
   */
  restoreOwner?: (target: FsTarget, owner: JournalOwner, written: FsVersion) => Promise<void>;
}

/** The fs primitives a recovery needs. */
export type RecoveryFs = Pick<FileSystem, 'resolve' | 'stat' | 'lstat' | 'readText' | 'readBytes' | 'writeText' | 'listDir'>;

/** `.<name>.<pid>.<uuid>.tmpdir`: the seam's staging folder for `<name>`. */
const STAGING = /^\.(.+)\.(\d+)\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmpdir$/;

/**
 * @param fs the fs seam
 * @param root the workspace root
 * @param options sandbox policy, staging remover
 * @param state the journal as already read (read here when omitted)
 * @returns what was done; `found: false` when the journal is idle, absent, or owned by a live
 *   process (whose edit is still running)
 */
export async function recoverWrites(fs: RecoveryFs, root: string, options: RecoveryOptions = {}, state?: JournalState): Promise<RecoveryReport> {
  const journal = state ?? (await readJournal(fs, root));
  const report: RecoveryReport = { root, found: false, restored: [], untouched: [], unrestored: [], stagingRemoved: [], stagingLeft: [], cleared: false };
  const entry = journal.entry;
  if (entry === undefined || isOtherLiveProcess(entry.pid)) return report;
  report.found = true;
  let failed = false;
  for (const file of entry.files) {
    failed = (await restoreOne(fs, root, file, options, report)) || failed;
  }
  await sweepStaging(fs, root, entry, options, report);
  if (!failed) {
    // Removing a staging folder can change the journal's version (a create publishes by hard
    // link, so dropping the staged name changes the link count): re-read it, same entry or stop.
    const fresh = await readJournal(fs, root);
    if (fresh.entry?.pid !== entry.pid || fresh.entry.startedAt !== entry.startedAt) return report;
    await writeJournal(fs, fresh, undefined, options.policy);
    report.cleared = true;
  }
  return report;
}

/**
 * @param report a recovery report with `found`
 * @returns one line saying what was done
 */
export function describeRecovery(report: RecoveryReport): string {
  const parts = [`recovered an interrupted edit in ${report.root}`];
  parts.push(report.restored.length > 0 ? `restored ${report.restored.join(', ')}` : 'no file needed restoring');
  if (report.untouched.length > 0) parts.push(`untouched ${report.untouched.join(', ')}`);
  if (report.unrestored.length > 0) parts.push(`NOT restored ${report.unrestored.map((u) => `${u.path} (${u.reason})`).join('; ')}`);
  if (report.stagingRemoved.length > 0) parts.push(`removed staging ${report.stagingRemoved.join(', ')}`);
  if (report.stagingLeft.length > 0) parts.push(`staging left (delete by hand) ${report.stagingLeft.join(', ')}`);
  if (!report.cleared) parts.push('the journal is kept and recovery is retried on the next start or write');
  return parts.join('; ');
}

/** @returns true when a restore failed for a reason worth retrying */
async function restoreOne(fs: RecoveryFs, root: string, file: JournalFile, options: RecoveryOptions, report: RecoveryReport): Promise<boolean> {
  let target: FsTarget;
  try {
    target = await fs.resolve(file.path, { cwd: root });
    const snapshot = await readSnapshot(fs, target);
    if (!snapshot.exists) {
      if (file.before === null) report.untouched.push(file.path);
      else report.unrestored.push({ path: file.path, reason: 'it was deleted since the edit started' });
      return false;
    }
    const current = (snapshot.bom ? '\uFEFF' : '') + snapshot.text;
    const original = file.before === null ? null : (file.bom ? '\uFEFF' : '') + file.before;
    if (original !== null && current === original) {
      report.untouched.push(file.path);
      return false;
    }
    if (sha256Hex(current) !== file.afterSha256) {
      report.unrestored.push({ path: file.path, reason: 'it was changed by someone else after the edit started; their change was kept' });
      return false;
    }
    if (original === null) {
      report.unrestored.push({ path: file.path, reason: 'the edit created it, and the harness file system cannot delete files; it is still there' });
      return false;
    }
    const outcome = await fs.writeText(target, original, { kind: 'replaceIfVersion', version: snapshot.version }, undefined, options.policy);
    report.restored.push(file.path);
    if (options.restoreOwner !== undefined && isOwner(file.owner)) await options.restoreOwner(target, file.owner, outcome.version).catch(() => undefined);
    return false;
  } catch (error) {
    const code = fsErrorCode(error);
    if (code === 'FS_STALE_VERSION') {
      report.unrestored.push({ path: file.path, reason: 'it changed while being restored; the newer content was kept' });
      return false;
    }
    report.unrestored.push({ path: file.path, reason: `restoring it failed: ${error instanceof Error ? error.message : String(error)}` });
    return true;
  }
}

async function sweepStaging(fs: RecoveryFs, root: string, entry: JournalEntry, options: RecoveryOptions, report: RecoveryReport): Promise<void> {
  const names = new Map<string, Set<string>>();
  const note = (dir: string, name: string): void => {
    const set = names.get(dir) ?? new Set<string>();
    set.add(name);
    names.set(dir, set);
  };
  for (const file of entry.files) note(dirname(file.path), basename(file.path));
  note(`${root}/${JOURNAL_DIR}`, 'write-journal.json');
  for (const [dir, wanted] of names) {
    let entries;
    try {
      entries = await fs.listDir(await fs.resolve(dir, { cwd: root }));
    } catch {
      continue;
    }
    for (const item of entries) {
      const match = STAGING.exec(item.name);
      if (!match || !wanted.has(match[1] ?? '') || Number(match[2]) !== entry.pid) continue;
      const path = `${dir}/${item.name}`;
      if (options.removeStaging === undefined) {
        report.stagingLeft.push(path);
        continue;
      }
      try {
        await options.removeStaging(path);
        report.stagingRemoved.push(path);
      } catch {
        report.stagingLeft.push(path);
      }
    }
  }
}

function isOwner(value: unknown): value is JournalOwner {
  const owner = value as Partial<JournalOwner> | undefined;
  return typeof owner?.uid === 'number' && typeof owner.gid === 'number' && typeof owner.mode === 'number';
}
