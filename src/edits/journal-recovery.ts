/**
 * Finishes our own interrupted write, and nothing else. A journal left by a process that stopped
 * mid-edit (SIGKILL, power loss, a rollback that could not finish) is replayed only when:
 * - it is a well-formed journal of this version, read without following a link
 *   (`journal-store.ts`); otherwise it is set aside (renamed, named in the report), never replayed;
 * - it names this very folder (device, inode, birth time, real path): a journal of another
 *   folder — a copy, a move, a new folder on a reused inode — is set aside;
 * - its writer is gone (`process-identity.ts`); a running writer's edit is left to it (`busy`).
 * Then, per file: its path is confined to the folder exactly as a request path is (lexically and
 * with symbolic links followed, `workspace-containment.ts`), and it is restored only when its
 * bytes are exactly what the interrupted edit wrote (SHA-256); a file someone changed since is
 * left alone and named. Owner and mode go back to that file's recorded original, without
 * set-user-ID, set-group-ID or sticky bits.
 *
 * Before touching anything the recovering process claims the journal (it becomes its writer and
 * remembers the earlier ones), so a crash during recovery leaves a journal whose next replay also
 * sweeps this process's staging folders. The journal is removed when every restore that was
 * needed succeeded; otherwise it stays, let go of (`interrupted`), and the next start or write —
 * of this process or another — retries.
 */
import { basename, dirname, join } from 'node:path';
import type { FileSystem, FsTarget, FsVersion } from '@deepseek-ai/dsh-fs';
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import { isActionError } from '../errors.ts';
import { confinePath } from '../workspace-containment.ts';
import { fsErrorCode } from './fs-error-map.ts';
import { JournalStore } from './journal-store.ts';
import { livenessOf } from './process-identity.ts';
import { readSnapshot } from './read-snapshot.ts';
import { claimedEntry, type JournalEntry, releasedEntry, type JournalFile, type JournalOwner, sameFolder, sha256Hex } from './write-journal.ts';

/** What a recovery did. */
export interface RecoveryReport {
  root: string;
  /** Whether a journal of an interrupted edit of ours was found and replayed (false: nothing replayed). */
  found: boolean;
  /** Set when the journal's writer is running now (its edit is in progress): nothing was done. */
  busy?: { pid: number; journal: string };
  /** Files put back to their original text. */
  restored: string[];
  /** Files that still held their original text (the edit had not reached them). */
  untouched: string[];
  /** Files that could not or must not be put back, and why (changed since, outside, failed). */
  unrestored: Array<{ path: string; reason: string }>;
  /** Staging folders of the interrupted writes that were removed. */
  stagingRemoved: string[];
  /** Staging folders found but left (no way to delete them here). */
  stagingLeft: string[];
  /** Whether the journal was removed (false when a restore failed and will be retried). */
  cleared: boolean;
  /** Journals not replayed (garbage, a link, another folder's), each with where it was set aside. */
  notes: string[];
}

/** What a recovery needs. */
export interface RecoveryOptions {
  /** Where the journals are (default: the per-user state directory). */
  store?: JournalStore;
  policy?: SandboxExecutionPolicy;
  /** Deletes a staging folder (the CLI passes a node:fs one; the fs seam has no delete). */
  removeStaging?: (path: string) => Promise<void>;
  /**
   * Puts a restored file's owner back (the seam's replace gives it the writer's); called after
   * each restore whose journal entry recorded the owner. A failure only costs the owner, never the restore.
   */
  restoreOwner?: (target: FsTarget, owner: JournalOwner, written: FsVersion) => Promise<void>;
}

/** The fs primitives a recovery needs. */
export type RecoveryFs = Pick<FileSystem, 'resolve' | 'contains' | 'stat' | 'readText' | 'readBytes' | 'writeText' | 'listDir'>;

/**
 * Write ids of the edits this process is writing now. A journal of this very process is a
 * leftover (a rollback that could not finish) unless its edit is still being written here —
 * e.g. by a request naming the same folder through another path, under another root lock.
 */
export const ownEditsInFlight = new Set<string>();

/** `.<name>.<pid>.<uuid>.tmpdir`: the seam's staging folder for `<name>`. */
const STAGING = /^\.(.+)\.(\d+)\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmpdir$/;

/**
 * @param fs the fs seam
 * @param root the workspace folder (already confined to the served folders)
 * @param options store, sandbox policy, staging remover, owner restorer
 * @returns what was done; `found: false` when there is nothing of ours to replay
 */
export async function recoverWrites(fs: RecoveryFs, root: string, options: RecoveryOptions): Promise<RecoveryReport> {
  const report: RecoveryReport = { root, found: false, restored: [], untouched: [], unrestored: [], stagingRemoved: [], stagingLeft: [], cleared: false, notes: [] };
  const store = options.store ?? new JournalStore();
  const folder = await store.identify(root);
  if (folder === undefined) return report;
  const journal = store.pathOf(folder);
  const stored = await store.read(folder);
  if (stored.kind === 'none') return report;
  if (stored.kind === 'unusable') {
    const aside = await store.setAside(folder, 'unusable');
    report.notes.push(`the write journal ${journal} was not replayed (${stored.reason}); it was set aside as ${aside}`);
    return report;
  }
  const entry = stored.entry;
  if (!sameFolder(entry.folder, folder)) {
    const aside = await store.setAside(folder, 'foreign');
    report.notes.push(
      `the write journal ${journal} names another folder (${entry.folder.realPath}, inode ${entry.folder.ino}) than ${folder.realPath}; ` +
        `it was not replayed and was set aside as ${aside}`,
    );
    return report;
  }
  const liveness = entry.state === 'interrupted' ? 'gone' : livenessOf(entry.writer);
  if (liveness === 'running' || (liveness === 'this-process' && ownEditsInFlight.has(entry.writeId))) {
    report.busy = { pid: entry.writer.pid, journal };
    return report;
  }
  const claimed = claimedEntry(entry);
  if (!(await store.replace(claimed, entry.writeId))) return report;
  report.found = true;
  let failed = false;
  for (const file of entry.files) {
    failed = (await restoreOne(fs, root, file, options, report)) || failed;
  }
  await sweepStaging(fs, root, claimed, options, report);
  if (!failed) report.cleared = await store.remove(folder, claimed.writeId);
  // a restore failed (e.g. denied by a read-only sandbox): let go, so no process waits on this one
  else await store.replace(releasedEntry(claimed), claimed.writeId);
  return report;
}

