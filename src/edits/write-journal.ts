/**
 * The write journal's content: before the first file of an edit is written, its intent, every
 * original text and the SHA-256 of every new text are recorded (state `writing`); after the last
 * file (or a complete rollback) the journal is removed. A journal found by a process that is not
 * writing means a crash mid-edit: `journal-recovery.ts` puts the originals back.
 *
 * A journal is trusted only as far as it proves whose it is: it names the folder it was written
 * in by identity (device, inode, birth time and real path — `journal-store.ts`), its writer by
 * process identity (`process-identity.ts`), and its files by paths relative to that folder. The
 * parser here accepts only that shape; anything else is garbage, set aside, never replayed.
 * Where it lives and why: docs/decisions/0043-journal-outside-the-tree.md.
 */
import { createHash, randomUUID } from 'node:crypto';
import { isAbsolute, normalize, sep } from 'node:path';
import { ownProcessIdentity, type ProcessIdentity } from './process-identity.ts';

/** The journal format this version writes and replays. */
export const JOURNAL_FORMAT = 'dsh-lsp-actions/write-journal@2';

/** The identity of a workspace folder: a copy, a new folder reusing the inode, or a move differ in one of these. */
export interface FolderIdentity {
  /** The folder's real path (symbolic links followed). */
  realPath: string;
  /** `st_dev` and `st_ino` as decimal strings (bigint stat). */
  dev: string;
  ino: string;
  /** Birth time in nanoseconds as a decimal string ("0": unknown — the file system reports none, or it equals the change time). */
  birthtimeNs: string;
}

/** One file an edit in progress writes. */
export interface JournalFile {
  /** Relative to the folder, never absolute, never leaving it lexically. */
  path: string;
  /** Its text before the edit (`null`: the edit creates it). */
  before: string | null;
  bom: boolean;
  /** SHA-256 of the complete text the edit writes (BOM included): only a file holding exactly it is restored. */
  afterSha256: string;
  /** Owner, group and permission bits before the edit, when known (a local file): a restore puts them back. */
  owner?: JournalOwner;
}

/** A file's owner and permission bits as `stat(2)` gave them. */
export interface JournalOwner {
  uid: number;
  gid: number;
  mode: number;
}

/** A journal of an edit being written (or interrupted). */
export interface JournalEntry {
  format: typeof JOURNAL_FORMAT;
  /**
   * `writing`: `writer` is writing (or recovering) it now, if it runs. `interrupted`: nobody is —
   * a process that could not finish it let go of it, so whoever comes next replays it.
   */
  state: 'writing' | 'interrupted';
  /** Random, one per edit: a process replaces or removes only the entry it wrote or claimed. */
  writeId: string;
  /** The process writing (or recovering) it now. */
  writer: ProcessIdentity;
  /** Pids of earlier writers of this entry (the crashed edit, crashed recoveries): their staging folders are swept. */
  earlierPids: number[];
  startedAt: string;
  folder: FolderIdentity;
  files: JournalFile[];
}

/**
 * @param text UTF-8 text
 * @returns its lowercase hex SHA-256
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * @param folder the identity of the folder the edit writes in
 * @param files what the edit writes (paths relative to the folder)
 * @returns a `writing` entry for this process
 */
export function journalEntry(folder: FolderIdentity, files: JournalFile[]): JournalEntry {
  return {
    format: JOURNAL_FORMAT,
    state: 'writing',
    writeId: randomUUID(),
    writer: ownProcessIdentity(),
    earlierPids: [],
    startedAt: new Date().toISOString(),
    folder,
    files,
  };
}

/**
 * @param entry an interrupted entry
 * @returns the same entry claimed by this process (its earlier writers remembered for the staging sweep)
 */
export function claimedEntry(entry: JournalEntry): JournalEntry {
  const earlier = new Set([...entry.earlierPids, entry.writer.pid]);
  return { ...entry, state: 'writing', writeId: randomUUID(), writer: ownProcessIdentity(), earlierPids: [...earlier] };
}

/**
 * @param entry an entry this process holds but cannot finish (a restore failed)
 * @returns the same entry let go of: nobody writes it, the next process or write replays it
 */
