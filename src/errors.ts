import { HarnessError } from '@deepseek-ai/dsh-llm';

/**
 * The closed v1 set of `editor-protocol-v1.md`: the only codes an editor envelope's
 * `error.code` carries (see `src/editor/wire-error.ts`).
 */
export const V1_ERROR_CODES = [
  'LSP_ACTION_UNAVAILABLE',
  'LSP_ACTION_UNSUPPORTED',
  'LSP_ACTION_SERVER_FAILED',
  'LSP_ACTION_MALFORMED_RESPONSE',
  'LSP_ACTION_CONFLICT',
  'LSP_ACTION_READ_ONLY',
  'LSP_ACTION_WORKSPACE_REQUIRED',
  'LSP_ACTION_UNKNOWN',
  'LSP_ACTION_INVALID_ARGS',
  'LSP_ACTION_APPROVAL_UNAVAILABLE',
  'LSP_PROTOCOL_VERSION_UNSUPPORTED',
] as const;

/**
 * Every stable failure code this package produces: the v1 set, then additive codes that exist
 * where a v1 code would mislead a caller (a timeout, a cancellation or a crashed server is not
 * "unavailable"). Tools and the CLI report them as they are; the editor wire reports the v1 code
 * with the precise one as `error.reason`.
 */
export const ACTION_ERROR_CODES = [
  ...V1_ERROR_CODES,
  'LSP_ACTION_TIMEOUT',
  'LSP_ACTION_CANCELLED',
  'LSP_ACTION_SERVER_CRASHED',
  'LSP_ACTION_SERVER_GAVE_UP',
  'LSP_ACTION_PEER_ERROR',
  'LSP_ACTION_NO_SYMBOL',
  'LSP_ACTION_FILE_NOT_FOUND',
  'LSP_ACTION_FILE_TOO_LARGE',
  'LSP_ACTION_OUTSIDE_WORKSPACE',
  'LSP_ACTION_WRITE_FAILED',
  'LSP_ACTION_DISPOSED',
  'LSP_ACTION_CONFIG_INVALID',
] as const;

/** A stable, machine-routable failure class. Route on this, never on message text. */
export type ActionErrorCode = (typeof ACTION_ERROR_CODES)[number];

/** The JSON-RPC error a language server answered with, kept intact. */
export interface PeerError {
  code: number;
  message: string;
  data?: unknown;
}

/** Structured details an {@link ActionError} may carry. */
export interface ActionErrorDetails {
  /** The configured server id involved, when one is. */
  serverId?: string;
  /** The last bytes the server wrote to stderr (crash, startup failure). */
  stderrTail?: string;
  /** The peer's JSON-RPC error, for `LSP_ACTION_PEER_ERROR`. */
  peer?: PeerError;
  /** Files involved (conflicts, rollbacks). */
  paths?: string[];
  /** Anything else worth routing on; kept JSON-serialisable. */
  [key: string]: unknown;
}

/**
 * The one error class of this package: a {@link HarnessError} with a code from
 * {@link ACTION_ERROR_CODES}, so the harness keeps `{name, code}` on tool results.
 */
export class ActionError extends HarnessError {
  declare readonly code: ActionErrorCode;
  /** Structured details; never needed to route, always safe to show. */
  readonly details: ActionErrorDetails;

  /**
   * @param code stable failure class
   * @param message human-readable explanation, including the remedy where there is one
   * @param details structured context (server id, stderr tail, peer error, paths)
   * @param options standard `cause`
   */
  constructor(code: ActionErrorCode, message: string, details: ActionErrorDetails = {}, options?: ErrorOptions) {
    super(message, code, options);
    this.name = 'ActionError';
    this.details = details;
  }
}

/**
 * @param value anything thrown
 * @returns whether it is an {@link ActionError} (checked by shape, so copies of this package interoperate)
 */
export function isActionError(value: unknown): value is ActionError {
  return (
    value instanceof Error &&
    value.name === 'ActionError' &&
    typeof (value as { code?: unknown }).code === 'string' &&
    (ACTION_ERROR_CODES as readonly string[]).includes((value as unknown as { code: string }).code)
  );
}

/**
 * Maps an aborted signal to the right code: an `ActionError` reason is kept as it is; the
 * harness timeout policy aborts with a `TOOL_TIMEOUT` reason; anything else is a cancellation.
 * @param signal the aborted signal
 * @returns an ActionError to throw
 */
export function abortError(signal: AbortSignal): ActionError {
  const reason: unknown = signal.reason;
  if (isActionError(reason)) return reason;
  const code = (reason as { code?: unknown } | undefined)?.code;
  const isTimeout =
    code === 'TOOL_TIMEOUT' ||
    code === 'LSP_ACTION_TIMEOUT' ||
    (reason instanceof Error && reason.name === 'TimeoutError');
  return isTimeout
    ? new ActionError('LSP_ACTION_TIMEOUT', 'the call ran out of time before the language server answered', {}, { cause: reason })
    : new ActionError('LSP_ACTION_CANCELLED', 'the call was cancelled', {}, { cause: reason });
}
