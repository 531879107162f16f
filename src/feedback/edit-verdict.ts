/**
 * The language server's verdict on one tool call's writes, within a time budget: for each
 * written file a server handles, its fresh diagnostics compared with the baseline of the content
 * the write replaced (new / resolved, as `lsp_diagnostics` `changes_only` counts them), and, for
 * other open files the server re-checked within the budget, the problems the write caused there.
 * A file without a fresh answer in time is `pending`; a failed check is `failed` — never clean.
 */
import { sep } from 'node:path';
import type { DiagnosticsGetResult, WireDiagnostic } from '../actions/action-results.ts';
import type { ActionRunner } from '../actions/action-runner.ts';
import type { EditFeedbackSeverity } from '../config.ts';
import { isActionError } from '../errors.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import { diffDiagnostics, type DiagnosticsMemory, type RememberedDiagnostic } from '../tools/diagnostics-memory.ts';
import type { DiagnosticsBaselines } from './diagnostics-baselines.ts';
import type { ObservedWrite } from './write-tracker.ts';

/** Items fetched per file: a baseline must be the complete list. */
const FETCH_ITEMS = 1_000;
/** Time past the budget a server start or request may take before the check is cut off. */
const CUTOFF_GRACE_MS = 250;
/** Written files checked at once. */
const CONCURRENCY = 4;
/** Other open files re-checked at most per write, when their server answers by request. */
const OTHER_FILES_MAX = 8;

/** One file's part of the verdict. */
export interface FileVerdict {
  /** Absolute path. */
  path: string;
  /** Written by the call (else another file the server re-checked). */
  written: boolean;
  state: 'fresh' | 'pending' | 'failed';
  /** Fresh and compared with a baseline; `added` is then what is new, else everything at or above the threshold. */
  compared: boolean;
  /** New problems (or, uncompared, current ones) at or above the severity threshold, worst first. */
  added: WireDiagnostic[];
  /** Problems at or above the threshold that the write resolved. */
  resolved: number;
  error?: { code: string; message: string };
}

/** The verdict on one call's writes. */
export interface EditVerdict {
  root: string;
  waitMs: number;
  files: FileVerdict[];
}

/** What computing a verdict needs. */
export interface EditVerdictDeps {
  runner: Pick<ActionRunner, 'run'>;
  engine: Pick<LspEngineApi, 'onDiagnostics' | 'openDocuments' | 'filesChanged'>;
  baselines: DiagnosticsBaselines;
  /** `lsp_diagnostics` `changes_only` baselines: a verdict the model saw is its latest check. */
  memory: DiagnosticsMemory;
  /** Whether a server handles the file in this workspace. */
  handles: (path: string, root: string) => boolean;
  waitMs: number;
  severity: EditFeedbackSeverity;
}

/** The call being judged. */
export interface VerdictCall {
  root: string;
  sessionId: string;
  /** The call's signal: when it aborts, the verdict is abandoned (the rejection is the abort). */
  signal: AbortSignal;
  writes: readonly ObservedWrite[];
}

const SEVERITY_RANK: Record<EditFeedbackSeverity, number> = { error: 1, warning: 2, info: 3, hint: 4 };

/**
 * @param deps runner, engine, baselines, budget and threshold
 * @param call root, session, signal and the files written
 * @returns the verdict, or undefined when no written file is one a server handles
 * @throws the call's abort reason when the call is cancelled
 */
export async function computeVerdict(deps: EditVerdictDeps, call: VerdictCall): Promise<EditVerdict | undefined> {
  const { root } = call;
  const writes = call.writes.filter((w) => deps.handles(w.path, root));
  if (writes.length === 0) return undefined;
  const deadline = performance.now() + deps.waitMs;
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), deps.waitMs + CUTOFF_GRACE_MS);
  const signal = AbortSignal.any([call.signal, budget.signal]);
  const written = new Set(writes.map((w) => w.path));
  // other files the server re-publishes while this write is checked; listening starts before the
  // written text reaches the server, so no publish it causes is missed
  const touched = new Set<string>();
  const off = deps.engine.onDiagnostics((event) => {
    if (!written.has(event.path) && event.path.startsWith(root + sep)) touched.add(event.path);
  });
  const ctx: CheckContext = { deps, call, signal, deadline };
  try {
    // background checks of this workspace's files describe the text before this write: let them
    // finish (within the budget) before the servers hear of the write, which would supersede them
    await raceSignal(Promise.all(deps.baselines.running((p) => p.startsWith(root + sep))).then(() => undefined), signal);
    const before = await pool(writes, CONCURRENCY, (w) => baselineOf(ctx, w));
    await announce(ctx, writes);
    const checked = await pool(writes, CONCURRENCY, (w, i) => checkWritten(ctx, w, before[i]));
    const files = checked.map((c) => c.verdict);
    if (checked.some((c) => c.asked)) {
      // a server that answers by request (pull, tsserver passthrough) re-checks a dependent only
      // when asked: ask for the open files with a baseline, most recently used first
      const open = new Set(deps.engine.openDocuments());
      const candidate = (p: string): boolean => open.has(p) && !written.has(p) && p.startsWith(root + sep);
      for (const path of deps.baselines.mostRecent(candidate, OTHER_FILES_MAX)) touched.add(path);
    }
    const others = await pool([...touched], CONCURRENCY, (path) => checkOther(ctx, path));
    return { root, waitMs: deps.waitMs, files: [...files, ...others.filter((f): f is FileVerdict => f !== undefined)] };
  } finally {
    off();
    clearTimeout(timer);
  }
}

