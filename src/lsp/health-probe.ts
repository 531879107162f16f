/**
 * The request a client sends to ask "are you still there?" when a caller gave up on one of its
 * requests (see `server-health.ts`). It must be cheap, answered by the part of the server that
 * does the work, and answered by every server:
 * - a server forwarding to tsserver (typescript-language-server's `typescript.tsserverRequest`):
 *   tsserver's `status` command — tsserver answers requests one at a time, so the answer comes
 *   from the same process (and queue) that a busy diagnostics or rename request waits for, and a
 *   live typescript-language-server over a wedged tsserver does not pass for healthy;
 * - any other server: a request named `$/dsh-lsp-actions/probe`. LSP 3.17 ("$ Notifications and
 *   Requests"): a request starting with `$/` that the receiver does not implement must be
 *   answered with MethodNotFound — the answer itself is the sign of life.
 */
import type { CapabilityRegistry } from './capability-registry.ts';
import { offersTsserverRequest, PIPELINED, TSSERVER_REQUEST_COMMAND } from './tsserver-diagnostics.ts';

/** The method of the generic probe. */
export const PROBE_METHOD = '$/dsh-lsp-actions/probe';

/** One probe request. */
export interface ProbeRequest {
  method: string;
  params: unknown;
}

/**
 * @param registry the server's capabilities
 * @returns the probe request to send this server
 */
export function healthProbeRequest(registry: CapabilityRegistry): ProbeRequest {
  if (offersTsserverRequest(registry)) {
    return { method: 'workspace/executeCommand', params: { command: TSSERVER_REQUEST_COMMAND, arguments: ['status', {}, PIPELINED] } };
  }
  return { method: PROBE_METHOD, params: {} };
}
