/**
 * Diagnostics of many files a pull server was never sent (the CLI's `check` on a server whose
 * entry says `pullsUnopenedFiles`: TypeScript 7's `tsc --lsp`, which reads such a file from disk
 * through its project). One `textDocument/diagnostic` per file, pipelined: the first alone (it
 * loads the project — once per server process, whichever batch asks first), then the rest with
 * many in flight.
 *
 * Freshness, as for the tsserver batch (batch-diagnostics.ts): the engine's pending changes are
 * applied first, then the files' fs versions are taken before the first request and again after
 * the last answer; if any file of the group changed in between, or the engine noticed a change,
 * every answer of the group is `pending`, never `fresh`. A diagnostics refresh the server asks
 * for meanwhile, with nothing moved, has the group pulled once more; a refresh during that pass
 * too leaves it `pending`. A file open on the server, and a file whose pull fails (a missing file: tsc --lsp
 * answers "no project found", another server may answer an empty report), is left to the
 * caller's per-file path — never an empty answer.
 *
 * A server process whose project was loaded before the group began ({@link loadUnopened}: the
 * CLI's warm start, while the plan is still being made) may have read a file before the group's
 * "before" versions: then the group is given the process's {@link ServerEpoch} (a snapshot of
 * versions taken before the process was spawned), and a file is asked only if its version now
 * still equals the snapshot's — unchanged since before the server existed, so whatever it read
 * is what is there — and the group's answers are `fresh` only if that still holds after the
 * last answer. A file without that proof (changed since, or not in the snapshot) goes the
 * per-file way.
 * See docs/decisions/0110-warm-project-load.md.
 */
import { abortError, ActionError, isActionError } from '../errors.ts';
import type { ServerDiagnostics, ServerEpoch } from './engine-types.ts';
import type { LanguageClient } from './language-client.ts';
import { isObject } from './normalize-common.ts';
import { normalizeDiagnostics, serverDiagnostics } from './normalize-diagnostics.ts';
import type { ServerSessions } from './server-sessions.ts';

/** Pulls in flight at once per group (tsc --lsp answers 300 unopened pulls in ~110 ms, measured). */
export const UNOPENED_IN_FLIGHT = 64;

/** What a group's pulls need from the engine. */
export interface UnopenedPullDeps {
  sessions: Pick<ServerSessions, 'normalizeAcross'>;
  /** fs versions of files (`undefined`: missing or unreadable). */
  versions: (paths: readonly string[]) => Promise<Map<string, string | undefined>>;
  isOpen: (client: LanguageClient, path: string) => boolean;
  /** Bumped whenever the engine notices a file change. */
  noticed: () => number;
  /** Applies the changes the engine has learned but not yet told the servers. */
  sync: () => Promise<void>;
  /**
   * How long one pull may wait for its answer (from when it is sent); a pull not answered by
   * then goes the per-file way, which has its own wait and says `pending` when that runs out.
   */
  waitMs?: number;
  log?: (message: string) => void;
  /** The epoch of the process the group's files go to, when its project may have been loaded before the group began. */
  epoch?: ServerEpoch;
  /**
   * The lowest severity the caller keeps (1 error … 4 hint): less severe items are dropped as
   * they arrive, before their positions are mapped (which may read the file). Default 4: all.
   */
  minSeverity?: 1 | 2 | 3 | 4;
}

/** What a group came to. */
export interface UnopenedPullResult {
  /** Answered files with their server result (`fresh`, or `pending` when something changed). */
  answered: Array<[string, ServerDiagnostics]>;
  /** Files for the per-file path: open on the server, or their pull failed. */
  perFile: string[];
}

/** Per server process: the first pull, which loads the project (later groups wait for it). */
const loading = new WeakMap<LanguageClient, Promise<unknown>>();

/**
 * Loads the project of `path` on a fresh server process: pulls it unopened and drops the answer
 * (it is asked again, with the freshness rules, by the group that has it). Later groups on this
 * process wait for this load instead of loading the project themselves.
 * @param client a ready pull server with `pullsUnopenedFiles`, no group pulled on it yet
 * @param path a file of the project
 * @param uri its file URI
 * @param waitMs how long the load may take (then the groups go on without it)
 * @returns when the load is answered, failed or out of time (never rejects)
 */
export function loadUnopened(client: LanguageClient, path: string, uri: string, waitMs: number): Promise<void> {
  const known = loading.get(client);
  if (known !== undefined) return known.then(() => undefined);
  const load = pullUnopened(client, path, uri, AbortSignal.timeout(Math.max(1, waitMs))).then(
    () => undefined,
    () => undefined,
  );
  loading.set(client, load);
  return load;
}

/**
 * @param client a ready pull server with `pullsUnopenedFiles`
 * @param path absolute path of a file not open on it
 * @param uri its file URI
 * @param signal cancels
 * @returns the server's own Diagnostic objects for the file as it reads it from disk
 * @throws ActionError when the server answers an error or anything but a full report
 */
export async function pullUnopened(client: LanguageClient, path: string, uri: string, signal?: AbortSignal): Promise<unknown[]> {
  const params: Record<string, unknown> = { textDocument: { uri } };
  const identifier = client.registry.pullIdentifier;
  if (identifier !== undefined) params.identifier = identifier;
  // `requestUnloaded`: "no project found" for a file is an expected answer here, not a health sign.
  const report = await client.requestUnloaded<unknown>('textDocument/diagnostic', params, signal);
  if (!isObject(report) || report.kind !== 'full' || !Array.isArray(report.items)) {
    throw new ActionError('LSP_ACTION_SERVER_FAILED', `${client.serverId}: the pull for unopened ${path} was not a full report`);
  }
  return report.items;
}

