/**
 * The permission gate of write actions, over the harness's own sandbox policy and approval
 * seams. Decided before any language-server round-trip:
 *
 * | composition | request | outcome |
 * |---|---|---|
 * | no `ctx.sandboxPolicy`, or an fs that never confines (`ctx.fs.sandboxMode === undefined`) | any | grant, no policy (unconditional writes, like the harness's `write` tool) |
 * | policy resolves `read-only` | no escalation | `LSP_ACTION_READ_ONLY`: sandbox marker (+ escalation hint when an ask could succeed) |
 * | any confining mode | escalation not strictly wider (`WIDER_MODES`) | `LSP_ACTION_INVALID_ARGS` |
 * | any confining mode | escalation, approved (`approveEscalation` → `ctx.approval`) | grant with the policy resolved for the approved mode |
 * | any confining mode | escalation, not approved (no approval service, no agent, no open turn, rejected, cancelled, unavailable) | `LSP_ACTION_APPROVAL_UNAVAILABLE` (fail closed) |
 * | `workspace-write` / `danger-full-access` | no escalation | grant with the resolved policy (the fs fence enforces it per write) |
 *
 * An approval ask that fails because the call's own signal aborted is reported as the abort
 * (`LSP_ACTION_CANCELLED` / `LSP_ACTION_TIMEOUT`): a timeout is not "approval unavailable".
 */
import type { Context } from '@deepseek-ai/cordis';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { CallId } from '@deepseek-ai/dsh-llm';
import type { SandboxExecutionPolicy, SandboxMode } from '@deepseek-ai/dsh-sandbox';
import { approveEscalation, escalationHintMarker, sandboxDenialMarker, WIDER_MODES } from '@deepseek-ai/dsh-sandbox';
import type { SandboxPolicyService } from '@deepseek-ai/dsh-sandbox-policy';
import type { ApprovalService } from '@deepseek-ai/dsh-user-approval';
import type { WriteGrant } from '../actions/action-definition.ts';
import { abortError, ActionError } from '../errors.ts';
import type { WriteAuthorizationRequest, WriteAuthorizer } from './write-authorizer-types.ts';

/** The noun the harness's markers use for a file mutation. */
const SUBJECT = 'operation';

/**
 * {@link WriteAuthorizer} over `ctx.sandboxPolicy`, `ctx.approval` and `ctx.fs.sandboxMode`.
 * Optional services are looked up per call (`ctx.get`), so it follows services that come and go.
 */
export class SandboxWriteAuthorizer implements WriteAuthorizer {
  readonly #ctx: Context;

  /**
   * @param ctx cordis context; reads `ctx.get('sandboxPolicy')`, `ctx.get('approval')` and
   *   `ctx.get('fs')?.sandboxMode` at each call
   */
  constructor(ctx: Context) {
    this.#ctx = ctx;
  }

  /** True exactly when the mounted fs confines writes (`ctx.fs.sandboxMode !== undefined`). */
  get canEscalate(): boolean {
    const fs: FileSystem | undefined = this.#ctx.get('fs');
    return fs?.sandboxMode !== undefined;
  }

  /**
   * @param request root, session, agent, escalation, call identity, signal, actor
   * @returns the grant: the policy to pass to every write, and the actor for fs events
   * @throws ActionError `LSP_ACTION_READ_ONLY`, `LSP_ACTION_INVALID_ARGS`,
   *   `LSP_ACTION_APPROVAL_UNAVAILABLE`, or the abort code when the signal fires
   */
  async authorize(request: WriteAuthorizationRequest): Promise<WriteGrant> {
    const { signal } = request;
    if (signal.aborted) throw abortError(signal);
    const actor = request.actor ? { actor: request.actor } : {};
    const policyService: SandboxPolicyService | undefined = this.#ctx.get('sandboxPolicy');
    if (policyService === undefined || !this.canEscalate) return actor;

    const session = request.session ? { session: request.session } : {};
    const policy = policyService.resolve(session);
    if (request.escalation === undefined) {
      if (policy.mode === 'read-only') throw this.#readOnly(request, policy);
      return { policy, ...actor };
    }
    const granted = await this.#approve(request, request.escalation, policy.mode);
    return { policy: policyService.resolve({ ...session, mode: granted }), ...actor };
  }

  async #approve(
    request: WriteAuthorizationRequest,
    escalation: { requestedMode: SandboxMode; justification: string },
    effectiveMode: SandboxMode,
  ): Promise<SandboxMode> {
    const { requestedMode, justification } = escalation;
    if (!(WIDER_MODES[effectiveMode] ?? []).includes(requestedMode)) {
      throw new ActionError(
        'LSP_ACTION_INVALID_ARGS',
        `sandbox escalation to "${requestedMode}" is not strictly wider than this call's current "${effectiveMode}" mode; ` +
          'retry without sandbox_permissions',
        { field: 'sandbox_permissions', mode: effectiveMode, requestedMode },
      );
    }
    const { signal } = request;
    const approver: ApprovalService | undefined = this.#ctx.get('approval');
    try {
      return await approveEscalation(
        { requestedMode, justification, effectiveMode, subject: SUBJECT },
        {
          approver,
          agent: request.agent,
          callId: request.callId === undefined ? undefined : CallId(request.callId),
          toolName: request.toolName,
          signal,
        },
      );
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      const detail = error instanceof Error ? error.message : String(error);
      throw new ActionError(
        'LSP_ACTION_APPROVAL_UNAVAILABLE',
        `${detail}; nothing was written (the call stays under the ${effectiveMode} sandbox)`,
        { mode: effectiveMode, requestedMode },
        { cause: error },
      );
    }
  }

  #readOnly(request: WriteAuthorizationRequest, policy: SandboxExecutionPolicy): ActionError {
    const lines = [
      `${sandboxDenialMarker(policy.mode)} ${request.toolName} changes files, and this session's sandbox is read-only; ` +
        'nothing was written.',
    ];
    if (this.#canAsk(request, policy.mode)) lines.push(escalationHintMarker(SUBJECT));
    return new ActionError('LSP_ACTION_READ_ONLY', lines.join('\n'), { mode: policy.mode, paths: [request.root] });
  }

  /** An ask can only succeed with a confining fs, a wider mode, an approval service and a live agent. */
  #canAsk(request: WriteAuthorizationRequest, mode: SandboxMode): boolean {
    return (
      this.canEscalate &&
      (WIDER_MODES[mode] ?? []).length > 0 &&
      this.#ctx.get('approval') !== undefined &&
      request.agent !== undefined
    );
  }
}
