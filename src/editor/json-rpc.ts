/**
 * JSON-RPC 2.0 vocabulary of the editor action protocol: message shapes, the standard error
 * codes we answer with, and the classification of one decoded line.
 */

/** A request id as the client sent it (numbers stay numbers, strings stay strings). */
export type JsonRpcId = string | number | null;

/** A client request: carries an `id`, is answered exactly once. */
export interface JsonRpcRequest {
  kind: 'request';
  id: JsonRpcId;
  method: string;
  params: unknown;
}

/** A client notification: no `id`, never answered. */
export interface JsonRpcNotification {
  kind: 'notification';
  method: string;
  params: unknown;
}

/** An inbound message the server acts on. */
export type JsonRpcInbound = JsonRpcRequest | JsonRpcNotification;

/** `-32600`: the line was refused as a request (used for oversize lines whose id could be recovered). */
export const INVALID_REQUEST = -32600;
/** `-32601`: no such method. */
export const METHOD_NOT_FOUND = -32601;
/** `-32602`: the params of an additive method are unusable (v1 methods answer envelopes instead). */
export const INVALID_PARAMS = -32602;
/** `-32603`: the handler failed. */
export const INTERNAL_ERROR = -32603;

/** A handler failure that answers with a specific JSON-RPC error code instead of `-32603`. */
export class RpcError extends Error {
  readonly rpcCode: number;

  /**
   * @param rpcCode the JSON-RPC error code
   * @param message its message
   */
  constructor(rpcCode: number, message: string) {
    super(message);
    this.name = 'RpcError';
    this.rpcCode = rpcCode;
  }
}

/**
 * Classifies one decoded line.
 * @param line one line of input, without its terminator
 * @returns the message, or a reason string when the line is malformed (and must be ignored)
 */
export function parseJsonRpcLine(line: string): JsonRpcInbound | { malformed: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // swallowed: a line that is not JSON is malformed and ignored, as the spec says
    return { malformed: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { malformed: 'not a JSON object' };
  const message = value as Record<string, unknown>;
  if (message['jsonrpc'] !== '2.0') return { malformed: 'jsonrpc is not "2.0"' };
  const method = message['method'];
  if (typeof method !== 'string') {
    // a response (we never send requests) or garbage: nothing to act on
    return { malformed: 'no method' };
  }
  const params = message['params'];
  if (!('id' in message)) return { kind: 'notification', method, params };
  const id = message['id'];
  if (typeof id === 'string' || id === null || (typeof id === 'number' && Number.isFinite(id))) {
    return { kind: 'request', id, method, params };
  }
  return { malformed: 'id is neither a string, a number nor null' };
}

/**
 * @param id the request id
 * @param result the result value
 * @returns a success response frame
 */
export function resultFrame(id: JsonRpcId, result: unknown): object {
  return { jsonrpc: '2.0', id, result };
}

/**
 * @param id the request id (`null` when it could not be read)
 * @param code JSON-RPC error code
 * @param message human-readable text
 * @returns an error response frame
 */
export function errorFrame(id: JsonRpcId, code: number, message: string): object {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/**
 * @param method notification method
 * @param params its params
 * @returns a notification frame
 */
export function notificationFrame(method: string, params: unknown): object {
  return { jsonrpc: '2.0', method, params };
}

const ID_PREFIX = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*[,}]/;

/**
 * Recovers the id of a refused (oversize) request from its first bytes, when `id` is the first
 * member of the object or directly follows `"jsonrpc":"2.0"`. Anything else gives `undefined`.
 * @param head the first bytes of the line, decoded
 * @returns the id, or undefined when it cannot be read unambiguously
 */
export function peekRequestId(head: string): string | number | undefined {
  const match = ID_PREFIX.exec(head);
  if (!match?.[1]) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    // swallowed: an unreadable id means we do not answer
    return undefined;
  }
}
