/**
 * The workspace root of a tool call made by a host face that has no agent session (the MCP
 * server): the face binds the root to the call's id for the length of the call, and
 * `sessionRoot` reads it when the call carries no agent. A call with an agent always uses its
 * session's cwd; an unbound agentless call still has no root (`LSP_ACTION_WORKSPACE_REQUIRED`).
 *
 * Keyed by call id because the tool registry hands the body a new execution object built from
 * the caller's input; the id is the part of that input that reaches the body unchanged.
 */

const roots = new Map<string, string>();

/**
 * @param callId the call's id, unique among calls in flight
 * @param root absolute workspace root of the call
 * @returns releases the binding (call when the call settled)
 * @throws Error when the id is already bound (two calls must not share an id)
 */
export function bindHostCallRoot(callId: string, root: string): () => void {
  if (roots.has(callId)) throw new Error(`call id ${callId} is already bound to a workspace root`);
  roots.set(callId, root);
  return () => {
    if (roots.get(callId) === root) roots.delete(callId);
  };
}

/**
 * @param callId a call's id
 * @returns the root a host face bound to it, if any
 */
export function hostCallRoot(callId: unknown): string | undefined {
  return typeof callId === 'string' ? roots.get(callId) : undefined;
}
