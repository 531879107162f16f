/**
 * The text of the notification a failed backend run shows: what happened (the backend's
 * message), what to do (by the stable `code`, refined by the additive `reason`), and the code.
 * Routes on codes only, never on message text.
 */
import type { WireError } from './wire-types.ts';

const ADVICE_BY_REASON: Record<string, string> = {
  LSP_ACTION_TIMEOUT: 'The language server took too long; try again when it has finished indexing.',
  LSP_ACTION_CANCELLED: 'The run was cancelled; run it again.',
  LSP_ACTION_NO_SYMBOL: 'Put the cursor on a symbol and try again.',
  LSP_ACTION_FILE_NOT_FOUND: 'Save the file first.',
  LSP_ACTION_SERVER_CRASHED: 'The language server crashed; the next run restarts it.',
  LSP_ACTION_SERVER_GAVE_UP: 'The language server keeps crashing; see the "dsh-lsp-actions" output, then run "dsh-lsp-actions: Restart Backend".',
  LSP_ACTION_OUTSIDE_WORKSPACE: 'Open the file from inside the workspace folder.',
  LSP_ACTION_WRITE_FAILED: 'Nothing was left half-written; check file permissions and try again.',
};

/** A conflict's `details.reason` when the file did not change but cannot be written as it is. */
const ADVICE_BY_DETAIL: Record<string, string> = {
  'read-only-file': 'Nothing was changed: the file is read-only. Make it writable to apply the edit.',
  'hard-link': 'Nothing was changed: the file has other hard links, which a replace would split. Apply the edit in the editor instead.',
};

const ADVICE_BY_CODE: Record<string, string> = {
  LSP_ACTION_READ_ONLY: 'Nothing was changed. Writes are off: set "dshLspActions.sandbox" to "workspace-write" to allow them.',
  LSP_ACTION_CONFLICT: 'Nothing was changed: the file changed since it was read. Check the file and try again.',
  LSP_ACTION_UNAVAILABLE: 'No language server handles this file, or it is not ready yet.',
  LSP_ACTION_UNSUPPORTED: 'The language server does not offer this operation.',
  LSP_ACTION_SERVER_FAILED: 'The language server failed; see the "dsh-lsp-actions" output.',
  LSP_ACTION_MALFORMED_RESPONSE: 'The language server sent an invalid answer; see the "dsh-lsp-actions" output.',
  LSP_ACTION_WORKSPACE_REQUIRED: 'Open the file inside a workspace folder.',
  LSP_ACTION_UNKNOWN: 'The action is no longer offered (the code may have changed); ask for quick fixes again.',
  LSP_ACTION_INVALID_ARGS: 'The request was not accepted; see the "dsh-lsp-actions" output.',
  LSP_ACTION_APPROVAL_UNAVAILABLE: 'The wider permission could not be approved.',
  LSP_PROTOCOL_VERSION_UNSUPPORTED: 'The backend is too old or too new for this extension; update dsh-lsp-actions.',
};

/**
 * @param what what the user asked for ("Format Document", a quick fix's title)
 * @param error the envelope's error
 * @returns the notification text, ending with the code (and reason when it differs)
 */
export function errorNotification(what: string, error: WireError): string {
  const detail = typeof error.details?.reason === 'string' ? ADVICE_BY_DETAIL[error.details.reason] : undefined;
  const advice = detail ?? (error.reason !== undefined ? ADVICE_BY_REASON[error.reason] : undefined) ?? ADVICE_BY_CODE[error.code] ?? '';
  const codes = error.reason !== undefined && error.reason !== error.code ? `${error.code}, ${error.reason}` : error.code;
  const message = error.message.trim().replace(/\.$/, '');
  return `${what} failed: ${message}. ${advice}${advice === '' ? '' : ' '}(${codes})`;
}
