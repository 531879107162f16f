/**
 * Journals as a crash (or an attacker) leaves them, planted straight into a journal store with
 * node:fs: set-up and inspection only; the code under test reads them through `journal-store.ts`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JournalStore } from '../../src/edits/journal-store.ts';
import { ownProcessIdentity } from '../../src/edits/process-identity.ts';
import { type FolderIdentity, JOURNAL_FORMAT, type JournalEntry, type JournalOwner, sha256Hex } from '../../src/edits/write-journal.ts';

/** A pid no process has (above Linux's pid_max limit of 2^22). */
export const DEAD_PID = 4_194_305;

/** One file of a planted journal: `path` relative to the folder (or anything an attacker writes). */
export interface PlantedFile {
  path: string;
  before: string | null;
  bom?: boolean;
  after: string;
  owner?: JournalOwner;
}

/**
 * @param store the store
 * @param root the folder
 * @returns its identity (the folder must exist)
 */
export async function folderOf(store: JournalStore, root: string): Promise<FolderIdentity> {
  const folder = await store.identify(root);
  if (folder === undefined) throw new Error(`${root} is not a local folder`);
  return folder;
}

/**
 * Writes a journal of an edit whose writer died (or whatever `overrides` say) at `root`'s key.
 * @returns the entry written
 */
export async function plantJournal(
  store: JournalStore,
  root: string,
  files: PlantedFile[],
  overrides: Partial<JournalEntry> = {},
): Promise<JournalEntry> {
  const folder = await folderOf(store, root);
  const me = ownProcessIdentity();
  const entry: JournalEntry = {
    format: JOURNAL_FORMAT,
    state: 'writing',
    writeId: randomUUID(),
    writer: { pid: DEAD_PID, ...(me.bootId ? { bootId: me.bootId } : {}), startTicks: '1' },
    earlierPids: [],
    startedAt: new Date().toISOString(),
    folder,
    files: files.map((file) => ({
      path: file.path,
      before: file.before,
      bom: file.bom ?? false,
      afterSha256: sha256Hex(file.after),
      ...(file.owner ? { owner: file.owner } : {}),
    })),
    ...overrides,
  };
  plantText(store, folder, JSON.stringify(entry));
  return entry;
}

/** Writes `text` as the folder's journal file. */
export function plantText(store: JournalStore, folder: FolderIdentity, text: string): void {
  const path = store.pathOf(folder);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, text, { mode: 0o600 });
}

/**
 * @returns the folder's journal as JSON, or undefined when there is none
 */
export async function journalOf(store: JournalStore, root: string): Promise<Record<string, unknown> | undefined> {
  const path = store.pathOf(await folderOf(store, root));
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : undefined;
}
