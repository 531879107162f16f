/**
 * The write path of every action that changes files: a {@link WorkspaceWriter} over the harness
 * file system seam. Plan, then write:
 *
 * 1. pre-flight EVERY target (`preflight.ts`): supported operations only, inside the workspace
 *    with symlinks resolved, readable as a consistent (text, version) pair, unchanged against the
 *    caller's `basis`, edits applying cleanly; the complete new content of every file is known;
 * 2. decide every guard through the `fs/write-intent` waterfall (`write-intent.ts`), so a policy
 *    veto on the last file still stops the edit before the first byte;
 * 3. record the intent and every original in the folder's write journal (`write-journal.ts`,
 *    kept outside the tree by `journal-store.ts`), write each changed file with
 *    `ctx.fs.writeText(target, after, guard, signal, policy)`, all or nothing, then emit
 *    `fs/observed` for agent actors (`guarded-commit.ts`), and remove the journal.
 *
 * The whole apply runs under the workspace's write lock and counts as in flight for
 * {@link drainWrites} (`write-drain.ts`); an interrupted edit found in the journal (a crash, or a
 * rollback that could not finish) is recovered first (`journal-recovery.ts`).
 *
 * Content only ever goes through the seam, so the sandbox fence, the stale-version guards and
 * whatever execution world the harness mounts all apply. The one exception is metadata the seam
 * neither reports nor keeps: where the target is a local file, its owner, mode and link count are
 * read with `node:fs` (`local-file-metadata.ts`) so a read-only or hard-linked file is refused,
 * and the owner is set back after a replace (`keep-owner.ts`); docs/decisions/0041-write-metadata.md.
 */
import { relative } from 'node:path';
import type { Context } from '@deepseek-ai/cordis';
import type { FileSystem, FsVersion } from '@deepseek-ai/dsh-fs';
import { sandboxDenialMarker } from '@deepseek-ai/dsh-sandbox';
import { abortError, ActionError } from '../errors.ts';
import { checkPins } from './check-pins.ts';
import { type AfterWrite, commitWrites, type PendingWrite } from './guarded-commit.ts';
import { describeRecovery, ownEditsInFlight, type RecoveryReport, recoverWrites } from './journal-recovery.ts';
import { JournalStore } from './journal-store.ts';
import { journalOwnerRestorer, keepOwner, localOwnerOps, type OwnerOps } from './keep-owner.ts';
import { localFileMetadata, type LocalFileMetadataProbe } from './local-file-metadata.ts';
import { type PreparedFile, preflight } from './preflight.ts';
import { restoreWritten } from './rollback.ts';
import { openSaveWitness, type SaveWitness, type SaveWitnessOpener } from './save-witness.ts';
import { runExclusiveWrite } from './write-drain.ts';
import { decideWriteIntent } from './write-intent.ts';
import { type FolderIdentity, type JournalEntry, journalEntry, releasedEntry, sha256Hex } from './write-journal.ts';
import type { FileChange, WorkspaceWriter, WriteRequest, WriteResult } from './write-types.ts';

/** Options of a {@link FsWorkspaceWriter}. */
export interface WriterOptions {
  /** Told what a recovery of an interrupted edit did (default: one line on stderr). */
  onRecovered?: (report: RecoveryReport) => void;
  /**
   * Reads a target's local owner, mode and link count (default: `node:fs` `stat` when the target
   * is a local file, else unknown). Tests inject a fake; `unknownFileMetadata` turns it off.
   */
  metadata?: LocalFileMetadataProbe;
  /** Puts the owner back after a replace (default: `node:fs` `chown`/`chmod` with `metadata`). */
  ownerOps?: OwnerOps;
  /** Told when a file's owner could not be put back (default: one stderr line per file and writer). */
  onMetadataWarning?: (warning: string) => void;
  /** Opens the lost-save witness on a local file (default: `node:fs`, `save-witness.ts`). */
  saveWitness?: SaveWitnessOpener;
  /** Where write journals are kept (default: the per-user state directory, `journal-store.ts`). */
  journal?: JournalStore;
  /** Told once per root when an edit there is written without a crash journal (default: one stderr line). */
  onNoJournal?: (line: string) => void;
}

