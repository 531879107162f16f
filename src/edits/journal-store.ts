/**
 * Where write journals live: a per-user state directory, one file per workspace folder keyed by
 * the folder's identity (`<dir>/journals/<dev>-<ino>.json`), never inside the user's tree. A
 * copied folder has another inode, so it carries no journal; a journal cannot be planted by a
 * cloned repository; the tree stays clean. Directory: `DSH_LSP_ACTIONS_STATE_DIR`, else
 * `$XDG_STATE_HOME/dsh-lsp-actions`, else `~/.local/state/dsh-lsp-actions`.
 *
 * The journal is this process's own bookkeeping (like a lock file), so it is kept with `node:fs`
 * on the local disk of the process that writes, not through the harness fs seam: the sandbox
 * fence would put it out of reach, and the seam cannot refuse a symbolic link. Here:
 * - the `journals` directory is created 0700 and must be a real directory owned by us, writable
 *   by no one else; the journal file is opened with `O_NOFOLLOW` and must be a regular file
 *   owned by us — a link or a foreign file is not read;
 * - a new journal is published by `link(2)` of a fully written, fsync'd temporary file, so it
 *   appears complete and only if none exists (exclusive creation); our own entry is replaced by
 *   `rename(2)` (which replaces a link, never follows it) and removed by `unlink(2)`.
 * Content of the workspace still goes through the seam only. See decision 0043.
 */
import { randomUUID } from 'node:crypto';
import { constants, type BigIntStats } from 'node:fs';
import { link, lstat, mkdir, open, readdir, realpath, rename, stat, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ActionError } from '../errors.ts';
import { type FolderIdentity, type JournalEntry, parseJournal } from './write-journal.ts';

/** What the store holds for a folder. */
export type StoredJournal =
  | { kind: 'none' }
  | { kind: 'entry'; entry: JournalEntry }
  /** A file that is not a journal this version can trust (garbage, a link, someone else's file). */
  | { kind: 'unusable'; reason: string };

/** Largest journal read (originals of every file of one edit). */
const MAX_JOURNAL_BYTES = 512 * 1024 * 1024;

/**
 * @param env the environment
 * @returns the state directory journals are kept in
 */
export function journalDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['DSH_LSP_ACTIONS_STATE_DIR'];
  if (override) return override;
  const xdg = env['XDG_STATE_HOME'];
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.local', 'state'), 'dsh-lsp-actions');
}

/** Journals of one user, keyed by folder identity. */
export class JournalStore {
  readonly #dir: string;

  /** @param stateDir the state directory (journals go to its `journals` folder) */
  constructor(stateDir: string = journalDirectory()) {
    this.#dir = join(stateDir, 'journals');
  }

  /** The directory holding the journals. */
  get directory(): string {
    return this.#dir;
  }

  /**
   * @param root a workspace folder
   * @returns its identity on the local disk, or undefined when it is not a local directory
   */
  async identify(root: string): Promise<FolderIdentity | undefined> {
    try {
      const realPath = await realpath(root);
      const info = await stat(realPath, { bigint: true });
      if (!info.isDirectory()) return undefined;
      // Without statx, libuv reports the change time as the birth time: a value equal to the change
      // time is not trusted as a birth time ("0": unknown), or every new entry would change it.
      const birth = info.birthtimeNs === info.ctimeNs ? 0n : info.birthtimeNs;
      return { realPath, dev: String(info.dev), ino: String(info.ino), birthtimeNs: String(birth) };
    } catch {
      return undefined;
    }
  }

