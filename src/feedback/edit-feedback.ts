/**
 * Edit feedback: every change an agent makes to files comes back with the language servers'
 * verdict on it, through the harness's own seams.
 *
 * - What changed: `fs/observed` tells which files a followed call (the harness's `write`/`edit`)
 *   wrote; our own write path tells which files our write tools wrote (read by the agent or not);
 *   the workspace watcher, when there is one, tells what changed on disk otherwise (a shell
 *   command, the user). Every change is noted at once in the {@link ChangeLedger}.
 * - When: a `tools/post-execute` listener judges the call's writes, and, for any other call,
 *   the changes the watcher saw meanwhile; the verdict (`computeVerdict`) covers the changed
 *   files, their dependents and whatever an earlier verdict left unjudged, within
 *   `editFeedback.waitMs`, and is appended to the result's content.
 * - Before the first edit: a session touching a workspace starts loading its project
 *   (`ProjectWarmup`); reads start background checks of the file read (`BaselinePrefetch`). A
 *   project that cannot be judged within the budget is said once per session; later writes
 *   while it loads get no line and are judged with the first write after it has loaded.
 *
 * Never harms the write: failed, blocked or replaced-value results, agentless calls and
 * read-only sessions are passed on untouched; a failure inside the feedback keeps the original
 * content and appends at most a one-line note; a cancelled call gets no verdict. Everything is
 * an effect of the calling fiber.
 */
import type { Context } from '@deepseek-ai/cordis';
import type { Agent } from '@deepseek-ai/dsh-agent';
import type { ContentBlock } from '@deepseek-ai/dsh-llm';
import type { SandboxPolicyService } from '@deepseek-ai/dsh-sandbox-policy';
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import type { ActionRunner } from '../actions/action-runner.ts';
import type { Config } from '../config.ts';
import type { LspEngineApi } from '../lsp/engine-types.ts';
import type { DiagnosticsMemory } from '../tools/diagnostics-memory.ts';
import { workspaceFileLister } from '../tools/workspace-files.ts';
import { BaselinePrefetch } from './baseline-prefetch.ts';
import { ChangeLedger } from './change-ledger.ts';
import { DiagnosticsBaselines } from './diagnostics-baselines.ts';
import { computeVerdict, type EditVerdict, type EditVerdictDeps, type VerdictCall } from './edit-verdict.ts';
import { ExternalChanges, type WatchedChange } from './external-changes.ts';
import { ProjectWarmup } from './project-warmup.ts';
import { renderFailureNote, renderLoadingMark, renderVerdict } from './verdict-render.ts';
import { agentOf, sessionKey, WriteTracker, type AgentLike } from './write-tracker.ts';

/** Tools that never change files: no wait for the watcher after them. */
const READ_ONLY_TOOLS = new Set(['read', 'grep', 'glob', 'ls', 'lsp_diagnostics', 'lsp_symbols', 'lsp_completion', 'lsp_signature', 'lsp_inlay_hints']);

/** Files whose baselines are kept at least (a program's worth, whatever `maxOpenDocuments` is). */
const MIN_BASELINES = 4_096;

/** @returns the agent's workspace root (its session's cwd), when it has one */
function rootOf(agent: AgentLike): string | undefined {
  const cwd = agent.session.header.cwd;
  return typeof cwd === 'string' ? cwd : undefined;
}

/** What edit feedback runs on. */
export interface EditFeedbackDeps {
  runner: Pick<ActionRunner, 'run'>;
  engine: Pick<LspEngineApi, 'onDiagnostics' | 'serversFor' | 'filesChanged' | 'diagnosticsMany' | 'fileImporters' | 'projectFiles'>;
  config: Config;
  /** The `lsp_diagnostics` `changes_only` baselines (shared: a verdict the model saw is its latest check). */
  memory: DiagnosticsMemory;
  log: (level: 'warn' | 'debug', message: string) => void;
}

/** How the rest of the plugin tells edit feedback about changes it cannot observe itself. */
export interface EditFeedbackHooks {
  /** Our write path wrote `paths` for the call `actor` (the tool's exec). */
  written(actor: object | undefined, paths: readonly string[]): void;
  /** The workspace watcher saw changes on disk. */
  watched(changes: readonly WatchedChange[]): void;
  /** A workspace watcher started (so other tools' changes will be seen). */
  watchStarted(): void;
  /**
   * The verdict on `changed` paths (already on disk) and everything still unjudged under `root`,
   * for a face that is not a DSH tool call (e.g. an MCP server).
   */
  verdictFor(root: string, changed: readonly string[], signal: AbortSignal, created?: ReadonlySet<string>): Promise<EditVerdict | undefined>;
  /** Settles when the project warm-up of `root` (started by a session touching it) is over. */
  warmedUp(root: string): Promise<void>;
  /**
   * Starts the project warm-up of `root` for a face with no agent session (an MCP server): its
   * files get their first fresh verdict in the background, so a later change is compared, not
   * listed as "no earlier check".
   */
  warmUp(root: string, seed?: string): void;
}

