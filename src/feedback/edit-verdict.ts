/**
 * The language servers' verdict on changed files, within a time budget — a statement about every
 * file it covers. It covers the files a tool call wrote, files changed on disk by anyone else
 * since the last verdict (a shell command, the user: noted in the {@link ChangeLedger}), and
 * every file whose problems those changes could alter (their dependents in the program, see
 * `dependents.ts`), plus whatever an earlier verdict could not judge in time. Each file fresh
 * for its current text is compared with its last fresh verdict, whoever changed it since (new /
 * resolved, as `lsp_diagnostics` `changes_only` counts them); a file without a fresh answer in
 * time stays due and is counted as pending; a change whose dependents no server can tell is
 * named. So "no new problems" is only ever said when everything covered was judged.
 *
 * Face-neutral: the DSH edit feedback calls it at `tools/post-execute`; another face (an MCP
 * server) can call it with the paths it changed — or none, to judge what the ledger holds.
 */
import { channel } from 'node:diagnostics_channel';
import { sep } from 'node:path';
import type { DiagnosticsGetResult, WireDiagnostic } from '../actions/action-results.ts';
import type { ActionRunner } from '../actions/action-runner.ts';
import { toWireDiagnostic } from '../actions/wire-format.ts';
import type { EditFeedbackSeverity } from '../config.ts';
import { isActionError } from '../errors.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import { diffDiagnostics, type DiagnosticsMemory, type RememberedDiagnostic } from '../tools/diagnostics-memory.ts';
import type { ChangeLedger } from './change-ledger.ts';
import { findDependents, type DependentsDeps } from './dependents.ts';
import type { DiagnosticsBaselines } from './diagnostics-baselines.ts';
import type { ObservedWrite } from './write-tracker.ts';

/** Items fetched per file: a baseline must be the complete list. */
const FETCH_ITEMS = 1_000;
/** Time past the budget a server start or request may take before the check is cut off. */
const CUTOFF_GRACE_MS = 250;
/** Written files checked at once. */
const CONCURRENCY = 4;
/** Other files asked per batch (pipelined to tsserver; the budget is looked at between batches). */
const BATCH = 32;

/** What a file is to the verdict. */
export type FileRole = 'written' | 'changed' | 'dependent';

/** One file's part of the verdict. */
export interface FileVerdict {
  /** Absolute path. */
  path: string;
  /** Written by the judged call, changed on disk otherwise, or a dependent of a change. */
  role: FileRole;
  state: 'fresh' | 'pending' | 'failed';
  /** Fresh and compared with a baseline; `added` is then what is new, else everything at or above the threshold. */
  compared: boolean;
  /** New problems (or, uncompared, current ones) at or above the severity threshold, root causes first. */
  added: WireDiagnostic[];
  /** Problems at or above the threshold that the change resolved. */
  resolved: number;
  error?: { code: string; message: string };
}

/** The verdict on some changes. */
export interface EditVerdict {
  root: string;
  waitMs: number;
  /** Written and changed files (always), and dependents with something to say. */
  files: FileVerdict[];
  /** Files whose problems may have changed that got no fresh answer within the budget (they stay due). */
  pending: number;
  /** The changes those pending files depend on (or are). */
  pendingOf: string[];
  /** Changes whose dependents no server could tell. */
  unknownDependents: string[];
  /** Files judged fresh besides the written/changed ones (dependents, files a server re-published). */
  dependentsChecked: number;
  /** The project of the written files was still loading when the budget ran out. */
  loading?: boolean;
}

