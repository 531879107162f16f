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
 */
import type { Context } from '@deepseek-ai/cordis';
import type { FileSystem, FsVersion } from '@deepseek-ai/dsh-fs';
import type { SandboxExecutionPolicy, SandboxMode } from '@deepseek-ai/dsh-sandbox';
import { abortError, ActionError } from '../errors.ts';
import { toWriteActionError } from './fs-error-map.ts';
import type { PreparedFile } from './preflight.ts';
import { type RollbackReport, restoreWritten, type WrittenFile } from './rollback.ts';
import type { IntentDecision } from './write-intent.ts';

/** One file to write with its guard. */
export interface PendingWrite {
  file: PreparedFile;
  decision: IntentDecision;
}

/** What the write phase needs. */
export interface CommitDeps {
  fs: Pick<FileSystem, 'writeText'>;
  events: Pick<Context, 'emit'>;
}

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
 * @throws ActionError the mapped cause when nothing was written yet; `LSP_ACTION_WRITE_FAILED`
 *   (with `restored`/`unrestored`/`causeCode` details) after a partial write was rolled back
 */
export async function commitWrites(deps: CommitDeps, pending: readonly PendingWrite[], options: CommitOptions): Promise<void> {
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
      const outcome = await deps.fs.writeText(file.target, content, decision.intent, signal, policy);
      written.push({ file, version: outcome.version });
    } catch (error) {
      const cause = toWriteActionError(error, {
        path: file.path,
        stage: 'write',
        ...(signal ? { signal } : {}),
        ...(mode ? { mode } : {}),
      });
      if (written.length === 0) throw nothingWritten(cause);
      const report = await restoreWritten(deps.fs, written, policy);
      recordForCurrentAgent(deps, pending, report.restored, options.actor);
      throw partialWriteError(file.path, cause, report);
    }
  }
  recordForCurrentAgent(deps, pending, written, options.actor);
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
