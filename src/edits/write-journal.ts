/**
 * The write journal: before the first file of an edit is written, its intent and every original
 * text go to `<workspace>/.dsh-lsp-actions/write-journal.json` (state `writing`); after the last
 * file (or a complete rollback) the journal is reset to `idle`. A journal found in state
 * `writing` by a process that is not writing means a crash mid-edit: `journal-recovery.ts` puts
 * the originals back. See docs/decisions/0040-write-journal.md for why it lives there.
 *
 * Everything goes through the fs seam (`writeText` with a version guard): the seam has no
 * delete, so "removed after the last write" is "reset to idle".
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FileSystem, FsTarget, FsVersion } from '@deepseek-ai/dsh-fs';
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import { ActionError } from '../errors.ts';
import { toWriteActionError } from './fs-error-map.ts';

/** The journal's directory, relative to the workspace root. */
export const JOURNAL_DIR = '.dsh-lsp-actions';
/** The journal's file name inside {@link JOURNAL_DIR}. */
export const JOURNAL_FILE = 'write-journal.json';
const FORMAT = 'dsh-lsp-actions/write-journal@1';

/** One file an edit in progress writes. */
export interface JournalFile {
  path: string;
  /** Its text before the edit (`null`: the edit creates it). */
  before: string | null;
  bom: boolean;
  /** SHA-256 of the complete text the edit writes (BOM included), to recognise our write. */
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

/** A journal in state `writing`. */
export interface JournalEntry {
  format: typeof FORMAT;
  state: 'writing';
  pid: number;
  startedAt: string;
  root: string;
  files: JournalFile[];
}

/** What is on disk now. */
export interface JournalState {
  target: FsTarget;
  /** The journal file's version (undefined: there is none). */
  version?: FsVersion;
  /** The edit in progress (undefined: idle or none). */
  entry?: JournalEntry;
}

/** The fs primitives the journal needs. */
export type JournalFs = Pick<FileSystem, 'resolve' | 'stat' | 'readText' | 'writeText'>;

/**
 * @param text UTF-8 text
 * @returns its lowercase hex SHA-256
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * @param root the workspace root
 * @returns the journal's absolute path
 */
export function journalPath(root: string): string {
  return join(root, JOURNAL_DIR, JOURNAL_FILE);
}

/**
 * @param fs the fs seam
 * @param root the workspace root
 * @returns the journal's state; an unreadable or foreign file counts as idle at its version
 */
export async function readJournal(fs: JournalFs, root: string): Promise<JournalState> {
  const path = journalPath(root);
  try {
    const target = await fs.resolve(path, { cwd: root });
    const info = await fs.stat(target);
    if (info === undefined) return { target };
    const text = await fs.readText(target);
    const entry = parseEntry(text);
    return { target, version: info.version, ...(entry ? { entry } : {}) };
  } catch (error) {
    throw toWriteActionError(error, { path, stage: 'read' });
  }
}

/**
 * Writes the journal, guarded by the version it had when read (or created when absent).
 * @param fs the fs seam
 * @param state the journal as last read or written
 * @param entry the edit in progress, or `undefined` for idle
 * @param policy the sandbox policy of the write
 * @returns the journal's new state
 * @throws ActionError `LSP_ACTION_CONFLICT` (reason `journal-busy`) when another process changed
 *   it since; the mapped fs error otherwise
 */
export async function writeJournal(
  fs: JournalFs,
  state: JournalState,
  entry: JournalEntry | undefined,
  policy: SandboxExecutionPolicy | undefined,
): Promise<JournalState> {
  const text = entry === undefined ? `${JSON.stringify({ format: FORMAT, state: 'idle' })}\n` : `${JSON.stringify(entry)}\n`;
  const guard = state.version === undefined ? ({ kind: 'createIfAbsent' } as const) : ({ kind: 'replaceIfVersion', version: state.version } as const);
  try {
    const outcome = await fs.writeText(state.target, text, guard, undefined, policy);
    return { target: state.target, version: outcome.version, ...(entry ? { entry } : {}) };
  } catch (error) {
    const mapped = toWriteActionError(error, { path: state.target.displayPath, stage: 'write' });
    if (mapped.code !== 'LSP_ACTION_CONFLICT') throw mapped;
    throw new ActionError(
      'LSP_ACTION_CONFLICT',
      `another process is writing in this workspace (its write journal ${state.target.displayPath} changed); nothing was written. Re-run the action.`,
      { paths: [state.target.displayPath], reason: 'journal-busy' },
      { cause: mapped },
    );
  }
}

/**
 * @param root the workspace root
 * @param files what the edit writes
 * @returns a `writing` entry for this process
 */
export function journalEntry(root: string, files: JournalFile[]): JournalEntry {
  return { format: FORMAT, state: 'writing', pid: process.pid, startedAt: new Date().toISOString(), root, files };
}

/**
 * @param pid a process id from a journal
 * @returns whether that process is alive (and is not this one)
 */
export function isOtherLiveProcess(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseEntry(text: string): JournalEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Partial<JournalEntry>;
  if (entry.format !== FORMAT || entry.state !== 'writing' || !Array.isArray(entry.files) || typeof entry.pid !== 'number') return undefined;
  const files = entry.files.filter(
    (file): file is JournalFile =>
      typeof file === 'object' &&
      file !== null &&
      typeof file.path === 'string' &&
      (file.before === null || typeof file.before === 'string') &&
      typeof file.bom === 'boolean' &&
      typeof file.afterSha256 === 'string',
  );
  return { format: FORMAT, state: 'writing', pid: entry.pid, startedAt: String(entry.startedAt ?? ''), root: String(entry.root ?? ''), files };
}