/** What computing a verdict needs. */
export interface EditVerdictDeps {
  runner: Pick<ActionRunner, 'run'>;
  engine: Pick<LspEngineApi, 'onDiagnostics' | 'filesChanged' | 'diagnosticsMany' | 'fileImporters' | 'projectFiles'>;
  baselines: DiagnosticsBaselines;
  ledger: ChangeLedger;
  /** `lsp_diagnostics` `changes_only` baselines: a verdict the model saw is its latest check. */
  memory?: DiagnosticsMemory;
  /** Whether a server handles the file in this workspace. */
  handles: (path: string, root: string) => boolean;
  readText: DependentsDeps['readText'];
  /** Files of the root's program to ask for the whole program by (the warm-up's seed, recently checked files). */
  anchorsOf: (root: string) => string[];
  /** Whether the root's project is still loading (the warm-up has not had a fresh answer yet). */
  loading: (root: string) => boolean;
  /** Signals one verdict is running for a root (background work yields), until the returned function is called. */
  busy?: (root: string) => () => void;
  waitMs: number;
  severity: EditFeedbackSeverity;
}

/** The changes being judged. */
export interface VerdictCall {
  root: string;
  /** The session the verdict is shown to (its `changes_only` memory is updated). */
  sessionId?: string;
  /** The caller's signal: when it aborts, the verdict is abandoned (the rejection is the abort). */
  signal: AbortSignal;
  /** Files the call wrote (already noted in the ledger, with their tick). */
  writes: readonly ObservedWrite[];
}

/**
 * Where a verdict's time went, published on this `node:diagnostics_channel` (free without a
 * subscriber; bench/edit-feedback.ts reads it): waiting for background checks, telling the
 * servers, the written files' checks, finding dependents, checking the files due.
 */
export const VERDICT_TIMINGS_CHANNEL = 'dsh-lsp-actions:edit-verdict';
const timingsChannel = channel(VERDICT_TIMINGS_CHANNEL);

/** One verdict's phases, in ms. */
export interface VerdictTimings {
  backgroundMs: number;
  announceMs: number;
  /** The written files' checks… */
  writtenMs: number;
  /** …and, at the same time, finding the dependents (both from the end of `announceMs`). */
  dependentsMs: number;
  dueMs: number;
  totalMs: number;
  dependents: number;
  checked: number;
}

const SEVERITY_RANK: Record<EditFeedbackSeverity, number> = { error: 1, warning: 2, info: 3, hint: 4 };

interface CheckContext {
  deps: EditVerdictDeps;
  call: VerdictCall;
  signal: AbortSignal;
  deadline: number;
}

/**
 * @param deps runner, engine, baselines, ledger, budget and threshold
 * @param call root, session, signal and the files written
 * @returns the verdict, or undefined when nothing a server handles is due
 * @throws the call's abort reason when the call is cancelled
 */
