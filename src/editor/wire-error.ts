/**
 * The error object of a failed `lsp.actions.run` envelope.
 *
 * v1 is frozen: `error.code` is always one of the v1 codes, assigned where the v1 table says
 * (a run timeout is `LSP_ACTION_UNAVAILABLE`, a crashed server `LSP_ACTION_SERVER_FAILED`, …),
 * so a client written for v1 routes every failure exactly as before. The precise code — a
 * timeout, a crash, a cancellation are each their own — travels in the additive field
 * `error.reason` whenever it differs from `error.code`. See docs/decisions/0003-editor-error-codes.md.
 */
import type { ActionError, ActionErrorCode } from '../errors.ts';

/** The wire error of a failed run. */
export interface WireError {
  /** A v1 code (route on this). */
  code: string;
  message: string;
  /** Additive: the precise code, present when it is not the v1 `code` itself. */
  reason?: string;
  /** Additive: what a client may route on or show beyond the message ({@link WIRE_DETAIL_KEYS}); absent when none. */
  details?: Record<string, unknown>;
}

/**
 * The error details that reach the wire: why a write was refused (`reason`: `pin-mismatch`,
 * `basis-mismatch`, `read-only-file`, …), the files involved, what a failed write restored, and
 * the `candidates` of a navigation target that could not be settled (`LSP_ACTION_NO_SYMBOL`),
 * and the `note` of a quick fix that the server is known to lack (quick-fix-gaps.ts).
 * Server internals (stderr tails, peer errors) stay in the message and the log.
 */
export const WIRE_DETAIL_KEYS = ['reason', 'paths', 'failedPath', 'restored', 'unrestored', 'candidates', 'note'] as const;

const V1_CODE: Record<ActionErrorCode, ActionErrorCode> = {
  LSP_ACTION_UNAVAILABLE: 'LSP_ACTION_UNAVAILABLE',
  LSP_ACTION_UNSUPPORTED: 'LSP_ACTION_UNSUPPORTED',
  LSP_ACTION_SERVER_FAILED: 'LSP_ACTION_SERVER_FAILED',
  LSP_ACTION_MALFORMED_RESPONSE: 'LSP_ACTION_MALFORMED_RESPONSE',
  LSP_ACTION_CONFLICT: 'LSP_ACTION_CONFLICT',
  LSP_ACTION_READ_ONLY: 'LSP_ACTION_READ_ONLY',
  LSP_ACTION_WORKSPACE_REQUIRED: 'LSP_ACTION_WORKSPACE_REQUIRED',
  LSP_ACTION_UNKNOWN: 'LSP_ACTION_UNKNOWN',
  LSP_ACTION_INVALID_ARGS: 'LSP_ACTION_INVALID_ARGS',
  LSP_ACTION_APPROVAL_UNAVAILABLE: 'LSP_ACTION_APPROVAL_UNAVAILABLE',
  LSP_PROTOCOL_VERSION_UNSUPPORTED: 'LSP_PROTOCOL_VERSION_UNSUPPORTED',
  // v1: "LSP_ACTION_UNAVAILABLE … also the run-timeout failure"
  LSP_ACTION_TIMEOUT: 'LSP_ACTION_UNAVAILABLE',
  // cancellation only exists through the additive lsp.actions.cancel and backend shutdown;
  // the closest v1 class is "could not be served"
  LSP_ACTION_CANCELLED: 'LSP_ACTION_UNAVAILABLE',
  // v1: "The server failed (stderr tail in the message)"
  LSP_ACTION_SERVER_CRASHED: 'LSP_ACTION_SERVER_FAILED',
  LSP_ACTION_SERVER_GAVE_UP: 'LSP_ACTION_SERVER_FAILED',
  LSP_ACTION_PEER_ERROR: 'LSP_ACTION_SERVER_FAILED',
  LSP_ACTION_NO_SYMBOL: 'LSP_ACTION_UNAVAILABLE',
  LSP_ACTION_FILE_NOT_FOUND: 'LSP_ACTION_UNAVAILABLE',
  LSP_ACTION_FILE_TOO_LARGE: 'LSP_ACTION_UNAVAILABLE',
  // v1: "edits … leave the workspace" is a conflict; a target outside it is a bad argument
  LSP_ACTION_OUTSIDE_WORKSPACE: 'LSP_ACTION_INVALID_ARGS',
  // a write that failed part-way (files restored): v1's class for writes that could not land
  LSP_ACTION_WRITE_FAILED: 'LSP_ACTION_CONFLICT',
  LSP_ACTION_DISPOSED: 'LSP_ACTION_UNAVAILABLE',
  LSP_ACTION_CONFIG_INVALID: 'LSP_ACTION_UNAVAILABLE',
};

/**
 * @param code any code of this package
 * @returns the v1 code a v1 client routes on
 */
export function v1Code(code: ActionErrorCode): ActionErrorCode {
  return V1_CODE[code];
}

/**
 * @param error a coded failure
 * @returns the envelope's `error` object
 */
export function toWireError(error: ActionError): WireError {
  const code = v1Code(error.code);
  const wire: WireError = code === error.code ? { code, message: error.message } : { code, message: error.message, reason: error.code };
  const details: Record<string, unknown> = {};
  for (const key of WIRE_DETAIL_KEYS) if (error.details[key] !== undefined) details[key] = error.details[key];
  if (Object.keys(details).length > 0) wire.details = details;
  return wire;
}