interface CheckContext {
  deps: EditVerdictDeps;
  call: VerdictCall;
  signal: AbortSignal;
  deadline: number;
}

/** A written file's verdict, and whether its servers answer by request (so dependents must be asked). */
interface WrittenCheck {
  verdict: FileVerdict;
  asked: boolean;
}

/** One written file: baseline of the replaced content, then a fresh check of the new content. */
async function checkWritten(ctx: CheckContext, write: ObservedWrite, baseline: readonly RememberedDiagnostic[] | undefined): Promise<WrittenCheck> {
  const { deps, call } = ctx;
  const verdict = (state: FileVerdict['state']): FileVerdict => ({ path: write.path, written: true, state, compared: false, added: [], resolved: 0 });
  try {
    const result = await fetchDiagnostics(ctx, write.path);
    const asked = result.servers.some((server) => server.mode === 'pull');
    if (result.state !== 'fresh') return { verdict: verdict('pending'), asked };
    if (!result.truncated) {
      deps.baselines.set(write.path, write.version, result.diagnostics);
      deps.memory.set(call.sessionId, write.path, result.diagnostics);
    }
    return { verdict: judge(deps.severity, write.path, true, baseline, result), asked };
  } catch (error) {
    return { verdict: failure(ctx, verdict, error), asked: false };
  }
}

/** Another open file the server re-checked: reported only when it has a baseline and something changed. */
async function checkOther(ctx: CheckContext, path: string): Promise<FileVerdict | undefined> {
  const before = ctx.deps.baselines.get(path);
  if (before === undefined || ctx.signal.aborted) return undefined;
  try {
    const result = await fetchDiagnostics(ctx, path);
    if (result.state !== 'fresh') return undefined;
    if (!result.truncated) ctx.deps.baselines.set(path, before.version, result.diagnostics);
    const verdict = judge(ctx.deps.severity, path, false, before.diagnostics, result);
    return verdict.added.length > 0 || verdict.resolved > 0 ? verdict : undefined;
  } catch (error) {
    if (ctx.call.signal.aborted) throw error;
    return undefined; // another file's check is best effort; its failure says nothing about this write
  }
}

/**
 * Tells the engine about the writes (as the plugin's own write path does), so every server that
 * sees the files learns of the change now — open copies re-synced, dependents' held results
 * invalidated — rather than at the next request that happens to touch them. Best effort: a
 * failure here shows up in the checks that follow.
 */
async function announce(ctx: CheckContext, writes: readonly ObservedWrite[]): Promise<void> {
  try {
    await ctx.deps.engine.filesChanged(
      writes.map((w) => ({ path: w.path, kind: w.previous?.kind === 'absent' ? ('created' as const) : ('changed' as const) })),
      { signal: ctx.signal },
    );
  } catch (error) {
    if (ctx.call.signal.aborted) throw error;
  }
}

/**
 * The replaced content's diagnostics: none for a file the session saw absent; else the baseline
 * of exactly the version the session last saw, waiting (within the budget) for a background
 * check of it that is still running.
 */
async function baselineOf(ctx: CheckContext, write: ObservedWrite): Promise<readonly RememberedDiagnostic[] | undefined> {
  const previous = write.previous;
  if (previous?.kind === 'absent') return [];
  if (previous === undefined) return undefined;
  const { baselines } = ctx.deps;
  const known = baselines.forVersion(write.path, previous.version);
  if (known) return known.diagnostics;
  const running = baselines.inflight(write.path, previous.version);
  if (running === undefined) return undefined;
  await raceSignal(running, ctx.signal);
  return baselines.forVersion(write.path, previous.version)?.diagnostics;
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

/** Compares (or, without a baseline, lists) at the threshold, worst first. */
function judge(
  severity: EditFeedbackSeverity,
  path: string,
  written: boolean,
  baseline: readonly RememberedDiagnostic[] | undefined,
  result: DiagnosticsGetResult,
): FileVerdict {
  const rank = SEVERITY_RANK[severity];
  const atThreshold = <T extends RememberedDiagnostic>(list: readonly T[]): T[] => list.filter((d) => d.severity <= rank);
  if (baseline === undefined || result.truncated) {
    return { path, written, state: 'fresh', compared: false, added: worstFirst(atThreshold(result.diagnostics)), resolved: 0 };
  }
  const changes = diffDiagnostics(baseline, result.diagnostics);
  return { path, written, state: 'fresh', compared: true, added: worstFirst(atThreshold(changes.added)), resolved: atThreshold(changes.resolved).length };
}

/** @returns the list sorted worst first, then by position */
function worstFirst(list: readonly WireDiagnostic[]): WireDiagnostic[] {
  return list.toSorted((a, b) => a.severity - b.severity || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
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