export async function computeVerdict(deps: EditVerdictDeps, call: VerdictCall): Promise<EditVerdict | undefined> {
  const { root } = call;
  const writes = call.writes.filter((w) => deps.handles(w.path, root));
  if (writes.length === 0 && !deps.ledger.hasWork(root)) return undefined;
  const done = deps.busy?.(root);
  const deadline = performance.now() + deps.waitMs;
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), deps.waitMs + CUTOFF_GRACE_MS);
  const signal = AbortSignal.any([call.signal, budget.signal]);
  const written = new Set(writes.map((w) => w.path));
  // other files a pushing server re-publishes while this runs are due a check too
  const pushed = new Set<string>();
  const off = deps.engine.onDiagnostics((event) => {
    if (!written.has(event.path) && event.path.startsWith(root + sep)) pushed.add(event.path);
  });
  const ctx: CheckContext = { deps, call, signal, deadline };
  try {
    // background checks of this workspace's files describe the text before this write: let them
    // finish (within the budget) before the servers hear of the write, which would supersede them
    const t0 = performance.now();
    await raceSignal(Promise.all(deps.baselines.running((p) => p.startsWith(root + sep))).then(() => undefined), signal);
    const before = writes.map((w) => baselineOf(deps, w));
    const t1 = performance.now();
    await announce(ctx, writes);
    const t2 = performance.now();
    const changed = deps.ledger.sources(root).filter((s) => !written.has(s.path));
    // the written files' checks and the dependents' lookup go to the server together (pipelined)
    let t3 = t2;
    const [checked, found] = await Promise.all([
      pool(writes, CONCURRENCY, (w, i) => checkWritten(ctx, w, before[i])).finally(() => (t3 = performance.now())),
      dependentsStep(ctx),
    ]);
    const t4 = performance.now();
    // files a server re-published meanwhile matter only where dependents could not be listed
    const firstTick = Math.min(...writes.map((w) => w.tick), Number.POSITIVE_INFINITY);
    if (pushed.size > 0 && found.unknown.length > 0) {
      deps.ledger.markDirty(root, [...pushed].filter((p) => deps.handles(p, root)), Number.isFinite(firstTick) ? firstTick : deps.ledger.tick());
    }
    const externally = new Set(changed.map((s) => s.path));
    const others = await checkDue(ctx, written, found, externally);
    const t5 = performance.now();
    if (timingsChannel.hasSubscribers) {
      const timings: VerdictTimings = {
        backgroundMs: t1 - t0, announceMs: t2 - t1, writtenMs: t3 - t2, dependentsMs: t4 - t2, dueMs: t5 - t4, totalMs: t5 - t0,
        dependents: found.files.length, checked: others.checked,
      };
      timingsChannel.publish(timings);
    }
    // what stays due: files without a fresh answer, and changes whose dependents were not looked up in time
    const left = deps.ledger.dirty(root).filter((d) => !written.has(d.path));
    const unsearched = deps.ledger.sources(root).map((s) => s.path);
    const verdict: EditVerdict = {
      root,
      waitMs: deps.waitMs,
      files: [...checked, ...others.files],
      pending: left.length + unsearched.length,
      pendingOf: [...new Set([...left.map((d) => deps.ledger.causeOf(root, d.path) ?? ''), ...unsearched])].filter((p) => p !== ''),
      unknownDependents: found.unknown,
      dependentsChecked: others.checked,
    };
    if (checked.some((c) => c.state === 'pending') && deps.loading(root)) verdict.loading = true;
    return verdict;
  } finally {
    off();
    clearTimeout(timer);
    done?.();
  }
}

/**
 * The "before" of a written file: none for a file the session saw absent; else its last fresh
 * verdict, whoever changed the file since — as long as that check began before this write was
 * noted (a later one may already describe the written text).
 */
function baselineOf(deps: EditVerdictDeps, write: ObservedWrite): readonly RememberedDiagnostic[] | undefined {
  if (write.previous?.kind === 'absent') return [];
  return deps.baselines.usableBefore(write.path, write.tick)?.diagnostics;
}

/** One written file: a fresh check of the new content, compared with its baseline. */
async function checkWritten(ctx: CheckContext, write: ObservedWrite, baseline: readonly RememberedDiagnostic[] | undefined): Promise<FileVerdict> {
  const { deps, call } = ctx;
  const verdict = (state: FileVerdict['state']): FileVerdict => ({ path: write.path, role: 'written', state, compared: false, added: [], resolved: 0 });
  try {
    const tick = deps.ledger.tick();
    const result = await fetchDiagnostics(ctx, write.path);
    if (result.state !== 'fresh') return verdict('pending');
    if (!result.truncated) {
      if (deps.ledger.quietSince(call.root, tick)) deps.baselines.set(write.path, write.version, result.diagnostics, tick);
      deps.ledger.judged(call.root, write.path, tick);
      if (call.sessionId !== undefined) deps.memory?.set(call.sessionId, write.path, result.diagnostics);
    }
    return judge(deps.severity, write.path, 'written', result.truncated ? undefined : baseline, result.diagnostics);
  } catch (error) {
    return failure(ctx, verdict, error);
  }
}