/**
 * Applies workspace edits through `ctx.fs`, `fs/write-intent` and `fs/observed`.
 *
 * Construct it once per plugin fiber: `new FsWorkspaceWriter(ctx, ctx.fs)`. `ctx` supplies the
 * event bus (`waterfall('fs/write-intent')`, `emit('fs/observed')`); `fs` is the file system to
 * read and write through (normally `ctx.fs`; tests may pass a wrapper).
 */
export class FsWorkspaceWriter implements WorkspaceWriter {
  readonly #events: Pick<Context, 'waterfall' | 'emit'>;
  readonly #fs: FileSystem;
  /** The fs the journal is kept through: the context's own `ctx.fs` (tests may wrap `fs`). */
  readonly #journalFs: FileSystem;
  readonly #onRecovered: (report: RecoveryReport) => void;
  /** Roots whose journal this writer has checked. */
  readonly #checked = new Set<string>();
  readonly #metadata: LocalFileMetadataProbe;
  readonly #ownerOps: OwnerOps;
  readonly #onMetadataWarning: (warning: string) => void;
  readonly #openWitness: SaveWitnessOpener;
  readonly #journal: JournalStore;
  readonly #onNoJournal: (line: string) => void;
  /** Roots already told they have no crash journal. */
  readonly #unjournaled = new Set<string>();

  /**
   * @param ctx cordis context: the `fs/write-intent` waterfall and `fs/observed` events run on it
   * @param fs the harness file system (`ctx.fs`)
   * @param options recovery reporting
   */
  constructor(ctx: Context, fs: FileSystem, options: WriterOptions = {}) {
    this.#events = ctx;
    this.#fs = fs;
    this.#journalFs = (ctx as { fs?: FileSystem }).fs ?? fs;
    this.#onRecovered =
      options.onRecovered ??
      ((report) => {
        for (const line of describeRecovery(report)) process.stderr.write(`dsh-lsp-actions: ${line}\n`);
      });
    this.#metadata = options.metadata ?? localFileMetadata;
    this.#ownerOps = options.ownerOps ?? localOwnerOps(this.#metadata);
    this.#onMetadataWarning = options.onMetadataWarning ?? warnOncePerFile();
    this.#openWitness = options.saveWitness ?? openSaveWitness;
    this.#journal = options.journal ?? new JournalStore();
    this.#onNoJournal = options.onNoJournal ?? ((line) => process.stderr.write(`dsh-lsp-actions: ${line}\n`));
  }

