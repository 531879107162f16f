/**
 * JSON-RPC 2.0 vocabulary of the editor action protocol: message shapes, the standard error
 * codes we answer with, and the classification of one decoded line.
 */

/**
 * A request id as the client sent it (numbers stay numbers, strings stay strings). A number
 * that JavaScript cannot hold exactly (beyond 2^53, a fraction, `-0`) or not at all (`1E400`
 * parses as Infinity, which `JSON.stringify` would print as `null`) is kept as its raw JSON token
 * (`JSON.rawJSON`), so it is echoed byte for byte — the same JSON value the client sent, whatever
 * its own parser makes of it. See docs/decisions/0055-numeric-request-ids.md.
 */
export type JsonRpcId = string | number | null | RawJsonId;

/** A numeric id kept as its raw token (`JSON.rawJSON(source)`); serialises as that token. */
export interface RawJsonId {
  readonly rawJSON: string;
}

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

/** `-32700`: the line is not valid UTF-8 JSON (answered only when the request id can still be read). */
export const PARSE_ERROR = -32700;
/** `-32600`: the line was refused as a request (oversize, nested too deep, a batch element). */
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

/** Deepest nesting of arrays/objects accepted in one line (deeper lines are refused, not parsed). */
export const MAX_NESTING = 256;

/** What one line is. */
export type ParsedLine =
  | JsonRpcInbound
  /** Not acted on: ignored with a stderr line (v1: "malformed lines are ignored"). */
  | { malformed: string }
  /** Refused with a JSON-RPC error: `id` is `null` when it could not be read. */
  | { refused: { id: JsonRpcId; code: number; message: string } }
  /** A JSON-RPC batch (an array); each element is classified by {@link classifyMessage}. */
  | { batch: unknown[] };

/**
 * Classifies one decoded line.
 * @param line one line of input, without its terminator
 * @returns the message, a batch, a refusal to answer, or a reason string when the line is malformed (and must be ignored)
 */
export function parseJsonRpcLine(line: string): ParsedLine {
  const depth = nestingDepth(line);
  if (depth > MAX_NESTING) {
    const id = peekRequestId(line.slice(0, 512));
    const message = `request nested deeper than ${MAX_NESTING} levels refused`;
    return id === undefined ? { malformed: message } : { refused: { id, code: INVALID_REQUEST, message } };
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // swallowed: a line that is not JSON is malformed and ignored, as the spec says
    return { malformed: 'not JSON' };
  }
  if (Array.isArray(value)) return { batch: value };
  const rawId = exactNumber((value as { id?: unknown } | null)?.id) ? undefined : rawNumericId(line);
  if (rawId !== undefined) (value as { id: unknown }).id = rawId;
  return classifyMessage(value);
}

/** @returns whether `id` is not a number, or a number `JSON.stringify` writes back as the same value */
function exactNumber(id: unknown): boolean {
  return typeof id !== 'number' || (Number.isSafeInteger(id) && !Object.is(id, -0));
}

/**
 * @param value one parsed JSON value (a line, or an element of a batch)
 * @returns the message, or why it is malformed
 */
export function classifyMessage(value: unknown): JsonRpcInbound | { malformed: string } {
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
  if (typeof id === 'string' || id === null || (typeof id === 'number' && Number.isFinite(id)) || isRawJsonId(id)) {
    return { kind: 'request', id, method, params };
  }
  if (typeof id === 'number') return { malformed: `id is a number this backend cannot echo (${String(id)}; no raw JSON support)` };
  return { malformed: 'id is neither a string, a number nor null' };
}

interface RawJson {
  rawJSON(text: string): RawJsonId;
}

/** @returns whether `value` is a raw JSON token made by {@link rawNumericId} */
function isRawJsonId(value: unknown): value is RawJsonId {
  const json = JSON as unknown as { isRawJSON?: (v: unknown) => boolean };
  return typeof json.isRawJSON === 'function' && json.isRawJSON(value);
}

/**
 * The top-level `id`'s raw token, parsed again with source access (Node 22: JSON.parse source
 * text). Only the id of the top-level object counts (a `params.id` is visited by the reviver too).
 */
function rawNumericId(line: string): RawJsonId | undefined {
  const json = JSON as unknown as RawJson;
  if (typeof json.rawJSON !== 'function') return undefined;
  const raws = new Map<unknown, RawJsonId>();
  let root: unknown;
  try {
    JSON.parse(line, function (this: unknown, key: string, value: unknown, context?: { source?: string }) {
      if (key === 'id' && typeof value === 'number' && typeof context?.source === 'string' && !Array.isArray(this)) raws.set(this, json.rawJSON(context.source));
      if (key === '') root = value;
      return value;
    } as (key: string, value: unknown) => unknown);
  } catch {
    // swallowed: the line parsed a moment ago; without source access the number is echoed as parsed
    return undefined;
  }
  return raws.get(root);
}

/**
 * Deepest array/object nesting of a JSON text, counted outside strings, without parsing it.
 * @param text JSON text
 * @returns the depth (stops counting once above {@link MAX_NESTING})
 */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > MAX_NESTING) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
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

const ID_PREFIX = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?(?:0|[1-9]\d{0,400})(?:\.\d{1,400})?(?:[eE][+-]?\d{1,10})?|"(?:[^"\\]|\\.){0,200}")\s*[,}]/;

/**
 * Recovers the id of a refused (oversize) request from its first bytes, when `id` is the first
 * member of the object or directly follows `"jsonrpc":"2.0"`. Anything else gives `undefined`.
 * @param head the first bytes of the line, decoded
 * @returns the id, or undefined when it cannot be read unambiguously
 */
export function peekRequestId(head: string): JsonRpcId | undefined {
  const match = ID_PREFIX.exec(head);
  if (!match?.[1]) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    if (typeof id === 'string') return id;
    if (typeof id !== 'number') return undefined;
    if (exactNumber(id)) return id;
    const json = JSON as unknown as Partial<RawJson>;
    return typeof json.rawJSON === 'function' ? json.rawJSON(match[1]) : undefined;
  } catch {
    // swallowed: an unreadable id means we do not answer
    return undefined;
  }
}
