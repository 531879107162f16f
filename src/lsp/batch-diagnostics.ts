/**
 * Diagnostics of many files in one go (the CLI's `check`). Files served by a tsserver-backed
 * server (strategy `tsserver`) are asked WITHOUT opening them: one file per project is asked
 * the normal way (which starts the server and loads the project), then tsserver's synchronous
 * diagnostics are requested for every other file of the project, a few in flight at once;
 * tsserver reads them from disk. Files served by a pull server whose entry says
 * `pullsUnopenedFiles` (TypeScript 7's `tsc --lsp`) are pulled without opening them, pipelined
 * (unopened-pull.ts). Every other file goes through the normal per-file path.
 *
 * Freshness of the unopened answers: the files' fs versions are taken before the first request
 * and again after the last answer; if any file of a server's batch changed in between (or the
 * engine noticed a change meanwhile), that batch's answers are `pending`, never `fresh`.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { URI } from 'vscode-uri';
import { abortError, isActionError } from '../errors.ts';
import type { DiagnosticsCollector } from './diagnostics-collector.ts';
import type { BatchDiagnosticsEntry, FileDiagnostics, ServerDiagnostics, ServerEpoch } from './engine-types.ts';
import type { LanguageClient } from './language-client.ts';
import { mergeDiagnostics } from './merge-diagnostics.ts';
import { normalizeDiagnostics, serverDiagnostics } from './normalize-diagnostics.ts';
import type { ServerPool } from './server-pool.ts';
import type { ServerRouter } from './server-routing.ts';
import type { ServerSessions } from './server-sessions.ts';
import { requestTsserverDiagnostics } from './tsserver-diagnostics.ts';
import { pullUnopenedGroup } from './unopened-pull.ts';

/**
 * Files asked at once per batch (tsserver answers in order; the requests are pipelined, so this
 * only keeps tsserver from idling between answers — 8 left it idle ~10% of the time, 32 does not).
 */
const IN_FLIGHT = 32;
/** Files asked the normal way at once. */
const PER_FILE_CONCURRENCY = 4;

/** What the batch needs from the engine. */
export interface BatchDeps {
  fs: Pick<FileSystem, 'resolve' | 'stat'>;
  router: ServerRouter;
  pool: ServerPool;
  sessions: ServerSessions;
  collectorOf: (client: LanguageClient) => DiagnosticsCollector | undefined;
  isOpen: (client: LanguageClient, path: string) => boolean;
  noticed: () => number;
  /** Applies the file changes the engine has learned but not yet told the servers. */
  sync: () => Promise<void>;
  /** How long one answer may be waited for (unopened pulls: from when each is sent). */
  waitMs?: number;
  log?: (message: string) => void;
  /** A warm-started process's epoch (unopened pulls on that process are proven against it). */
  epoch?: ServerEpoch;
  /** The engine's per-file diagnostics. */
  single: (path: string, signal?: AbortSignal) => Promise<FileDiagnostics>;
}

/**
 * @param deps engine parts
 * @param root workspace root
 * @param paths absolute files
 * @param signal cancels everything
 * @param minSeverity the lowest severity the caller keeps (1 error … 4 hint): below 4, the
 *   unopened files' hint-only pass (tsserver's suggestion diagnostics) is not asked
 * @param onAnswered called once per file as its answer arrives (progress only: an unopened
 *   file's final freshness is decided when its whole group has answered)
 * @returns one result per path, in order (a file that failed alone carries its error per server)
 */
