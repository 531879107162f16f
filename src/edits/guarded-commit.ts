/**
 * The write phase of a pre-flighted workspace edit: one guarded `ctx.fs.writeText` per changed
 * file, all or nothing.
 *
 * - Files that exist are written first and files the edit creates last: an update can be undone
 *   through the seam, a creation cannot (there is no delete), so a failure is most likely to be
 *   met while everything is still undoable.
 * - If a write fails after others succeeded, those are restored (see `rollback.ts`) and the
 *   error (`LSP_ACTION_WRITE_FAILED`) lists what was restored and what could not be.
 * - Only after every write succeeded is `fs/observed` emitted, for agent actors whose record
 *   agreed with the pre-flight read (see `write-intent.ts`).
 * - A save that lands inside the seam's own write is detected twice over: the text the seam read
 *   after its version check must be the text we planned against (else a save landed between its
 *   check and its replace, and our replace overwrote it: the saved text is put back and the edit
 *   is a conflict), and the file is read back after the replace (else someone wrote after us:
 *   their text stays, the edit is a conflict). A save written in place after the seam read the
 *   file lands in the file our rename takes out of the directory: for a local file a witness
 *   holds that file open and reads it after the replace (`save-witness.ts`), and a changed text
 *   is put back as a conflict. What stays unseen: a save that itself replaces the file by rename
 *   inside the seam's write — see docs/reliability.md.
 */
import type { Context } from '@deepseek-ai/cordis';
import type { FileSystem, FsVersion } from '@deepseek-ai/dsh-fs';
import type { SandboxExecutionPolicy, SandboxMode } from '@deepseek-ai/dsh-sandbox';
import { abortError, ActionError } from '../errors.ts';
import { toWriteActionError } from './fs-error-map.ts';
import { overwrittenText } from './overwritten-text.ts';
import type { PreparedFile } from './preflight.ts';
import { readSnapshot } from './read-snapshot.ts';
import type { SaveWitness } from './save-witness.ts';
import { type RollbackReport, restoreWritten, type WrittenFile } from './rollback.ts';
import type { IntentDecision } from './write-intent.ts';

/** One file to write with its guard. */
export interface PendingWrite {
  file: PreparedFile;
  decision: IntentDecision;
}

/** What the write phase needs. */
export interface CommitDeps {
  fs: Pick<FileSystem, 'writeText' | 'stat' | 'readText' | 'readBytes'>;
  events: Pick<Context, 'emit'>;
  /**
   * Runs after each successful replace (our writes and rollback restores) and returns the file's
   * version afterwards: the writer puts the original owner back (`keep-owner.ts`), which moves
   * the version. Omitted: the written version stands.
   */
  afterWrite?: AfterWrite;
  /**
   * Opens a witness on a local file before its replace (`save-witness.ts`): a save written in
   * place while the seam replaced the file is then seen and put back. Omitted: not watched.
   */
  witness?: (file: PreparedFile) => Promise<SaveWitness | undefined>;
}

/** See {@link CommitDeps.afterWrite}. */
export type AfterWrite = (file: PreparedFile, written: FsVersion) => Promise<FsVersion>;

/** Per-call inputs of the write phase. */
export interface CommitOptions {
  actor?: object;
  policy?: SandboxExecutionPolicy;
  signal?: AbortSignal;
  /** The mode the fs enforces when no policy is passed (its deployment default), for denial markers. */
  defaultMode?: SandboxMode;
}

/**
 * @param deps the fs seam and the event bus
 * @param pending the changed files with their guards, in plan order
 * @param options actor, sandbox policy, signal
 * @returns the files written, with the versions our writes produced
 * @throws ActionError the mapped cause when nothing was written yet; `LSP_ACTION_WRITE_FAILED`
 *   (with `restored`/`unrestored`/`causeCode` details) after a partial write was rolled back
 */
