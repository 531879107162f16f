/**
 * Merging per-server diagnostics of one file into one {@link FileDiagnostics} (pure).
 */
import type { FileDiagnostics, Freshness, ServerDiagnostics } from './engine-types.ts';
import { sortDiagnostics } from './normalize-diagnostics.ts';

const RANK: Record<Freshness, number> = { fresh: 0, stale: 1, pending: 2 };

/**
 * @param path the file
 * @param version the engine version asked about
 * @param servers each routed server's result (in routing order)
 * @returns the merged view: worst state across servers, diagnostics sorted by position then severity
 */
export function mergeDiagnostics(path: string, version: number, servers: ServerDiagnostics[]): FileDiagnostics {
  let state: Freshness = 'fresh';
  for (const server of servers) if (RANK[server.state] > RANK[state]) state = server.state;
  return {
    path,
    version,
    state,
    diagnostics: sortDiagnostics(servers.flatMap((s) => s.diagnostics)),
    servers,
  };
}
