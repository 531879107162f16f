/**
 * The permission seam of write actions: decide, before any language-server round-trip,
 * whether this call may write, and under which sandbox policy.
 */
import type { Agent } from '@deepseek-ai/dsh-agent';
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import type { Session } from '@deepseek-ai/dsh-session';
import type { WriteGrant } from '../actions/action-definition.ts';

/** A request for write permission. */
export interface WriteAuthorizationRequest {
  /** Absolute workspace root of the call. */
  root: string;
  /** The session whose preset applies (tools: the calling agent's; editor: the bound session, if any). */
  session?: Session;
  /** The live agent, needed for an escalation ask (approval requires its open turn). */
  agent?: Agent;
  /** A requested escalation (`sandbox_permissions` + `justification`), already paired. */
  escalation?: { requestedMode: SandboxMode; justification: string };
  /** Tool call id, for the approval audit. */
  callId?: string;
  /** Name shown in the approval ask, e.g. `lsp_format` or `editor:format`. */
  toolName: string;
  signal: AbortSignal;
  /** Actor for fs events, carried into the grant. */
  actor?: object;
}

/**
 * Grants or refuses write permission.
 * Throws `ActionError`:
 * - `LSP_ACTION_READ_ONLY` (message carries the harness sandbox marker text and the escalation hint);
 * - `LSP_ACTION_APPROVAL_UNAVAILABLE` (escalation asked, but no approval service, no live agent,
 *   no open turn, rejected or cancelled: fail closed);
 * - `LSP_ACTION_INVALID_ARGS` (escalation not strictly wider than the current mode, or unpaired).
 */
export interface WriteAuthorizer {
  /** Whether escalation parameters may be advertised (the fs backend confines writes). */
  readonly canEscalate: boolean;
  authorize(request: WriteAuthorizationRequest): Promise<WriteGrant>;
}