/**
 * @param report a recovery report
 * @returns one line per thing worth saying (empty when nothing was found)
 */
export function describeRecovery(report: RecoveryReport): string[] {
  const lines = [...report.notes];
  if (report.busy !== undefined) {
    lines.push(`an edit in ${report.root} is being written by pid ${report.busy.pid} (journal ${report.busy.journal}); it was left to it`);
  }
  if (!report.found) return lines;
  const parts = [`recovered an interrupted edit in ${report.root}`];
  parts.push(report.restored.length > 0 ? `restored ${report.restored.join(', ')}` : 'no file needed restoring');
  if (report.untouched.length > 0) parts.push(`untouched ${report.untouched.join(', ')}`);
  if (report.unrestored.length > 0) parts.push(`NOT restored ${report.unrestored.map((u) => `${u.path} (${u.reason})`).join('; ')}`);
  if (report.stagingRemoved.length > 0) parts.push(`removed staging ${report.stagingRemoved.join(', ')}`);
  if (report.stagingLeft.length > 0) parts.push(`staging left (delete by hand) ${report.stagingLeft.join(', ')}`);
  if (!report.cleared) parts.push('the journal is kept and recovery is retried on the next start or write');
  lines.push(parts.join('; '));
  return lines;
}

/**
 * @param fs the fs seam
 * @param root the folder
 * @param file a journal file (path relative to the folder)
 * @returns the confined absolute path and its resolved target
 * @throws ActionError `LSP_ACTION_OUTSIDE_WORKSPACE` when it leaves the folder (symbolic links followed)
 */
export async function confinedJournalTarget(fs: RecoveryFs, root: string, file: JournalFile): Promise<{ path: string; target: FsTarget }> {
  const path = await confinePath(fs, root, file.path, { field: 'write journal entry' });
  return { path, target: await fs.resolve(path, { cwd: root }) };
}

/** @returns true when a restore failed for a reason worth retrying */
async function restoreOne(fs: RecoveryFs, root: string, file: JournalFile, options: RecoveryOptions, report: RecoveryReport): Promise<boolean> {
  let path = join(root, file.path);
  try {
    const confined = await confinedJournalTarget(fs, root, file);
    path = confined.path;
    const target = confined.target;
    const snapshot = await readSnapshot(fs, target);
    if (!snapshot.exists) {
      if (file.before === null) report.untouched.push(path);
      else report.unrestored.push({ path, reason: 'it was deleted since the edit started' });
      return false;
    }
    const current = (snapshot.bom ? '\uFEFF' : '') + snapshot.text;
    const original = file.before === null ? null : (file.bom ? '\uFEFF' : '') + file.before;
    if (original !== null && current === original) {
      report.untouched.push(path);
      return false;
    }
    if (sha256Hex(current) !== file.afterSha256) {
      report.unrestored.push({ path, reason: 'it was changed by someone else after the edit started; their change was kept' });
      return false;
    }
    if (original === null) {
      report.unrestored.push({ path, reason: 'the edit created it, and the harness file system cannot delete files; it is still there' });
      return false;
    }
    const outcome = await fs.writeText(target, original, { kind: 'replaceIfVersion', version: snapshot.version }, undefined, options.policy);
    report.restored.push(path);
    if (options.restoreOwner !== undefined && file.owner !== undefined) await options.restoreOwner(target, file.owner, outcome.version).catch(() => undefined);
    return false;
  } catch (error) {
    if (isActionError(error) && error.code === 'LSP_ACTION_OUTSIDE_WORKSPACE') {
      report.unrestored.push({ path, reason: 'it lies outside the workspace folder (symbolic links followed); it was not touched' });
      return false;
    }
    if (fsErrorCode(error) === 'FS_STALE_VERSION' || (isActionError(error) && error.code === 'LSP_ACTION_CONFLICT')) {
      report.unrestored.push({ path, reason: 'it changed while being restored; the newer content was kept' });
      return false;
    }
    report.unrestored.push({ path, reason: `restoring it failed: ${error instanceof Error ? error.message : String(error)}` });
    return true;
  }
}

async function sweepStaging(fs: RecoveryFs, root: string, entry: JournalEntry, options: RecoveryOptions, report: RecoveryReport): Promise<void> {
  const pids = new Set(entry.earlierPids);
  const names = new Map<string, Set<string>>();
  for (const file of entry.files) {
    const dir = dirname(file.path);
    const set = names.get(dir) ?? new Set<string>();
    set.add(basename(file.path));
    names.set(dir, set);
  }
  for (const [dir, wanted] of names) {
    let where: string;
    let entries;
    try {
      // the directory too is confined: a link there must not lead the sweep out of the folder
      where = await confinePath(fs, root, dir, { field: 'write journal entry' });
      entries = await fs.listDir(await fs.resolve(where, { cwd: root }));
    } catch {
      continue;
    }
    for (const item of entries) {
      const match = STAGING.exec(item.name);
      if (!match || !wanted.has(match[1] ?? '') || !pids.has(Number(match[2]))) continue;
      const path = join(where, item.name);
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
