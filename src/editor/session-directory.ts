/**
 * The live DSH sessions the editor may address: the agent registry (`ctx.agents`) when the
 * composition has one, and the binding rules of a run's `sessionId`.
 */
import type { Agent } from '@deepseek-ai/dsh-agent';
import { ActionError } from '../errors.ts';
import { parseEscalationArgs, type EscalationArgs } from '../permission/parse-escalation-args.ts';
import type { SessionInfo } from './event-stream.ts';

/** What the directory needs from `ctx.agents`. */
export interface AgentListing {
  list(): Agent[];
}

/** A run bound to a session: what the runner receives. */
export interface SessionBinding {
  agent: Agent;
  /** The session's workspace; the run's `workspaceRoot` must lie inside it. */
  cwd: string;
}

/** A requested escalation, validated and paired. */
export type Escalation = EscalationArgs;

/**
 * Lists live sessions and binds runs to them. Reads the registry lazily, so a registry mounted
 * after the backend started is picked up.
 */
export class SessionDirectory {
  readonly #agents: () => AgentListing | undefined;

  /** @param agents returns the agent registry, or undefined when the composition has none */
  constructor(agents: () => AgentListing | undefined) {
    this.#agents = agents;
  }

  /**
   * @param without an agent to leave out (one that is being disposed)
   * @returns the live sessions, in registration order
   */
  list(without?: Agent): SessionInfo[] {
    const agents = this.#agents()?.list() ?? [];
    return agents
      .filter((agent) => agent !== without)
      .map((agent) => ({ sessionId: String(agent.id), cwd: agent.session.header.cwd ?? '', live: true }));
  }

  /**
   * Resolves a run's `sessionId`. Fails closed: an unknown id never falls back to the
   * backend's own preset.
   * @param sessionId the run's `sessionId` (absent → no binding)
   * @returns the binding, or undefined when no session was named
   * @throws ActionError `LSP_ACTION_INVALID_ARGS` (not a string, or no live session has that id),
   *   `LSP_ACTION_WORKSPACE_REQUIRED` (the session has no workspace)
   */
  bind(sessionId: unknown): SessionBinding | undefined {
    if (sessionId === undefined) return undefined;
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new ActionError('LSP_ACTION_INVALID_ARGS', 'sessionId must be a non-empty string');
    }
    const agent = this.#agents()?.list().find((a) => String(a.id) === sessionId);
    if (!agent) {
      throw new ActionError('LSP_ACTION_INVALID_ARGS', `no live session "${sessionId}"; lsp.actions.list shows the live sessions`);
    }
    const cwd = agent.session.header.cwd;
    if (!cwd) {
      throw new ActionError('LSP_ACTION_WORKSPACE_REQUIRED', `session "${sessionId}" has no workspace (cwd) to bind a run to`);
    }
    return { agent, cwd };
  }

  /**
   * Reads the escalation pair of a write run's params. Escalation is resolved through the
   * bound session's live agent in an open turn only; otherwise the run fails closed before
   * anything runs.
   * @param params the action params
   * @param binding the run's session binding
   * @returns the escalation, or undefined when none was asked
   * @throws ActionError `LSP_ACTION_INVALID_ARGS` (unpaired, empty, or unknown mode),
   *   `LSP_ACTION_APPROVAL_UNAVAILABLE` (no bound session, or its agent is not in a turn)
   */
  escalation(params: unknown, binding: SessionBinding | undefined): Escalation | undefined {
    const asked = parseEscalationArgs(params);
    if (!asked) return undefined;
    if (!binding) {
      throw new ActionError(
        'LSP_ACTION_APPROVAL_UNAVAILABLE',
        'escalation needs an approval, and approvals need a bound session (sessionId) whose agent is in an open turn',
      );
    }
    if (binding.agent.status !== 'running') {
      throw new ActionError(
        'LSP_ACTION_APPROVAL_UNAVAILABLE',
        `session "${String(binding.agent.id)}" has no open turn, so no approval can be asked`,
      );
    }
    return asked;
  }
}