export function releasedEntry(entry: JournalEntry): JournalEntry {
  const earlier = new Set([...entry.earlierPids, entry.writer.pid]);
  return { ...entry, state: 'interrupted', writeId: randomUUID(), earlierPids: [...earlier] };
}

/**
 * @param a a folder identity
 * @param b another
 * @returns whether they name the same folder
 */
export function sameFolder(a: FolderIdentity, b: FolderIdentity): boolean {
  // a birth time of "0" is unknown (no statx, or not told apart from the change time): not compared
  const born = a.birthtimeNs === b.birthtimeNs || a.birthtimeNs === '0' || b.birthtimeNs === '0';
  return a.realPath === b.realPath && a.dev === b.dev && a.ino === b.ino && born;
}

/**
 * @param path a journal file's path
 * @returns whether it is relative and stays inside its folder as written
 */
export function isFolderRelative(path: string): boolean {
  if (path === '' || isAbsolute(path) || path.includes('\0')) return false;
  const normal = normalize(path);
  return normal !== '..' && !normal.startsWith(`..${sep}`) && normal !== '.';
}

/**
 * @param text the journal file's content
 * @returns the entry, or a reason it is not one this version replays
 */
export function parseJournal(text: string): { entry: JournalEntry } | { garbage: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { garbage: 'it is not JSON' };
  }
  const entry = value as Partial<JournalEntry> | null;
  if (typeof entry !== 'object' || entry === null) return { garbage: 'it is not a JSON object' };
  if (entry.format !== JOURNAL_FORMAT || (entry.state !== 'writing' && entry.state !== 'interrupted')) {
    return { garbage: `its format is not ${JOURNAL_FORMAT} (state writing or interrupted)` };
  }
  if (!isIdentity(entry.writer)) return { garbage: 'it names no valid writer process' };
  if (!isFolder(entry.folder)) return { garbage: 'it names no valid folder identity' };
  if (typeof entry.writeId !== 'string' || !Array.isArray(entry.earlierPids) || !entry.earlierPids.every(isPid)) {
    return { garbage: 'its write id or earlier writers are malformed' };
  }
  if (!Array.isArray(entry.files) || !entry.files.every(isFile)) return { garbage: 'a file entry is malformed (paths must be relative to the folder)' };
  return {
    entry: {
      format: JOURNAL_FORMAT,
      state: entry.state,
      writeId: entry.writeId,
      writer: entry.writer,
      earlierPids: entry.earlierPids,
      startedAt: String(entry.startedAt ?? ''),
      folder: entry.folder,
      files: entry.files,
    },
  };
}

function isPid(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isIdentity(value: unknown): value is ProcessIdentity {
  const writer = value as Partial<ProcessIdentity> | null | undefined;
  return (
    typeof writer === 'object' &&
    writer !== null &&
    isPid(writer.pid) &&
    (writer.bootId === undefined || typeof writer.bootId === 'string') &&
    (writer.startTicks === undefined || (typeof writer.startTicks === 'string' && /^\d+$/.test(writer.startTicks)))
  );
}

function isFolder(value: unknown): value is FolderIdentity {
  const folder = value as Partial<FolderIdentity> | null | undefined;
  return (
    typeof folder === 'object' &&
    folder !== null &&
    typeof folder.realPath === 'string' &&
    isAbsolute(folder.realPath) &&
    [folder.dev, folder.ino, folder.birthtimeNs].every((field) => typeof field === 'string' && /^\d+$/.test(field))
  );
}

function isFile(value: unknown): value is JournalFile {
  const file = value as Partial<JournalFile> | null | undefined;
  if (typeof file !== 'object' || file === null) return false;
  if (typeof file.path !== 'string' || !isFolderRelative(file.path)) return false;
  if (!(file.before === null || typeof file.before === 'string') || typeof file.bom !== 'boolean') return false;
  if (typeof file.afterSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(file.afterSha256)) return false;
  if (file.owner === undefined) return true;
  const owner = file.owner as Partial<JournalOwner> | null;
  return typeof owner === 'object' && owner !== null && [owner.uid, owner.gid, owner.mode].every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
}