/**
 * @param items a server's Diagnostic objects
 * @param minSeverity the lowest severity kept (undefined: all)
 * @returns the items at or above it; an item without an LSP severity (none, out of range) is kept:
 *   normalising decides what it is
 */
export function keptSeverities(items: unknown[], minSeverity: 1 | 2 | 3 | 4 | undefined): unknown[] {
  if (minSeverity === undefined || minSeverity >= 4) return items;
  // only the LSP severities below the cut (integers up to 4): anything else is normalising's to judge
  return items.filter((item) => !isObject(item) || !Number.isInteger(item.severity) || (item.severity as number) <= minSeverity || (item.severity as number) > 4);
}

/**
 * @param deps engine parts
 * @param client the group's server (leased by the caller)
 * @param paths the group's files, all routed to `client`
 * @param uriOf the file URI of a path
 * @param signal cancels everything
 * @param onAnswered called once per file as its answer arrives (progress only)
 * @returns the answers and the files left to the per-file path
 */
export async function pullUnopenedGroup(
  deps: UnopenedPullDeps,
  client: LanguageClient,
  paths: readonly string[],
  uriOf: (path: string) => string,
  signal?: AbortSignal,
  onAnswered?: (path: string) => void,
): Promise<UnopenedPullResult> {
  const perFile: string[] = [];
  const candidates: string[] = [];
  for (const path of paths) (deps.isOpen(client, path) ? perFile : candidates).push(path);
  if (candidates.length === 0) return { answered: [], perFile };
  await deps.sync();
  const noticedAtStart = deps.noticed();
  let refreshed = false;
  const refresh = client.onRefresh(() => (refreshed = true));
  const answered: Array<[string, ServerDiagnostics]> = [];
  try {
    const snapshot = deps.epoch !== undefined && deps.epoch.serverId === client.serverId && deps.epoch.root === client.root ? deps.epoch.snapshot : undefined;
    // With an epoch, the group's versions are its snapshot's, taken the same way: equal to the
    // snapshot's, they prove more than the engine's own (unchanged since before the server existed).
    const versionsNow = snapshot === undefined ? deps.versions : snapshot.now;
    const before = await versionsNow(candidates);
    // A file that cannot be read now is not asked: a server may answer an empty report for it.
    // With an epoch, nor is one changed since before the server's process existed (see above).
    const asked: string[] = [];
    for (const path of candidates) {
      const now = before.get(path);
      (now === undefined || (snapshot !== undefined && snapshot.versions.get(path) !== now) ? perFile : asked).push(path);
    }
    if (asked.length === 0) return { answered: [], perFile };
    // progress counts each file once: a second pass (below) does not tell it again
    let tell = onAnswered;
    const one = async (path: string): Promise<void> => {
      if (signal?.aborted) throw abortError(signal);
      try {
        const budget = deps.waitMs === undefined ? undefined : AbortSignal.timeout(Math.max(1, deps.waitMs));
        const raw = keptSeverities(await pullUnopened(client, path, uriOf(path), budget === undefined ? signal : signal === undefined ? budget : AbortSignal.any([signal, budget])), deps.minSeverity);
        const items = await deps.sessions.normalizeAcross(client, (ctx) => normalizeDiagnostics(ctx, raw, path, 'unopened pull'));
        answered.push([path, serverDiagnostics({ serverId: client.serverId, mode: 'pull', strategy: 'pull', state: 'fresh', version: 0, items })]);
        tell?.(path);
      } catch (error) {
        if (!isActionError(error) || signal?.aborted) throw error;
        deps.log?.(`${path}: unopened pull failed (${error.message}); asked the per-file way`);
        perFile.push(path);
      }
    };
    const [first, ...rest] = asked as [string, ...string[]];
    const load = loading.get(client);
    if (load === undefined) {
      const own = one(first);
      loading.set(client, own.catch(() => undefined));
      await own;
    } else {
      await load;
      rest.unshift(first);
    }
    const pullAll = async (files: readonly string[]): Promise<void> => {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < files.length) await one(files[next++] as string);
      };
      await Promise.all(Array.from({ length: Math.min(UNOPENED_IN_FLIGHT, files.length) }, worker));
    };
    await pullAll(rest);
    const movedSince = async (): Promise<boolean> => {
      const after = await versionsNow(asked);
      return deps.noticed() !== noticedAtStart || asked.some((p) => before.get(p) !== after.get(p));
    };
    let moved = await movedSince();
    // The server asked for a refresh while the group ran, and no file moved that we know of: it
    // updated its own state (TypeScript 7 asks after every file change it is told of, ~0.1 s
    // later, so a `--watch` re-check met it in most groups), and answers sent before the request
    // may predate the update. The group is pulled once more: answers to pulls sent after the
    // request came reflect it. Another refresh during that pass leaves the answers pending.
    if (refreshed && !moved && signal?.aborted !== true) {
      refreshed = false;
      tell = undefined;
      const again = answered.splice(0).map(([path]) => path);
      await pullAll(again);
      moved = await movedSince();
    }
    const changed = refreshed || moved;
    deps.log?.(
      `${client.serverId}: pulled ${answered.length} of ${asked.length} files unopened` +
        (changed ? ' (files changed meanwhile: answers pending)' : '') +
        (perFile.length > 0 ? `; ${perFile.length} asked per file` : ''),
    );
    return { answered: changed ? answered.map(([path, server]) => [path, { ...server, state: 'pending' }]) : answered, perFile };
  } finally {
    refresh.dispose();
  }
}