  /**
   * @param folder a folder identity
   * @returns where its journal is
   */
  pathOf(folder: FolderIdentity): string {
    return join(this.#dir, `${folder.dev}-${folder.ino}.json`);
  }

  /**
   * @param folder a folder identity
   * @returns its journal, none, or why the file there is not trusted
   */
  async read(folder: FolderIdentity): Promise<StoredJournal> {
    let handle;
    try {
      handle = await open(this.pathOf(folder), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'none' };
      if (code === 'ELOOP') return { kind: 'unusable', reason: 'it is a symbolic link' };
      throw this.#failure(error, 'read');
    }
    try {
      const info = await handle.stat({ bigint: true });
      const why = untrusted(info);
      if (why !== undefined) return { kind: 'unusable', reason: why };
      if (info.size > BigInt(MAX_JOURNAL_BYTES)) return { kind: 'unusable', reason: `it is larger than ${MAX_JOURNAL_BYTES} bytes` };
      const parsed = parseJournal(await handle.readFile('utf8'));
      return 'entry' in parsed ? { kind: 'entry', entry: parsed.entry } : { kind: 'unusable', reason: parsed.garbage };
    } finally {
      await handle.close();
    }
  }

  /**
   * Publishes a new journal, only when the folder has none.
   * @param entry the edit about to be written
   * @throws ActionError `LSP_ACTION_CONFLICT` (journal-busy) when one appeared meanwhile
   */
  async create(entry: JournalEntry): Promise<void> {
    const target = this.pathOf(entry.folder);
    const temp = await this.#writeTemp(entry);
    try {
      await link(temp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new ActionError(
          'LSP_ACTION_CONFLICT',
          `another process is writing in ${entry.folder.realPath} (its write journal ${target} appeared); nothing was written. Re-run the action.`,
          { paths: [target], reason: 'journal-busy' },
        );
      }
      throw this.#failure(error, 'write');
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    await this.#syncDir();
  }

  /**
   * Replaces the folder's journal with `entry`, when the one there is still `expectedWriteId`.
   * @returns false when it is not (another process claimed it)
   */
  async replace(entry: JournalEntry, expectedWriteId: string): Promise<boolean> {
    if (!(await this.#holds(entry.folder, expectedWriteId))) return false;
    const temp = await this.#writeTemp(entry);
    try {
      await rename(temp, this.pathOf(entry.folder));
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw this.#failure(error, 'write');
    }
    await this.#syncDir();
    return true;
  }

  /**
   * Removes the folder's journal, when it is still `writeId` (the edit is complete or undone).
   * @returns false when the journal there is not that entry (nothing removed)
   */
  async remove(folder: FolderIdentity, writeId: string): Promise<boolean> {
    if (!(await this.#holds(folder, writeId))) return false;
    try {
      await unlink(this.pathOf(folder));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw this.#failure(error, 'write');
    }
    await this.#syncDir();
    return true;
  }

  /**
   * Renames the folder's journal aside (a link is renamed, not followed): it is never replayed
   * and no longer blocks writes; the file stays for a person to read.
   * @param folder the folder whose journal it is
   * @param why a short tag for the file name (`foreign`, `garbage`, …)
   * @returns the new path
   */
  async setAside(folder: FolderIdentity, why: string): Promise<string> {
    const aside = `${this.pathOf(folder)}.set-aside-${why}-${new Date().toISOString().replaceAll(':', '')}-${randomUUID().slice(0, 8)}`;
    try {
      await rename(this.pathOf(folder), aside);
    } catch (error) {
      throw this.#failure(error, 'write');
    }
    await this.#syncDir();
    return aside;
  }

  /** @returns the names in the journals directory (tests, diagnostics) */
  async list(): Promise<string[]> {
    return readdir(this.#dir).catch(() => []);
  }

  async #holds(folder: FolderIdentity, writeId: string): Promise<boolean> {
    const now = await this.read(folder);
    return now.kind === 'entry' && now.entry.writeId === writeId;
  }

  async #writeTemp(entry: JournalEntry): Promise<string> {
    await this.#ensureDir();
    const temp = join(this.#dir, `.${entry.folder.dev}-${entry.folder.ino}.${process.pid}.${randomUUID()}.tmp`);
    let handle;
    try {
      handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      await handle.writeFile(`${JSON.stringify(entry)}\n`, 'utf8');
      await handle.sync();
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw this.#failure(error, 'write');
    }
    await handle.close();
    return temp;
  }

  async #ensureDir(): Promise<void> {
    try {
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      const info = await lstat(this.#dir, { bigint: true });
      const why = info.isDirectory() ? untrustedOwner(info, 0o022) : 'it is not a directory (or is a symbolic link)';
      if (why !== undefined) {
        throw new ActionError(
          'LSP_ACTION_WRITE_FAILED',
          `the write journal directory ${this.#dir} is not safe to use: ${why}; nothing was written. Fix it, or set DSH_LSP_ACTIONS_STATE_DIR.`,
          { paths: [this.#dir], reason: 'journal-unsafe' },
        );
      }
    } catch (error) {
      throw this.#failure(error, 'write');
    }
  }

  async #syncDir(): Promise<void> {
    const handle = await open(this.#dir, constants.O_RDONLY).catch(() => undefined);
    await handle?.sync().catch(() => undefined);
    await handle?.close();
  }

  #failure(error: unknown, stage: 'read' | 'write'): ActionError {
    if (error instanceof ActionError) return error;
    const code = (error as NodeJS.ErrnoException).code;
    return new ActionError(
      'LSP_ACTION_WRITE_FAILED',
      `could not ${stage} the write journal in ${this.#dir} (${code ?? 'error'}: ${error instanceof Error ? error.message : String(error)}); ` +
        'nothing was written. Make the directory writable, or set DSH_LSP_ACTIONS_STATE_DIR to one that is.',
      { paths: [this.#dir], reason: 'journal-unwritable', ...(code ? { errno: code } : {}) },
      { cause: error },
    );
  }
}

/** @returns why an open journal file is not trusted, or undefined */
function untrusted(info: BigIntStats): string | undefined {
  if (!info.isFile()) return 'it is not a regular file';
  return untrustedOwner(info, 0o022);
}

function untrustedOwner(info: BigIntStats, forbidden: number): string | undefined {
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== BigInt(uid)) return `it belongs to uid ${info.uid}, not to this user (${uid})`;
  if ((Number(info.mode) & forbidden) !== 0) return `others may write it (mode ${(Number(info.mode) & 0o777).toString(8)})`;
  return undefined;
}
