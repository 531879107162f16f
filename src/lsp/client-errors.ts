/**
 * The errors a {@link LanguageClient} fails its requests with when the server process ends
 * or breaks the protocol; each carries the stderr tail.
 */
import { ActionError } from '../errors.ts';
import { FramingError } from './frame-guard.ts';

/**
 * @param serverId the server
 * @param how what happened ("exited unexpectedly (exit code 3)")
 * @param stderrTail the last bytes of its stderr
 * @param extra more details (exit code, signal)
 * @returns `LSP_ACTION_SERVER_CRASHED`
 */
export function crashedError(serverId: string, how: string, stderrTail: string, extra: Record<string, unknown> = {}): ActionError {
  const lastLines = stderrTail.trim().split('\n').slice(-3).join(' | ');
  const hint = lastLines === '' ? '' : `; stderr ends with: ${lastLines}`;
  return new ActionError('LSP_ACTION_SERVER_CRASHED', `language server ${serverId} ${how}${hint}`, { serverId, stderrTail, ...extra });
}

/**
 * @param serverId the server
 * @param error the framing or decoding failure
 * @param stderrTail the last bytes of its stderr
 * @returns `LSP_ACTION_MALFORMED_RESPONSE` with `details.reason`
 */
export function brokenStreamError(serverId: string, error: Error, stderrTail: string): ActionError {
  const reason = error instanceof FramingError ? error.reason : 'undecodable';
  return new ActionError(
    'LSP_ACTION_MALFORMED_RESPONSE',
    `language server ${serverId} broke the JSON-RPC stream (${error.message}); it was stopped and will be restarted on the next call`,
    { serverId, stderrTail, reason },
    { cause: error },
  );
}

/**
 * @param serverId the server
 * @returns `LSP_ACTION_DISPOSED`: the server was stopped (idle, LRU, dispose) while a request ran
 */
export function stoppedError(serverId: string): ActionError {
  return new ActionError('LSP_ACTION_DISPOSED', `language server ${serverId} was stopped`, { serverId });
}

/**
 * @param serverId the server
 * @param startupTimeoutMs the bound it exceeded
 * @param stderrTail the last bytes of its stderr
 * @returns `LSP_ACTION_TIMEOUT` naming `startupTimeoutMs`
 */
export function startupTimeoutError(serverId: string, startupTimeoutMs: number, stderrTail: string): ActionError {
  return new ActionError('LSP_ACTION_TIMEOUT', `${serverId} did not answer initialize within ${startupTimeoutMs} ms (startupTimeoutMs)`, { serverId, stderrTail });
}
