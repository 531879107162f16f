/**
 * Turning what a JSON-RPC request can fail with into {@link ActionError}s: a peer's error is
 * kept intact (`details.peer`), an abort becomes `CANCELLED`/`TIMEOUT`, a dead connection
 * becomes whatever the client recorded as the reason it died.
 */
import { ResponseError } from 'vscode-jsonrpc';
import { ActionError, isActionError } from '../errors.ts';

/** JSON-RPC / LSP error codes we route on. */
export const RPC_CODES = {
  MethodNotFound: -32601,
  InvalidParams: -32602,
  RequestCancelled: -32800,
  ContentModified: -32801,
  ServerCancelled: -32802,
} as const;

/**
 * @param error a `ResponseError` the server answered with
 * @param serverId the server
 * @param method the request method
 * @returns `LSP_ACTION_PEER_ERROR` carrying the JSON-RPC code and data
 */
export function peerError(error: ResponseError<unknown>, serverId: string, method: string): ActionError {
  const peer = error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data };
  return new ActionError('LSP_ACTION_PEER_ERROR', `${serverId} answered ${method} with error ${error.code}: ${error.message}`, { serverId, method, peer }, { cause: error });
}

/**
 * @param error anything a request promise rejected with
 * @param serverId the server
 * @param method the request method
 * @param connectionLost the error recorded when the connection died, if it did
 * @returns an ActionError for callers
 */
export function requestError(error: unknown, serverId: string, method: string, connectionLost: ActionError | undefined): ActionError {
  if (isActionError(error)) return error;
  if (error instanceof ResponseError) return peerError(error, serverId, method);
  if (connectionLost) return connectionLost;
  const message = error instanceof Error ? error.message : String(error);
  return new ActionError('LSP_ACTION_SERVER_FAILED', `${serverId}: ${method} failed: ${message}`, { serverId, method }, { cause: error });
}

/**
 * @param error an ActionError from a request
 * @returns the peer's JSON-RPC code when it is a peer error
 */
export function peerCode(error: unknown): number | undefined {
  if (!isActionError(error) || error.code !== 'LSP_ACTION_PEER_ERROR') return undefined;
  const peer = error.details.peer;
  return typeof peer?.code === 'number' ? peer.code : undefined;
}
