/**
 * The one place a tool reaches the action runner: the workspace root is the calling session's
 * cwd (no fallback), the call's signal, session, agent, actor and escalation are forwarded, and
 * every failure comes back as an `ActionError` whose message tells the model what to do next.
 */
import { ESCALATION_TARGETS } from '@deepseek-ai/dsh-sandbox';
import type { ToolRunContext } from '@deepseek-ai/dsh-tools';
import type { ActionParamsMap, ActionResultMap, BuiltinActionId } from '../actions/action-results.ts';
import type { ActionRunner } from '../actions/action-runner.ts';
import { toActionError } from '../actions/action-runner.ts';
import type { Config } from '../config.ts';
import { ActionError, type ActionErrorCode } from '../errors.ts';
import { parseEscalationArgs } from '../permission/parse-escalation-args.ts';
import type { WriteAuthorizer } from '../permission/write-authorizer-types.ts';
import { hostCallRoot } from './host-call-roots.ts';

/** What the tools are built from. */
export interface LspToolDeps {
  runner: Pick<ActionRunner, 'run'>;
  authorizer: Pick<WriteAuthorizer, 'canEscalate'>;
  config: Config;
}

/** The escalation pair as the schema gives it (only advertised when the fs confines). */
export interface EscalationArgs {
  sandbox_permissions?: string;
  justification?: string;
}

/** Schema fields for the escalation pair; spread into a write tool's parameters when advertised. */
export const ESCALATION_PARAMS = {
  sandbox_permissions: {
    type: 'string',
    enum: [...ESCALATION_TARGETS],
    description:
      'The wider sandbox mode this change needs. Only as a one-time retry of a change the sandbox just refused; requires justification and the user\'s approval.',
  },
  justification: {
    type: 'string',
    description: 'Required with sandbox_permissions: one sentence for the user on why this exact change needs wider access.',
  },
} as const;

/**
 * @param exec the tool call
 * @returns the session's workspace directory (for an agentless call, the root its host face bound)
 * @throws ActionError `LSP_ACTION_WORKSPACE_REQUIRED` when the call has no session cwd
 */
export function sessionRoot(exec: Pick<ToolRunContext, 'agent' | 'name'> & { callId?: unknown }): string {
  // an agentless call from a host face (the MCP server) carries the root the face bound to its id
  const cwd = exec.agent === undefined ? hostCallRoot(exec.callId) : exec.agent.session.header.cwd;
  if (typeof cwd !== 'string' || cwd.trim() === '') {
    throw new ActionError(
      'LSP_ACTION_WORKSPACE_REQUIRED',
      `${exec.name} works on the session's project directory, and this session has none. It cannot be used here.`,
    );
  }
  return cwd;
}

/** One action call from a tool. */
export interface ToolActionCall<A extends BuiltinActionId> {
  action: A;
  /** Wire params without `workspaceRoot` (added from the session). */
  params: Omit<ActionParamsMap[A], 'workspaceRoot'>;
  escalation?: EscalationArgs;
}

/**
 * Runs one action for a tool call.
 * @param deps the runner
 * @param exec the tool call (signal, agent, call id, name)
 * @param call action id, params, escalation
 * @param root the workspace root, when the caller already read it
 * @returns the action's result
 * @throws ActionError with a model-actionable message
 */
export async function runToolAction<A extends BuiltinActionId>(
  deps: Pick<LspToolDeps, 'runner'>,
  exec: ToolRunContext,
  call: ToolActionCall<A>,
  root = sessionRoot(exec),
): Promise<ActionResultMap[A]> {
  try {
    const escalation = parseEscalationArgs(call.escalation);
    const session = exec.agent?.session;
    const result = await deps.runner.run({
      action: call.action,
      params: { ...call.params, workspaceRoot: root },
      signal: exec.signal,
      ...(session ? { session } : {}),
      ...(exec.agent ? { agent: exec.agent } : {}),
      actor: exec,
      ...(escalation ? { escalation } : {}),
      callId: exec.callId,
      toolName: exec.name,
    });
    return result as ActionResultMap[A];
  } catch (error) {
    throw explainError(toActionError(error, exec.signal), exec.name);
  }
}

/** The next step the model should take, by failure class. */
const REMEDIES: Partial<Record<ActionErrorCode, (tool: string) => string | undefined>> = {
  LSP_ACTION_CONFLICT: (tool) => `The file changed since the language server saw it; nothing was written. Re-read the file if you need to, then re-run ${tool}.`,
  LSP_ACTION_UNAVAILABLE: () => 'No language server handles this kind of file here; use other tools for it.',
  LSP_ACTION_TIMEOUT: (tool) => `The language server may still be starting or indexing; wait a moment and re-run ${tool}, or ask about less at once.`,
  LSP_ACTION_SERVER_CRASHED: (tool) => `The language server stopped unexpectedly; re-run ${tool} to start it again.`,
  LSP_ACTION_SERVER_GAVE_UP: () => 'The language server keeps failing and was given up on for now; continue without it.',
  LSP_ACTION_NO_SYMBOL: () => 'There is no symbol at that position; check line and character (both one-based).',
  LSP_ACTION_FILE_NOT_FOUND: () => 'Check file_path: relative to the workspace or absolute.',
  LSP_ACTION_OUTSIDE_WORKSPACE: () => 'Only files inside the workspace can be used.',
  LSP_ACTION_FILE_TOO_LARGE: () => 'The file is too large for the language server; use other tools for it.',
  LSP_ACTION_UNKNOWN: (tool) =>
    tool === 'lsp_code_action' ? 'Call lsp_code_action without title and index to list the actions available there.' : undefined,
  LSP_ACTION_WRITE_FAILED: (tool) => `Read the files named above before changing them again; re-run ${tool} if the change is still needed.`,
};

/**
 * Adds the next step for the model to an action failure, keeping its code and details. The
 * read-only refusal and approval failures are kept verbatim: they carry the harness's own
 * sandbox marker text, which the model recognises across tools.
 * @param error the coded failure
 * @param tool the tool's name
 * @returns the error to throw
 */
export function explainError(error: ActionError, tool: string): ActionError {
  // a navigation error that lists candidates already says what to do instead
  if (error.code === 'LSP_ACTION_NO_SYMBOL' && Array.isArray(error.details['candidates'])) return error;
  const remedy = REMEDIES[error.code]?.(tool);
  if (remedy === undefined || error.message.includes(remedy)) return error;
  const base = error.message.trim().replace(/[.;:]$/, '');
  return new ActionError(error.code, `${base}. ${remedy}`, error.details, { cause: error });
}