export async function batchDiagnostics(
  deps: BatchDeps,
  root: string,
  paths: readonly string[],
  signal?: AbortSignal,
  minSeverity: 1 | 2 | 3 | 4 = 4,
  onAnswered?: (path: string) => void,
): Promise<BatchDiagnosticsEntry[]> {
  const results = new Map<string, BatchDiagnosticsEntry>();
  const groups = new Map<string, { serverId: string; serverRoot: string; paths: string[] }>();
  const singles: string[] = [];
  for (const path of paths) {
    const routes = deps.router.route(path, root);
    if (routes.length !== 1) {
      singles.push(path);
      continue;
    }
    const serverId = (routes[0] as { serverId: string }).serverId;
    const serverRoot = await deps.router.findRoot(serverId, path, root, deps.fs, signal);
    const key = `${serverId}\u0000${serverRoot}`;
    const group = groups.get(key) ?? { serverId, serverRoot, paths: [] };
    group.paths.push(path);
    groups.set(key, group);
  }
  const one = async (path: string): Promise<void> => {
    try {
      results.set(path, await deps.single(path, signal));
    } catch (error) {
      if (!isActionError(error) || signal?.aborted) throw error;
      results.set(path, { path, error: { code: error.code, message: error.message } });
    }
    onAnswered?.(path);
  };
  for (const group of groups.values()) {
    const [first, ...rest] = group.paths;
    if (first === undefined) continue;
    if (await pulledUnopened(deps, group, results, singles, signal, onAnswered, minSeverity)) continue;
    const before = await fsVersions(deps.fs, group.paths);
    await one(first); // starts the server and loads the project
    const lease = await deps.pool.lease(group.serverId, group.serverRoot, signal).catch(() => undefined);
    if (lease === undefined || deps.collectorOf(lease.client)?.strategy !== 'tsserver') {
      lease?.release();
      singles.push(...rest);
      continue;
    }
    try {
      const client = lease.client;
      const noticedAtStart = deps.noticed();
      const answered: Array<[string, ServerDiagnostics]> = [];
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < rest.length) {
          if (signal?.aborted) throw abortError(signal);
          const path = rest[next++] as string;
          if (deps.isOpen(client, path)) {
            await one(path);
            continue;
          }
          try {
            // not sent to the server: `No Project` is an expected answer here, not a health sign
            const raw = await requestTsserverDiagnostics(client, path, { signal, unopened: true, suggestions: minSeverity >= 4 });
            const items = await deps.sessions.normalizeAcross(client, (ctx) => normalizeDiagnostics(ctx, raw, path, 'tsserver diagnostics'));
            answered.push([path, serverDiagnostics({ serverId: client.serverId, mode: 'pull', strategy: 'tsserver', state: 'fresh', version: 0, items })]);
            onAnswered?.(path);
          } catch (error) {
            if (!isActionError(error) || signal?.aborted) throw error;
            await one(path); // not in a loaded project (tsserver: "No Project"): open it
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, rest.length) }, worker));
      const after = await fsVersions(deps.fs, group.paths);
      const changed = deps.noticed() !== noticedAtStart || group.paths.some((p) => before.get(p) !== after.get(p));
      for (const [path, server] of answered) {
        results.set(path, mergeDiagnostics(path, 0, [changed ? { ...server, state: 'pending' } : server]));
      }
    } finally {
      lease.release();
    }
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < singles.length) await one(singles[next++] as string);
  };
  await Promise.all(Array.from({ length: Math.min(PER_FILE_CONCURRENCY, singles.length) }, worker));
  return paths.map((path) => results.get(path) ?? { path, error: { code: 'LSP_ACTION_UNAVAILABLE', message: `${path} was not checked` } });
}

/**
 * The group's files through {@link pullUnopenedGroup} when its server says it answers pulls for
 * unopened files and pulls now; the files it leaves (open, failed) join `singles`.
 * @returns false when the group is not for this path (nothing done)
 */
async function pulledUnopened(
  deps: BatchDeps,
  group: { serverId: string; serverRoot: string; paths: string[] },
  results: Map<string, BatchDiagnosticsEntry>,
  singles: string[],
  signal: AbortSignal | undefined,
  onAnswered: ((path: string) => void) | undefined,
  minSeverity: 1 | 2 | 3 | 4,
): Promise<boolean> {
  const lease = await deps.pool.lease(group.serverId, group.serverRoot, signal).catch(() => undefined);
  if (lease === undefined) return false;
  try {
    const client = lease.client;
    if (client.config.pullsUnopenedFiles !== true || deps.collectorOf(client)?.strategy !== 'pull') return false;
    const pulled = await pullUnopenedGroup(
      {
        sessions: deps.sessions,
        versions: (paths) => fsVersions(deps.fs, paths),
        isOpen: deps.isOpen,
        noticed: deps.noticed,
        sync: deps.sync,
        ...(deps.waitMs === undefined ? {} : { waitMs: deps.waitMs }),
        ...(deps.log === undefined ? {} : { log: deps.log }),
        ...(deps.epoch === undefined ? {} : { epoch: deps.epoch }),
        minSeverity,
      },
      client,
      group.paths,
      (path) => URI.file(path).toString(),
      signal,
      onAnswered,
    );
    for (const [path, server] of pulled.answered) results.set(path, mergeDiagnostics(path, 0, [server]));
    singles.push(...pulled.perFile);
    return true;
  } finally {
    lease.release();
  }
}

/**
 * @param fs the engine's file system
 * @param paths absolute files
 * @returns each file's fs version (`undefined`: missing or unreadable)
 */
export async function fsVersions(fs: Pick<FileSystem, 'resolve' | 'stat'>, paths: readonly string[]): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      try {
        out.set(path, (await fs.stat(await fs.resolve(path)))?.version);
      } catch {
        out.set(path, undefined);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, paths.length) }, worker));
  return out;
}