export async function commitWrites(deps: CommitDeps, pending: readonly PendingWrite[], options: CommitOptions): Promise<WrittenFile[]> {
  const { signal, policy } = options;
  const mode = policy?.mode ?? options.defaultMode;
  const ordered = [
    ...pending.filter((item) => item.file.before !== null),
    ...pending.filter((item) => item.file.before === null),
  ];
  const written: WrittenFile[] = [];
  for (const { file, decision } of ordered) {
    try {
      if (signal?.aborted) throw abortError(signal);
      const content = (file.bom ? '\uFEFF' : '') + file.after;
      const original = file.before === null ? undefined : (file.bom ? '\uFEFF' : '') + file.before;
      const witness = deps.witness === undefined || original === undefined ? undefined : await deps.witness(file);
      let outcome: Awaited<ReturnType<CommitDeps['fs']['writeText']>>;
      let replaced: string | undefined;
      try {
        outcome = await deps.fs.writeText(file.target, content, decision.intent, signal, policy);
        if (original !== undefined) replaced = await witness?.replacedText(original);
      } finally {
        await witness?.close();
      }
      const entry: WrittenFile = { file, version: outcome.version };
      written.push(entry);
      if (deps.afterWrite) entry.version = await deps.afterWrite(file, outcome.version);
      if (replaced !== undefined && original !== undefined && replaced !== original) {
        // Saved in place into the file our replace took out of the directory: theirs goes back
        // (read until it stopped changing: an in-place save truncates before it writes).
        entry.restoreText = replaced;
        throw lostSave(file.path, 'a save landed in the file while the edit replaced it');
      }
      const overwritten = file.before === null ? undefined : overwrittenText(outcome.before, file.before, file.bom);
      if (overwritten !== undefined) entry.restoreText = overwritten;
      if (overwritten !== undefined) throw lostSave(file.path, 'a save landed while the edit was being written');
      await readBack(deps.fs, file, entry.version, signal);
    } catch (error) {
      const cause = toWriteActionError(error, {
        path: file.path,
        stage: 'write',
        ...(signal ? { signal } : {}),
        ...(mode ? { mode } : {}),
      });
      if (written.length === 0) throw nothingWritten(cause);
      const report = await restoreWritten(deps.fs, written, policy, deps.afterWrite);
      recordForCurrentAgent(deps, pending, report.restored, options.actor);
      throw partialWriteError(file.path, cause, report);
    }
  }
  recordForCurrentAgent(deps, pending, written, options.actor);
  return written;
}

/**
 * @param actor the `actor` of a write request
 * @returns whether it is a tool execution on behalf of an agent (the observation policy keys
 *   records by `actor.agent.session`; anything else records nothing)
 */
function isAgentActor(actor: object | undefined): actor is { agent: object } {
  const agent = (actor as { agent?: unknown } | undefined)?.agent;
  return typeof agent === 'object' && agent !== null;
}

/**
 * Emits `fs/observed` for the versions now on disk, for an agent actor whose record matched the
 * pre-flight read (restored files hold exactly the text that was read, so they qualify too).
 */
function recordForCurrentAgent(
  deps: CommitDeps,
  pending: readonly PendingWrite[],
  versions: ReadonlyArray<{ file: PreparedFile; version: FsVersion }>,
  actor: object | undefined,
): void {
  if (!isAgentActor(actor)) return;
  for (const { file, version } of versions) {
    const item = pending.find((candidate) => candidate.file === file);
    if (item?.decision.current) deps.events.emit('fs/observed', file.target, { kind: 'present', version }, actor);
  }
}

/** Reads the file back: it must hold what we wrote, at the version our write produced. */
async function readBack(fs: CommitDeps['fs'], file: PreparedFile, version: FsVersion, signal: AbortSignal | undefined): Promise<void> {
  const snapshot = await readSnapshot(fs, file.target, signal);
  if (snapshot.exists && snapshot.version === version && snapshot.text === file.after && snapshot.bom === file.bom) return;
  throw lostSave(file.path, 'the file changed right after the edit wrote it (read back differs)');
}

function lostSave(path: string, what: string): ActionError {
  return new ActionError('LSP_ACTION_CONFLICT', `${path}: ${what}; the edit was not applied`, { paths: [path], reason: 'concurrent-save' });
}

function nothingWritten(cause: ActionError): ActionError {
  if (cause.code !== 'LSP_ACTION_WRITE_FAILED') return cause;
  return new ActionError(cause.code, `${cause.message}; nothing was written`, { ...cause.details, written: [] }, {
    cause: cause.cause,
  });
}

function partialWriteError(failedPath: string, cause: ActionError, report: RollbackReport): ActionError {
  const restored = report.restored.map((file) => file.path);
  const parts = [
    `the edit was not completed: writing ${failedPath} failed after other files were written.`,
    restored.length > 0 ? `Restored to their previous content: ${restored.join(', ')}.` : '',
    report.unrestored.length > 0
      ? `Could NOT be restored: ${report.unrestored.map((file) => `${file.path} (${file.reason})`).join('; ')}; ` +
        'inspect them before re-running.'
      : 'No file is left changed by this edit.',
    `Cause (${cause.code}): ${cause.message}`,
  ];
  return new ActionError(
    'LSP_ACTION_WRITE_FAILED',
    parts.filter((part) => part !== '').join(' '),
    {
      paths: [failedPath, ...restored, ...report.unrestored.map((file) => file.path)],
      failedPath,
      causeCode: cause.code,
      restored,
      unrestored: report.unrestored,
    },
    { cause },
  );
}
