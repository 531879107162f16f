/**
 * Language servers a host starts before the engine exists, handed to the engine's pool when it
 * first needs that (server, root): `check` on TypeScript 7 spawns its server and asks for the
 * project's load before the composition boots, so the load (~0.1 s) runs beside the boot instead
 * of after it (decision 0113). The pool takes one only when it is the very process it would have
 * started — same executable, root and normalised entry ({@link serverFingerprint}) — and only while
 * it is still starting or ready; otherwise it starts its own and the host stops the unused one.
 *
 * One registry per process (module state), shared by the host and the plugin because the default
 * composition loads this package's own modules.
 */
import { ServerConfig } from '../config.ts';
import type { LanguageClient } from './language-client.ts';

/** A server started ahead of the engine. */
export interface PrestartedServer {
  serverId: string;
  root: string;
  /** {@link serverFingerprint} of the entry and executable it was started with. */
  fingerprint: string;
  client: LanguageClient;
  /** The client's `start()` (spawn, `initialize`, `initialized`). */
  started: Promise<void>;
}

const offered = new Map<string, PrestartedServer>();

const keyOf = (serverId: string, root: string): string => `${serverId}\u0000${root}`;

/** JSON with object keys sorted, so two equal entries built in different orders compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * @param entry a `servers` entry (normalised here: defaults filled, as the plugin's config has it)
 * @param executable the absolute executable the process runs
 * @returns what identifies the process a pool would start for it
 */
export function serverFingerprint(entry: ServerConfig, executable: string): string {
  return stableJson({ executable, entry: ServerConfig(entry) });
}

/**
 * @param server a client whose `start()` is under way or done
 * @returns withdraws the offer: true when the pool had not taken it (the caller then stops it)
 */
export function offerPrestartedServer(server: PrestartedServer): () => boolean {
  const key = keyOf(server.serverId, server.root);
  offered.set(key, server);
  return () => {
    if (offered.get(key) !== server) return false;
    offered.delete(key);
    return true;
  };
}

/**
 * @param serverId the server the pool is about to start
 * @param root its root
 * @param fingerprint {@link serverFingerprint} of the pool's entry and executable
 * @returns the offered server when it is that very process and alive; undefined otherwise (a
 *   mismatched offer stays for its host to withdraw)
 */
export function takePrestartedServer(serverId: string, root: string, fingerprint: string): PrestartedServer | undefined {
  const key = keyOf(serverId, root);
  const server = offered.get(key);
  if (server === undefined || server.fingerprint !== fingerprint) return undefined;
  if (server.client.state !== 'starting' && server.client.state !== 'ready') return undefined;
  offered.delete(key);
  return server;
}
