/**
 * Decides the guard of one write: asks the harness `fs/write-intent` waterfall (the slot a
 * policy plugin such as `dsh-fs-observation-policy` owns) and reconciles its answer with what the
 * pre-flight read. See docs/decisions/0002-write-path-observations.md for the reasoning.
 *
 * - The default (no policy answering) is our own guard: `replaceIfVersion` of the version the
 *   edit was computed against, or `createIfAbsent` for a file the edit creates. Never an
 *   unconditional write.
 * - A policy answer that AGREES with the read (the same version, or create-for-absent) is used,
 *   and the actor counts as current: after the write, its record may advance to the new version.
 * - A policy answer that DISAGREES because the actor's own record is missing or older
 *   (`createIfAbsent` for an existing file — what the observation policy answers for an agent
 *   that never read the file, and for every agentless editor write — or `replaceIfVersion` of
 *   another version) is replaced by our own guard. The write stays guarded by the exact version
 *   its content was derived from, so nothing the edit did not see can be overwritten; and the
 *   actor's record is left as it was, so an agent whose view is stale must still re-read before
 *   its next hand-made write (`FS_STALE_VERSION` / `FS_NOT_OBSERVED`).
 * - A policy answering `undefined` (unconditional) is tightened to our own guard.
 * - A listener that throws vetoes the write; the whole edit fails before anything is written.
 */
import type { Context } from '@deepseek-ai/cordis';
import type { FsWriteIntent } from '@deepseek-ai/dsh-fs';
import { ActionError, isActionError } from '../errors.ts';
import { fsErrorCode, toWriteActionError } from './fs-error-map.ts';
import type { PreparedFile } from './preflight.ts';

/** The guard for one write, and whether the actor's record agreed with our read. */
export interface IntentDecision {
  intent: FsWriteIntent;
  /**
   * True when the actor's record (as the policy sees it) matched the pre-flight read, so
   * recording the written version for the actor afterwards tells it nothing it did not know.
   */
  current: boolean;
}

/** The event API the decision needs (a cordis `Context`). */
export type IntentEvents = Pick<Context, 'waterfall'>;

/**
 * @param events cordis context carrying the `fs/write-intent` waterfall
 * @param file the pre-flighted target
 * @param actor the tool's `exec` for agent calls, `undefined` for editor writes
 * @param signal the call's signal, for error mapping
 * @returns the guard to pass to `writeText`
 * @throws ActionError when a policy listener vetoes the write
 */
export async function decideWriteIntent(
  events: IntentEvents,
  file: PreparedFile,
  actor: object | undefined,
  signal?: AbortSignal,
): Promise<IntentDecision> {
  const snapshot = file.snapshot;
  const own: FsWriteIntent = snapshot.exists
    ? { kind: 'replaceIfVersion', version: snapshot.version }
    : { kind: 'createIfAbsent' };
  let decided: FsWriteIntent | undefined;
  try {
    decided = await events.waterfall('fs/write-intent', file.target, actor, () => own);
  } catch (error) {
    throw vetoError(error, file.path, signal);
  }
  if (decided === undefined) return { intent: own, current: true };
  if (decided.kind === 'replaceIfVersion') {
    const agrees = snapshot.exists && decided.version === snapshot.version;
    return agrees ? { intent: decided, current: true } : { intent: own, current: false };
  }
  if (decided.kind === 'createIfAbsent') {
    return snapshot.exists ? { intent: own, current: false } : { intent: decided, current: true };
  }
  throw new ActionError(
    'LSP_ACTION_WRITE_FAILED',
    `a write policy answered an unknown intent ${JSON.stringify(decided)} for ${file.path}; nothing was written`,
    { paths: [file.path] },
  );
}

function vetoError(error: unknown, path: string, signal: AbortSignal | undefined): ActionError {
  if (isActionError(error) || fsErrorCode(error) !== undefined || signal?.aborted) {
    return toWriteActionError(error, { path, stage: 'write', ...(signal ? { signal } : {}) });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ActionError(
    'LSP_ACTION_WRITE_FAILED',
    `a write policy refused to write ${path}: ${detail}; nothing was written`,
    { paths: [path], reason: 'policy-veto' },
    { cause: error },
  );
}
