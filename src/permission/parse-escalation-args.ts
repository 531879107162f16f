/**
 * Reads the harness's escalation argument pair (`sandbox_permissions` + `justification`) from a
 * tool's or an editor request's raw arguments, with the harness's own validation
 * (`validateEscalationArgs`: the two travel together, the justification is a sentence) and its
 * closed target vocabulary (`ESCALATION_TARGETS`). Whether the requested mode is strictly wider
 * than the call's current one is decided later, per call, by the authorizer.
 */
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import { ESCALATION_TARGETS, validateEscalationArgs } from '@deepseek-ai/dsh-sandbox';
import { ActionError } from '../errors.ts';

/** A paired escalation request. */
export interface EscalationArgs {
  requestedMode: SandboxMode;
  justification: string;
}

/**
 * @param raw the call's raw arguments (an object; anything else carries no escalation)
 * @returns the paired request, or `undefined` when neither field is present
 * @throws ActionError `LSP_ACTION_INVALID_ARGS` for a non-string field, an unpaired field, an
 *   empty justification, or a mode outside `ESCALATION_TARGETS`
 */
export function parseEscalationArgs(raw: unknown): EscalationArgs | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const args = raw as { sandbox_permissions?: unknown; justification?: unknown };
  const requested = optionalString(args.sandbox_permissions, 'sandbox_permissions');
  const justification = optionalString(args.justification, 'justification');
  try {
    validateEscalationArgs(requested, justification);
  } catch (error) {
    throw new ActionError('LSP_ACTION_INVALID_ARGS', error instanceof Error ? error.message : String(error), {
      field: requested === undefined ? 'sandbox_permissions' : 'justification',
    });
  }
  if (requested === undefined || justification === undefined) return undefined;
  const mode = ESCALATION_TARGETS.find((target) => target === requested);
  if (mode === undefined) {
    throw new ActionError(
      'LSP_ACTION_INVALID_ARGS',
      `invalid sandbox_permissions ${JSON.stringify(requested)}: expected one of ${ESCALATION_TARGETS.join(', ')}`,
      { field: 'sandbox_permissions' },
    );
  }
  return { requestedMode: mode, justification };
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new ActionError('LSP_ACTION_INVALID_ARGS', `invalid ${field}: expected a string`, { field });
  }
  return value;
}