  /**
   * @param request root, normalised edit, optional basis texts, signal, actor, sandbox policy
   * @returns every file changed, with its text before and after
   * @throws ActionError see {@link WorkspaceWriter}; additionally `LSP_ACTION_FILE_NOT_FOUND` for
   *   an edit of a missing file, `LSP_ACTION_MALFORMED_RESPONSE` for an unusable position, and
   *   `LSP_ACTION_CANCELLED`/`LSP_ACTION_TIMEOUT` when the signal aborts before the first write
   */
  async apply(request: WriteRequest): Promise<WriteResult> {
    const { signal, policy } = request;
    if (signal?.aborted) throw abortError(signal);
    if (policy?.mode === 'read-only') {
      throw new ActionError(
        'LSP_ACTION_READ_ONLY',
        `${sandboxDenialMarker('read-only')} the session's sandbox is read-only, so the edit was not applied; nothing was written`,
        { mode: 'read-only' },
      );
    }
    return runExclusiveWrite(request.root, () => this.#applyLocked(request), signal);
  }

  /** A witness on a local file whose metadata preflight read (the seam's key is its path). */
  readonly #witness = (file: PreparedFile): Promise<SaveWitness | undefined> =>
    file.metadata === undefined ? Promise.resolve(undefined) : this.#openWitness(String(file.target.targetKey), file.metadata);

  /** Sets a replaced file's owner back; never throws (a failure is a warning, the edit stands). */
  readonly #keepOwner: AfterWrite = async (file, written): Promise<FsVersion> => {
    try {
      const kept = await keepOwner(this.#fs, this.#ownerOps, file.target, file.metadata, written);
      if (kept.warning !== undefined) this.#onMetadataWarning(kept.warning);
      return kept.version;
    } catch (error) {
      this.#onMetadataWarning(`${file.path}: could not check its owner after the write: ${error instanceof Error ? error.message : String(error)}`);
      return written;
    }
  };

  /**
   * Recovers an edit interrupted in `root` (crash, failed rollback) before anything reads the
   * workspace; once per root and writer. Never throws: what it did (or could not do) goes to
   * `onRecovered`, and a write in a root that could not be recovered is refused by `apply`.
   * @param root the workspace root
   */
  async prepare(root: string): Promise<void> {
    if (this.#checked.has(root)) return;
    this.#checked.add(root);
    try {
      await runExclusiveWrite(root, () => this.#recoverFirst(root, undefined));
    } catch {
      // reported through onRecovered; apply() refuses to write on top of it
    }
  }

  async #applyLocked(request: WriteRequest): Promise<WriteResult> {
    const { signal, policy, actor } = request;
    if (signal?.aborted) throw abortError(signal);
    this.#checked.add(request.root);
    await this.#recoverFirst(request.root, policy);
    const files = await preflight(this.#fs, {
      root: request.root,
      edit: request.edit,
      ...(request.basis ? { basis: request.basis } : {}),
      ...(signal ? { signal } : {}),
      metadata: this.#metadata,
    });
    if (request.pins && request.pins.size > 0) await checkPins(this.#fs, request.root, request.pins, request.basis, files, signal);
    const changed = files.filter((file) => file.changed);
    if (changed.length === 0) return { files: [] };
    const pending: PendingWrite[] = [];
    for (const file of changed) {
      if (signal?.aborted) throw abortError(signal);
      pending.push({ file, decision: await decideWriteIntent(this.#events, file, actor, signal) });
    }
    if (signal?.aborted) throw abortError(signal);
    const folder = await this.#journaledFolder(request.root);
    const entry =
      folder &&
      journalEntry(
        folder,
        changed.map((file) => ({
          path: relative(request.root, file.path),
          before: file.before,
          bom: file.bom,
          afterSha256: sha256Hex((file.bom ? '\uFEFF' : '') + file.after),
          ...(file.metadata ? { owner: { uid: file.metadata.uid, gid: file.metadata.gid, mode: file.metadata.mode } } : {}),
        })),
      );
    if (entry) {
      await this.#journal.create(entry);
      ownEditsInFlight.add(entry.writeId);
    }
    try {
      return await this.#commit(request, changed, pending, entry);
    } finally {
      if (entry) ownEditsInFlight.delete(entry.writeId);
    }
  }

  /** Writes the files of a journaled (or unjournaled) edit, all or nothing, and closes its journal. */
  async #commit(request: WriteRequest, changed: PreparedFile[], pending: PendingWrite[], entry: JournalEntry | undefined): Promise<WriteResult> {
    const { signal, policy, actor } = request;
    const options = {
      ...(actor ? { actor } : {}),
      ...(policy ? { policy } : {}),
      ...(signal ? { signal } : {}),
      ...(this.#fs.sandboxMode ? { defaultMode: this.#fs.sandboxMode } : {}),
    };
    let versions;
    try {
      versions = await commitWrites({ fs: this.#fs, events: this.#events, afterWrite: this.#keepOwner, witness: this.#witness }, pending, options);
    } catch (error) {
      // Rolled back (or nothing written). Keep the journal only while an original is not back on
      // disk, let go of, so the next write here or another process's start puts it back.
      if (entry && !restoreFailed(error)) await this.#closeJournal(entry).catch(() => undefined);
      else if (entry) await this.#journal.replace(releasedEntry(entry), entry.writeId).catch(() => undefined);
      throw error;
    }
    try {
      if (entry) await this.#closeJournal(entry);
    } catch (error) {
      // A journal still saying "writing" would make the next start undo this edit: undo it now.
      const report = await restoreWritten(this.#fs, versions, policy, this.#keepOwner);
      throw new ActionError(
        'LSP_ACTION_WRITE_FAILED',
        `the edit was written but its journal could not be closed, so it was undone (restored: ${report.restored.map((f) => f.path).join(', ') || 'none'}` +
          `${report.unrestored.length > 0 ? `; NOT restored: ${report.unrestored.map((f) => `${f.path} (${f.reason})`).join('; ')}` : ''}): ` +
          `${error instanceof Error ? error.message : String(error)}`,
        {
          paths: changed.map((file) => file.path),
          causeCode: error instanceof ActionError ? error.code : 'LSP_ACTION_WRITE_FAILED',
          restored: report.restored.map((file) => file.path),
          unrestored: report.unrestored,
        },
        { cause: error },
      );
    }
    return { files: changed.map(toFileChange) };
  }

  /**
   * Recovers an interrupted edit of ours in `root` before writing anything new.
   * @throws ActionError `LSP_ACTION_CONFLICT` (journal-busy) when another running process is
   *   writing there; `LSP_ACTION_WRITE_FAILED` when an earlier edit's originals could still not be put back
   */
  async #recoverFirst(root: string, policy: WriteRequest['policy']): Promise<void> {
    const report = await recoverWrites(this.#journalFs, root, {
      store: this.#journal,
      ...(policy ? { policy } : {}),
      restoreOwner: journalOwnerRestorer(this.#journalFs, this.#ownerOps),
    });
    if (report.found || report.notes.length > 0) this.#onRecovered(report);
    if (report.busy !== undefined) {
      throw new ActionError(
        'LSP_ACTION_CONFLICT',
        `another process (pid ${report.busy.pid}) is writing in ${root}; nothing was written. Re-run the action when it is done ` +
          `(if no dsh-lsp-actions process runs, delete its journal ${report.busy.journal}).`,
        { paths: [report.busy.journal], reason: 'journal-busy' },
      );
    }
    if (report.found && !report.cleared) {
      throw new ActionError(
        'LSP_ACTION_WRITE_FAILED',
        `an earlier edit in this workspace was interrupted and could not be fully undone; nothing new was written. ${describeRecovery(report).join('; ')}`,
        { paths: report.unrestored.map((file) => file.path), unrestored: report.unrestored, causeCode: 'LSP_ACTION_WRITE_FAILED' },
      );
    }
  }

  /**
   * @param root the request's root
   * @returns the local folder's identity, when its crash journal can be kept (the seam's root is
   *   that local directory); otherwise undefined, said once per root
   */
  async #journaledFolder(root: string): Promise<FolderIdentity | undefined> {
    const folder = await this.#journal.identify(root);
    const seamKey = await this.#fs.resolve(root).then(
      (target) => String(target.targetKey),
      () => undefined,
    );
    if (folder !== undefined && seamKey === folder.realPath) return folder;
    if (!this.#unjournaled.has(root)) {
      this.#unjournaled.add(root);
      this.#onNoJournal(`${root} is not a folder on this machine's disk, so edits there are written without a crash journal (a crash mid-edit is not undone on the next start)`);
    }
    return undefined;
  }

  /** Removes the journal of a finished (committed or rolled back) edit. */
  async #closeJournal(entry: JournalEntry): Promise<void> {
    await this.#journal.remove(entry.folder, entry.writeId);
  }
}

/** @returns a warning sink writing one stderr line per file (the path is the warning's prefix up to `: `) */
function warnOncePerFile(): (warning: string) => void {
  const seen = new Set<string>();
  return (warning) => {
    const key = warning.slice(0, warning.indexOf(': '));
    if (seen.has(key)) return;
    seen.add(key);
    process.stderr.write(`dsh-lsp-actions: ${warning}\n`);
  };
}

/** @returns whether a failed commit left an original that is not back on disk */
function restoreFailed(error: unknown): boolean {
  if (!(error instanceof ActionError) || error.code !== 'LSP_ACTION_WRITE_FAILED') return false;
  const unrestored = error.details['unrestored'];
  return Array.isArray(unrestored) && unrestored.some((file: { reason?: unknown }) => typeof file.reason === 'string' && file.reason.startsWith('restoring it failed'));
}

function toFileChange(file: PreparedFile): FileChange {
  return { path: file.path, operation: file.operation, before: file.before, after: file.after, editCount: file.editCount };
}
