/**
 * Maps failures of the harness file system seam (`FsError` codes) to this package's
 * `ActionError` codes, with a remedy the reader can act on. One table for the write path:
 *
 * | fs code | reading (pre-flight) | writing (nothing written yet) |
 * |---|---|---|
 * | aborted signal / `FS_ABORTED` | `LSP_ACTION_CANCELLED` / `LSP_ACTION_TIMEOUT` | same |
 * | `FS_STALE_VERSION`, `FS_NOT_OBSERVED` | `LSP_ACTION_CONFLICT` | `LSP_ACTION_CONFLICT` |
 * | `FS_SANDBOX_DENIED` under `read-only` | `LSP_ACTION_READ_ONLY` (sandbox marker) | `LSP_ACTION_READ_ONLY` (sandbox marker) |
 * | `FS_SANDBOX_DENIED` under a writable mode | `LSP_ACTION_OUTSIDE_WORKSPACE` (sandbox marker) | `LSP_ACTION_OUTSIDE_WORKSPACE` (sandbox marker) |
 * | `FS_NOT_FOUND` | `LSP_ACTION_FILE_NOT_FOUND` | `LSP_ACTION_WRITE_FAILED` |
 * | `FS_TOO_LARGE` | `LSP_ACTION_FILE_TOO_LARGE` | `LSP_ACTION_WRITE_FAILED` |
 * | `FS_NOT_TEXT`, `FS_NOT_REGULAR_FILE`, `FS_NOT_DIRECTORY` | `LSP_ACTION_CONFLICT` | `LSP_ACTION_CONFLICT` |
 * | anything else | `LSP_ACTION_WRITE_FAILED` | `LSP_ACTION_WRITE_FAILED` |
 *
 * The mode of a denial is the caller's, else the one the seam's denial message names ("denied under
 * workspace-write mode"), else `read-only`. Errors are recognised by shape (`code` starting with
 * `FS_`), so copies of `dsh-fs` interoperate.
 */
import type { FsErrorCode } from '@deepseek-ai/dsh-fs';
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import { sandboxDenialMarker } from '@deepseek-ai/dsh-sandbox';
import { abortError, ActionError, isActionError } from '../errors.ts';

/** Where in the write path a failure happened. */
export type FsStage = 'read' | 'write';

/** What {@link toWriteActionError} needs to word the error. */
export interface FsFailureContext {
  /** The file involved. */
  path: string;
  stage: FsStage;
  signal?: AbortSignal;
  /** The sandbox mode the write ran under, for the denial marker. */
  mode?: SandboxMode;
}

/** The remedy for a file that changed under us. */
const CONFLICT_REMEDY = 'Re-read the file and re-run the action.';

/**
 * @param error anything thrown by the fs seam
 * @returns its `FS_*` code, when it has one
 */
export function fsErrorCode(error: unknown): FsErrorCode | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('FS_') ? (code as FsErrorCode) : undefined;
}

/**
 * @param error anything thrown while reading or writing one file
 * @param context the file, the stage, the signal and the sandbox mode
 * @returns the coded error to throw (an `ActionError` passes through unchanged)
 */
export function toWriteActionError(error: unknown, context: FsFailureContext): ActionError {
  if (isActionError(error)) return error;
  const { path, stage, signal } = context;
  const code = fsErrorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  const details = { paths: [path], ...(code ? { fsCode: code } : {}) };
  const options = { cause: error };
  if (signal?.aborted) return abortError(signal);
  switch (code) {
    case 'FS_ABORTED':
      return new ActionError('LSP_ACTION_CANCELLED', `the call was cancelled while ${verb(stage)} ${path}`, details, options);
    case 'FS_STALE_VERSION':
    case 'FS_NOT_OBSERVED':
      return new ActionError(
        'LSP_ACTION_CONFLICT',
        `${path} changed since it was read (another writer got there first); it was not overwritten. ${CONFLICT_REMEDY}`,
        details,
        options,
      );
    case 'FS_SANDBOX_DENIED': {
      // the seam's denial names the mode that denied; a caller that did not pass one is not "read-only" by default
      const mode = context.mode ?? modeNamedIn(detail) ?? 'read-only';
      // under a writable mode the fence denies a path outside what it lets write: not "read-only"
      return new ActionError(
        mode === 'read-only' ? 'LSP_ACTION_READ_ONLY' : 'LSP_ACTION_OUTSIDE_WORKSPACE',
        `${sandboxDenialMarker(mode)} cannot write ${path}: ${detail}`,
        { ...details, mode },
        options,
      );
    }
    case 'FS_NOT_FOUND':
      if (stage === 'read') {
        return new ActionError('LSP_ACTION_FILE_NOT_FOUND', `${path} does not exist; nothing was written`, details, options);
      }
      break;
    case 'FS_TOO_LARGE':
      if (stage === 'read') {
        return new ActionError('LSP_ACTION_FILE_TOO_LARGE', `${path} is too large to edit: ${detail}`, details, options);
      }
      break;
    case 'FS_NOT_TEXT':
    case 'FS_NOT_REGULAR_FILE':
    case 'FS_NOT_DIRECTORY':
      return new ActionError(
        'LSP_ACTION_CONFLICT',
        `${path} is not a regular text file, so the edit cannot apply to it (${detail}); nothing was written`,
        details,
        options,
      );
    default:
      break;
  }
  return new ActionError('LSP_ACTION_WRITE_FAILED', `failed ${verb(stage)} ${path}: ${detail}`, details, options);
}

/** The modes a sandbox denial may name (`dsh-fs-sandbox`: "file access denied under <mode> mode"). */
const DENIAL_MODE = /denied under (read-only|workspace-write|danger-full-access) mode/;

/**
 * @param detail a denial's message
 * @returns the sandbox mode it names, when it names one
 */
function modeNamedIn(detail: string): SandboxMode | undefined {
  return DENIAL_MODE.exec(detail)?.[1] as SandboxMode | undefined;
}

function verb(stage: FsStage): string {
  return stage === 'read' ? 'reading' : 'writing';
}
