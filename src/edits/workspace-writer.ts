/**
 * The write path of every action that changes files: a {@link WorkspaceWriter} over the harness
 * file system seam. Plan, then write:
 *
 * 1. pre-flight EVERY target (`preflight.ts`): supported operations only, inside the workspace
 *    with symlinks resolved, readable as a consistent (text, version) pair, unchanged against the
 *    caller's `basis`, edits applying cleanly; the complete new content of every file is known;
 * 2. decide every guard through the `fs/write-intent` waterfall (`write-intent.ts`), so a policy
 *    veto on the last file still stops the edit before the first byte;
 * 3. write each changed file with `ctx.fs.writeText(target, after, guard, signal, policy)`, all or
 *    nothing, then emit `fs/observed` for agent actors (`guarded-commit.ts`).
 *
 * Nothing here imports `node:fs`: the seam is the only way to the disk, so the sandbox fence,
 * the stale-version guards and whatever execution world the harness mounts all apply.
 */
import type { Context } from '@deepseek-ai/cordis';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { sandboxDenialMarker } from '@deepseek-ai/dsh-sandbox';
import { abortError, ActionError } from '../errors.ts';
import { commitWrites, type PendingWrite } from './guarded-commit.ts';
import { type PreparedFile, preflight } from './preflight.ts';
import { decideWriteIntent } from './write-intent.ts';
import type { FileChange, WorkspaceWriter, WriteRequest, WriteResult } from './write-types.ts';

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

  /**
   * @param ctx cordis context: the `fs/write-intent` waterfall and `fs/observed` events run on it
   * @param fs the harness file system (`ctx.fs`)
   */
  constructor(ctx: Context, fs: FileSystem) {
    this.#events = ctx;
    this.#fs = fs;
  }

  /**
   * @param request root, normalised edit, optional basis texts, signal, actor, sandbox policy
   * @returns every file changed, with its text before and after
   * @throws ActionError see {@link WorkspaceWriter}; additionally `LSP_ACTION_FILE_NOT_FOUND` for
   *   an edit of a missing file, `LSP_ACTION_MALFORMED_RESPONSE` for an unusable position, and
   *   `LSP_ACTION_CANCELLED`/`LSP_ACTION_TIMEOUT` when the signal aborts before the first write
   */
  async apply(request: WriteRequest): Promise<WriteResult> {
    const { signal, policy, actor } = request;
    if (signal?.aborted) throw abortError(signal);
    if (policy?.mode === 'read-only') {
      throw new ActionError(
        'LSP_ACTION_READ_ONLY',
        `${sandboxDenialMarker('read-only')} the session's sandbox is read-only, so the edit was not applied; nothing was written`,
        { mode: 'read-only' },
      );
    }
    const files = await preflight(this.#fs, {
      root: request.root,
      edit: request.edit,
      ...(request.basis ? { basis: request.basis } : {}),
      ...(signal ? { signal } : {}),
    });
    const changed = files.filter((file) => file.changed);
    const pending: PendingWrite[] = [];
    for (const file of changed) {
      if (signal?.aborted) throw abortError(signal);
      pending.push({ file, decision: await decideWriteIntent(this.#events, file, actor, signal) });
    }
    if (signal?.aborted) throw abortError(signal);
    await commitWrites({ fs: this.#fs, events: this.#events }, pending, {
      ...(actor ? { actor } : {}),
      ...(policy ? { policy } : {}),
      ...(signal ? { signal } : {}),
      ...(this.#fs.sandboxMode ? { defaultMode: this.#fs.sandboxMode } : {}),
    });
    return { files: changed.map(toFileChange) };
  }
}

function toFileChange(file: PreparedFile): FileChange {
  return { path: file.path, operation: file.operation, before: file.before, after: file.after, editCount: file.editCount };
}
