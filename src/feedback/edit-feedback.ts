/**
 * Edit feedback: every successful agent write comes back with the language server's verdict on
 * it, through the harness's own seams. `fs/observed` tells which files a followed call wrote (and
 * which files agents read, for baselines); a `tools/post-execute` listener computes the verdict
 * within `editFeedback.waitMs` and appends it to the result's content. Everything is an effect of
 * the calling fiber: disposing the plugin removes the listeners and aborts background checks.
 *
 * Never harms the write: failed, blocked or replaced-value results, agentless calls and
 * read-only sessions are passed on untouched; a failure inside the feedback keeps the original
 * content and appends at most a one-line note; a cancelled call gets no verdict.
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
import { BaselinePrefetch } from './baseline-prefetch.ts';
import { DiagnosticsBaselines } from './diagnostics-baselines.ts';
import { computeVerdict, type EditVerdictDeps } from './edit-verdict.ts';
import { renderFailureNote, renderVerdict } from './verdict-render.ts';
import { agentOf, sessionKey, WriteTracker, type AgentLike } from './write-tracker.ts';

/** What edit feedback runs on. */
export interface EditFeedbackDeps {
  runner: Pick<ActionRunner, 'run'>;
  engine: Pick<LspEngineApi, 'onDiagnostics' | 'serversFor' | 'openDocuments' | 'filesChanged'>;
  config: Config;
  /** The `lsp_diagnostics` `changes_only` baselines (shared: a verdict the model saw is its latest check). */
  memory: DiagnosticsMemory;
  log: (level: 'warn' | 'debug', message: string) => void;
}

/**
 * Installs edit feedback on `ctx` when `config.editFeedback.enabled`; otherwise does nothing, so
 * results stay exactly the harness's own.
 * @param ctx cordis context with `fs` and `tools`
 * @param deps runner, engine, config, shared memory, log
 */
export function startEditFeedback(ctx: Context, deps: EditFeedbackDeps): void {
  const cfg = deps.config.editFeedback;
  if (!cfg.enabled) return;
  const followed = new Set(cfg.tools);
  const baselines = new DiagnosticsBaselines(deps.config.maxOpenDocuments);
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
  const prefetch = cfg.baselineOnRead
    ? new BaselinePrefetch({
        runner: deps.runner, fs: ctx.fs, baselines, handles, readOnly,
        waitMs: deps.config.diagnosticsWaitMs,
        log: (message) => deps.log('debug', message),
      })
    : undefined;
  const tracker = new WriteTracker({
    follows: (name) => followed.has(name),
    pathOf: (target) => ctx.fs.processPath(target),
    ...(prefetch ? { onRead: (read) => prefetch.onRead(read) } : {}),
    maxEntries: deps.config.maxOpenDocuments * 4,
  });
  const verdictDeps: EditVerdictDeps = {
    runner: deps.runner, engine: deps.engine, baselines, memory: deps.memory, handles, waitMs: cfg.waitMs, severity: cfg.severity,
  };
  const failures = new Set<string>();
  const logFailure = (message: string): void => {
    // once per kind of failure at warn; repeats (a dead server, every edit) at debug
    const kind = message.slice(0, 80);
    deps.log(failures.has(kind) ? 'debug' : 'warn', `edit feedback: ${message}`);
    failures.add(kind);
  };

  ctx.effect(() => () => {
    prefetch?.dispose();
    baselines.clear();
    tracker.clear();
  }, 'lsp-actions:edit-feedback');
  ctx.on('fs/observed', (target, observation, actor) => tracker.observe(target, observation, actor));
  ctx.on('tools/result', (exec: Readonly<ToolExecution>) => {
    tracker.take(exec); // calls that never reached post-execute (pipeline failures) leave nothing behind
    return undefined;
  });
  ctx.on('agent/disposed', ({ agent }: { agent: Agent }) => tracker.forgetSession(sessionKey(agent as unknown as AgentLike)));
  ctx.on('tools/post-execute', async (exec: ToolExecution, result: Readonly<ToolExecutionResult>, next: () => Promise<PostToolDecision>) => {
    const writes = tracker.take(exec);
    const decision = await next();
    if (writes.length === 0 || result.isError || decision.kind !== 'accept' || decision.value !== undefined) return decision;
    let text: string;
    try {
      const agent = agentOf(exec);
      const root = agent?.session.header.cwd;
      if (agent === undefined || typeof root !== 'string' || readOnly(agent)) return decision;
      const verdict = await computeVerdict(verdictDeps, { root, sessionId: sessionKey(agent), signal: exec.signal, writes });
      if (verdict === undefined) return decision;
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
}