/** Finds the dependents of every change still without them; the found ones become due. */
async function dependentsStep(ctx: CheckContext): Promise<{ files: string[]; unknown: string[] }> {
  const { deps, call } = ctx;
  const sources = deps.ledger.sources(call.root).filter((s) => deps.handles(s.path, call.root) || s.kind === 'deleted' || /(^|\/)[jt]sconfig\.json$/.test(s.path));
  for (const s of deps.ledger.sources(call.root)) if (!sources.includes(s)) deps.ledger.sourceDone(call.root, s.path, s.since);
  if (sources.length === 0) return { files: [], unknown: [] };
  const tick = deps.ledger.tick();
  try {
    const found = await findDependents(
      { engine: deps.engine, readText: deps.readText },
      call.root,
      sources,
      deps.anchorsOf(call.root),
      ctx.signal,
    );
    const since = Math.min(...sources.map((s) => s.since));
    const cause = sources.length === 1 ? sources[0]?.path : undefined;
    deps.ledger.markDirty(call.root, found.files.filter((p) => deps.handles(p, call.root)), since, cause);
    for (const path of [...found.found, ...found.unknown]) deps.ledger.sourceDone(call.root, path, tick);
    return { files: found.files, unknown: found.unknown };
  } catch (error) {
    if (call.signal.aborted) throw error;
    // out of budget: the sources stay, so the next verdict looks again; this one counts them pending
    return { files: [], unknown: [] };
  }
}

/** Checks the files due (dependents nearest first, then changes and leftovers) within the budget. */
async function checkDue(
  ctx: CheckContext,
  written: ReadonlySet<string>,
  found: { files: string[] },
  externally: ReadonlySet<string>,
): Promise<{ files: FileVerdict[]; checked: number }> {
  const { deps, call } = ctx;
  const due = new Map(deps.ledger.dirty(call.root).filter((d) => !written.has(d.path)).map((d) => [d.path, d.since] as const));
  const order = [...[...externally].filter((p) => due.has(p)), ...found.files.filter((p) => due.has(p)), ...due.keys()];
  const queue = [...new Set(order)];
  const out: FileVerdict[] = [];
  let checked = 0;
  for (let at = 0; at < queue.length && !ctx.signal.aborted; at += BATCH) {
    const waitMs = Math.round(ctx.deadline - performance.now());
    if (waitMs <= 0) break;
    const batch = queue.slice(at, at + BATCH);
    const tick = deps.ledger.tick();
    let entries;
    try {
      // below the reported severity nothing is asked (tsserver's suggestion pass is skipped for `warning`)
      entries = await deps.engine.diagnosticsMany(call.root, batch, { signal: ctx.signal, waitMs, minSeverity: SEVERITY_RANK[deps.severity] as 1 | 2 | 3 | 4 });
    } catch (error) {
      if (call.signal.aborted) throw error;
      break; // out of budget (or the batch failed): the rest stays due
    }
    for (const entry of entries) {
      const role: FileRole = externally.has(entry.path) ? 'changed' : 'dependent';
      if ('error' in entry) {
        if (entry.error.code === 'LSP_ACTION_FILE_NOT_FOUND') deps.ledger.judged(call.root, entry.path, tick);
        else if (role === 'changed') out.push({ path: entry.path, role, state: 'failed', compared: false, added: [], resolved: 0, error: entry.error });
        continue;
      }
      if (entry.state !== 'fresh') continue;
      const since = due.get(entry.path) ?? tick;
      const baseline = deps.baselines.usableBefore(entry.path, since);
      const diagnostics = entry.diagnostics.map(toWireDiagnostic);
      // an answer obtained while another change was noted may already contain it: judged, but no baseline
      if (deps.ledger.quietSince(call.root, tick)) deps.baselines.set(entry.path, undefined, diagnostics, tick);
      deps.ledger.judged(call.root, entry.path, tick);
      checked++;
      const verdict = judge(deps.severity, entry.path, role, baseline?.diagnostics, diagnostics);
      if (role === 'changed' || verdict.added.length > 0 || verdict.resolved > 0) out.push(verdict);
    }
  }
  return { files: out, checked };
}