/**
 * Installs edit feedback on `ctx` when `config.editFeedback.enabled`; otherwise does nothing, so
 * results stay exactly the harness's own.
 * @param ctx cordis context with `fs` and `tools`
 * @param deps runner, engine, config, shared memory, log
 * @returns the hooks, or undefined when disabled
 */
export function startEditFeedback(ctx: Context, deps: EditFeedbackDeps): EditFeedbackHooks | undefined {
  const cfg = deps.config.editFeedback;
  if (!cfg.enabled) return undefined;
  const followed = new Set(cfg.tools);
  const baselines = new DiagnosticsBaselines(Math.max(MIN_BASELINES, deps.config.maxOpenDocuments * 4));
  const ledger = new ChangeLedger();
  const handles = (path: string, root: string): boolean => {
    try {
      return deps.engine.serversFor(path, root).length > 0;
    } catch {
      return false; // swallowed: a path the router refuses (outside the workspace) is one no server handles
    }
  };
  const readOnly = (agent: AgentLike): boolean => {
    try {
      const policy: SandboxPolicyService | undefined = ctx.get('sandboxPolicy');
      return policy?.resolve({ session: (agent as unknown as Agent).session }).mode === 'read-only';
    } catch {
      return true; // swallowed: a session whose mode cannot be told is left untouched, as a read-only one
    }
  };
  const debug = (message: string): void => deps.log('debug', message);
  const lister = workspaceFileLister(ctx.fs, deps.config.servers);
  const warmup = new ProjectWarmup({
    engine: deps.engine, baselines, ledger, handles, log: debug,
    minSeverity: ({ error: 1, warning: 2, info: 3, hint: 4 } as const)[cfg.severity],
    listFiles: async (root, max, signal) => (await lister(root, max, signal)).files,
  });
  const prefetch = cfg.baselineOnRead
    ? new BaselinePrefetch({ runner: deps.runner, fs: ctx.fs, baselines, handles, readOnly, waitMs: deps.config.diagnosticsWaitMs, tick: () => ledger.tick(), quietExceptSince: (root, tick, path) => ledger.quietExceptSince(root, tick, path), log: debug })
    : undefined;
  const roots = new Set<string>();
  const touch = (agent: AgentLike, seed?: string): void => {
    const root = rootOf(agent);
    if (root === undefined || readOnly(agent)) return;
    roots.add(root);
    warmup.touch(root, seed);
  };
  const external = new ExternalChanges({ fs: ctx.fs, ledger, roots: () => roots, log: debug });
  const tracker = new WriteTracker({
    follows: (name) => followed.has(name),
    pathOf: (target) => ctx.fs.processPath(target),
    onRead: (read) => {
      touch(read.agent, read.path);
      prefetch?.onRead(read);
    },
    onWrite: (path, agent, kind, version) => {
      external.wrote(path, version);
      return ledger.note(rootOf(agent) ?? '', [{ path, kind }]);
    },
    maxEntries: deps.config.maxOpenDocuments * 4,
  });
  const verdictDeps: EditVerdictDeps = {
    runner: deps.runner, engine: deps.engine, baselines, ledger, memory: deps.memory, handles,
    readText: async (path, signal) => {
      try {
        return await ctx.fs.readText(await ctx.fs.resolve(path), signal);
      } catch {
        return undefined; // swallowed: an unreadable file counts as reaching the whole program (dependents.ts)
      }
    },
    anchorsOf: (root) => {
      const seed = warmup.anchor(root);
      const recent = baselines.mostRecent((p) => p.startsWith(`${root}/`) && handles(p, root), 3);
      return [...(seed === undefined ? [] : [seed]), ...recent];
    },
    loading: (root) => warmup.state(root) === 'loading',
    busy: (root) => warmup.busy(root),
    waitMs: cfg.waitMs,
    severity: cfg.severity,
  };
  const failures = new Set<string>();
  const logFailure = (message: string): void => {
    // once per kind of failure at warn; repeats (a dead server, every edit) at debug
    const kind = message.slice(0, 80);
    deps.log(failures.has(kind) ? 'debug' : 'warn', `edit feedback: ${message}`);
    failures.add(kind);
  };
  /** Sessions told their project is still loading (told once). */
  const toldLoading = new Set<string>();
  /** Per session, the ledger tick up to which the watcher's changes were judged for it. */
  const externalSeen = new Map<string, number>();

  ctx.effect(() => () => {
    prefetch?.dispose();
    warmup.dispose();
    baselines.clear();
    ledger.clear();
    tracker.clear();
  }, 'lsp-actions:edit-feedback');
  ctx.on('fs/observed', (target, observation, actor) => tracker.observe(target, observation, actor));
  ctx.on('agent/created', ({ agent }: { agent: Agent }) => {
    try {
      touch(agent as unknown as AgentLike);
    } catch (error) {
      debug(`edit feedback: no warm-up for a new agent: ${(error as Error).message}`);
    }
  });
  ctx.on('tools/result', (exec: Readonly<ToolExecution>) => {
    tracker.take(exec); // calls that never reached post-execute (pipeline failures) leave nothing behind
    return undefined;
  });
  ctx.on('agent/disposed', ({ agent }: { agent: Agent }) => {
    const key = sessionKey(agent as unknown as AgentLike);
    tracker.forgetSession(key);
    toldLoading.delete(key);
    externalSeen.delete(key);
  });
  ctx.on('tools/post-execute', async (exec: ToolExecution, result: Readonly<ToolExecutionResult>, next: () => Promise<PostToolDecision>) => {
    const writes = tracker.take(exec);
    const decision = await next();
    if (result.isError || decision.kind !== 'accept' || decision.value !== undefined) return decision;
    let text: string | undefined;
    try {
      const agent = agentOf(exec);
      const root = agent === undefined ? undefined : rootOf(agent);
      if (agent === undefined || root === undefined || readOnly(agent)) return decision;
      const session = sessionKey(agent);
      touch(agent);
      // a call that wrote only files no server handles gets nothing (what is still due waits for a write that matters)
      if (writes.length > 0 && !writes.some((w) => handles(w.path, root))) return decision;
      if (writes.length === 0) {
        // another tool (a shell command): judge what the watcher saw change meanwhile
        if (READ_ONLY_TOOLS.has(exec.name) || !external.watching()) return decision;
        await external.settle();
        const latest = external.latest(root);
        if (latest <= (externalSeen.get(session) ?? 0) || !ledger.hasWork(root)) return decision;
        externalSeen.set(session, latest);
      }
      if (warmup.state(root) === 'loading' && toldLoading.has(session)) {
        // explained once; each later change is marked without waiting, and judged once the project has loaded
        text = renderLoadingMark(cfg.maxChars);
        return { ...decision, content: [...(decision.content ?? result.content), { type: 'text', text }] };
      }
      const call: VerdictCall = { root, sessionId: session, signal: exec.signal, writes };
      const verdict = await computeVerdict(verdictDeps, call);
      if (verdict === undefined) return decision;
      if (verdict.loading) toldLoading.add(session);
      externalSeen.set(session, Math.max(externalSeen.get(session) ?? 0, external.latest(root)));
      for (const file of verdict.files) if (file.error) logFailure(`check of ${file.path} failed: ${file.error.message} (${file.error.code})`);
      text = renderVerdict(verdict, cfg);
    } catch (error) {
      if (exec.signal.aborted) return decision;
      const message = error instanceof Error ? error.message : String(error);
      logFailure(message);
      text = renderFailureNote(message, cfg.maxChars);
    }
    const content: ContentBlock[] = [...(decision.content ?? result.content), { type: 'text', text }];
    return { ...decision, content };
  });

  return {
    written: (actor, paths) => {
      for (const path of paths) {
        external.wrote(path, undefined);
        tracker.recordWrite(actor, path);
      }
    },
    watched: (changes) => external.watched(changes),
    watchStarted: () => external.started(),
    warmedUp: (root) => warmup.settled(root),
    warmUp: (root, seed) => {
      roots.add(root);
      warmup.touch(root, seed);
    },
    verdictFor: async (root, changed, signal, created) => {
      roots.add(root);
      const isNew = (path: string): boolean => created?.has(path) === true;
      const tick = ledger.note(root, changed.map((path) => ({ path, kind: isNew(path) ? ('created' as const) : ('changed' as const) })));
      // a file created since the last verdict has no "before": every problem in it is new
      const writes = changed.map((path) => ({ path, tick, ...(isNew(path) ? { previous: { kind: 'absent' as const } } : {}) }));
      return computeVerdict(verdictDeps, { root, signal, writes });
    },
  };
}