/**
 * Tells the engine about the writes (as the plugin's own write path does), so every server that
 * sees the files learns of the change now — open copies re-synced, dependents' held results
 * invalidated — rather than at the next request that happens to touch them. Best effort: a
 * failure here shows up in the checks that follow.
 */
async function announce(ctx: CheckContext, writes: readonly ObservedWrite[]): Promise<void> {
  if (writes.length === 0) return;
  try {
    await ctx.deps.engine.filesChanged(
      writes.map((w) => ({ path: w.path, kind: w.previous?.kind === 'absent' ? ('created' as const) : ('changed' as const) })),
      { signal: ctx.signal },
    );
  } catch (error) {
    if (ctx.call.signal.aborted) throw error;
  }
}

async function fetchDiagnostics(ctx: CheckContext, path: string): Promise<DiagnosticsGetResult> {
  const waitMs = Math.max(1, Math.round(ctx.deadline - performance.now()));
  return (await ctx.deps.runner.run({
    action: 'diagnostics.get',
    params: { workspaceRoot: ctx.call.root, filePath: path, maxItems: FETCH_ITEMS, waitMs },
    signal: ctx.signal,
    toolName: 'edit feedback',
  })) as DiagnosticsGetResult;
}

/** Compares (or, without a baseline, lists) at the threshold, root causes first. */
function judge(severity: EditFeedbackSeverity, path: string, role: FileRole, baseline: readonly RememberedDiagnostic[] | undefined, now: readonly WireDiagnostic[]): FileVerdict {
  const rank = SEVERITY_RANK[severity];
  const atThreshold = <T extends RememberedDiagnostic>(list: readonly T[]): T[] => list.filter((d) => d.severity <= rank);
  if (baseline === undefined) return { path, role, state: 'fresh', compared: false, added: rootCausesFirst(atThreshold(now)), resolved: 0 };
  const changes = diffDiagnostics(baseline, now);
  return { path, role, state: 'fresh', compared: true, added: rootCausesFirst(atThreshold(changes.added)), resolved: atThreshold(changes.resolved).length };
}

/**
 * @param d a diagnostic
 * @returns whether it is a syntax error (TypeScript's 1xxx codes): the cause of what follows it
 */
export function isSyntaxProblem(d: Pick<WireDiagnostic, 'source' | 'code'>): boolean {
  const code = typeof d.code === 'number' ? d.code : Number(d.code);
  return (d.source === undefined || /^(ts|typescript)$/i.test(d.source)) && code >= 1000 && code < 2000;
}

/** @returns the list sorted by severity, syntax errors first among equals, then by position */
export function rootCausesFirst(list: readonly WireDiagnostic[]): WireDiagnostic[] {
  return list.toSorted(
    (a, b) =>
      a.severity - b.severity ||
      Number(isSyntaxProblem(b)) - Number(isSyntaxProblem(a)) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character,
  );
}

/** A check that threw: the call's own abort propagates; the budget running out is `pending`; anything else `failed`. */
function failure(ctx: CheckContext, verdict: (state: FileVerdict['state']) => FileVerdict, error: unknown): FileVerdict {
  if (ctx.call.signal.aborted) throw error;
  if (ctx.signal.aborted) return verdict('pending');
  const code = isActionError(error) ? String(error.code) : 'LSP_ACTION_SERVER_FAILED';
  const message = error instanceof Error ? error.message : String(error);
  return { ...verdict('failed'), error: { code, message } };
}

/** Waits for `promise` or the signal, whichever comes first (never rejects on the signal). */
async function raceSignal(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let onAbort!: () => void;
  const aborted = new Promise<void>((settle) => {
    onAbort = settle;
  });
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Maps `items` through `fn`, at most `limit` at once, in order. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = Array.from({ length: items.length });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
